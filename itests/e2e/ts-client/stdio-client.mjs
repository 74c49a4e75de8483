// A real MCP client that launches Quiver as a stdio server, as a desktop host does: the official
// TypeScript SDK v2 client package (pinned in package.json + package-lock.json) with its
// StdioClientTransport, in its default (2025) connect sequence: initialize, then a session.
//
//   node stdio-client.mjs <server home> <server log file> [list_changed timeout ms] -- <command> [args...]
//
// The server runs in <server home> with its stderr appended to <server log file>. Each step prints
// one JSON line on stdout ({"step": ..., ...}); two plain marker lines tell the driving test when to
// act and what happened: LISTENING (the session is up and the first call answered) and LIST_CHANGED
// (notifications/tools/list_changed arrived). Exit code 0 only if every step succeeded.

import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const separator = process.argv.indexOf('--');
const [home, logFile, timeoutArg] = separator < 0 ? [] : process.argv.slice(2, separator);
const [command, ...args] = separator < 0 ? [] : process.argv.slice(separator + 1);
if (!home || !logFile || !command) {
    console.error('usage: node stdio-client.mjs <server home> <server log> [timeout ms] -- <command> [args...]');
    process.exit(2);
}
const listChangedTimeoutMs = Number(timeoutArg ?? 20000);

const emit = (step, fields) => console.log(JSON.stringify({ step, ...fields }));
const trace = (line) => console.error(`[ts-stdio-client] ${line}`);
const names = (result) => result.tools.map((t) => t.name);
const text = (result) => result.content?.find((c) => c.type === 'text')?.text ?? null;

async function main() {
    const client = new Client({ name: 'quiver-ts-stdio-it', version: '1.0.0' }, { capabilities: {} });
    client.onerror = (e) => trace(`client error: ${e?.stack ?? e}`);

    let listChanged;
    const changed = new Promise((resolve) => { listChanged = resolve; });
    client.setNotificationHandler('notifications/tools/list_changed', (notification) => {
        listChanged(notification);
    });

    const stderr = fs.openSync(logFile, 'a');
    const transport = new StdioClientTransport({ command, args, cwd: home, stderr });
    await client.connect(transport);
    const pid = transport.pid;
    emit('initialized', {
        pid,
        protocolVersion: client.getNegotiatedProtocolVersion() ?? null,
        serverInfo: client.getServerVersion() ?? null,
        capabilities: client.getServerCapabilities() ?? null,
    });

    const before = await client.listTools();
    emit('tools', { names: names(before) });

    const call = await client.callTool({ name: 'current_time', arguments: { timezone: 'UTC' } });
    emit('call', { isError: call.isError ?? false, text: text(call), structured: call.structuredContent ?? null });
    console.log('LISTENING');

    let timer;
    const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(
            `no notifications/tools/list_changed within ${listChangedTimeoutMs} ms`)), listChangedTimeoutMs);
    });
    const notification = await Promise.race([changed, timeout]);
    clearTimeout(timer);
    console.log('LIST_CHANGED');
    emit('list_changed', { method: notification.method });

    const after = await client.listTools();
    emit('tools_after', { names: names(after) });

    const greet = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
    emit('greet', { isError: greet.isError ?? false, structured: greet.structuredContent ?? null });

    // closes the server's stdin first; the server is meant to stop on its own before the SDK's SIGTERM
    await client.close();
    emit('closed', { pid });
}

main().then(
    () => process.exit(0),
    (e) => {
        trace(`FAILED: ${e?.stack ?? e}`);
        emit('error', { message: String(e?.message ?? e), code: e?.code ?? null });
        process.exit(1);
    },
);
