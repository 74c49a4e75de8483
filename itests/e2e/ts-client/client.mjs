// A real MCP 2026-07-28 client against a running Quiver: the official TypeScript SDK v2 client
// package (pinned in package.json + package-lock.json) over its Streamable HTTP transport.
//
//   node client.mjs <server url> [list_changed timeout ms, default 20000]
//
// Each step prints one JSON line on stdout ({"step": ..., ...}); two plain marker lines tell the
// driving test when to act and what happened: LISTENING (the subscriptions/listen stream is
// acknowledged) and LIST_CHANGED (notifications/tools/list_changed arrived on it). Every HTTP
// exchange is traced to stderr, one line each. Exit code 0 only if every step succeeded.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const VERSION = '2026-07-28';
const [url, timeoutArg] = process.argv.slice(2);
if (!url) {
    console.error('usage: node client.mjs <server url> [list_changed timeout ms]');
    process.exit(2);
}
const listChangedTimeoutMs = Number(timeoutArg ?? 20000);

const emit = (step, fields) => console.log(JSON.stringify({ step, ...fields }));
const trace = (line) => console.error(`[ts-client] ${line}`);

// Traces each request (method, MCP headers, body) and each answer (status, content type, and a
// JSON body); a text/event-stream body is left alone, since the SDK reads it as it arrives.
async function tracingFetch(input, init = {}) {
    const headers = new Headers(init.headers);
    const mcp = [...headers].filter(([k]) => k.startsWith('mcp-')).map(([k, v]) => `${k}: ${v}`).join(', ');
    trace(`> ${init.method ?? 'GET'} ${mcp} ${typeof init.body === 'string' ? init.body : ''}`);
    const response = await fetch(input, init);
    const type = response.headers.get('content-type') ?? '';
    const body = type.includes('application/json') ? ' ' + (await response.clone().text()) : '';
    trace(`< ${response.status} ${type}${body}`);
    return response;
}

const names = (result) => result.tools.map((t) => t.name);

async function main() {
    const client = new Client(
        { name: 'quiver-ts-client-it', version: '1.0.0' },
        {
            capabilities: { elicitation: {} },
            versionNegotiation: { mode: { pin: VERSION } },
        },
    );
    client.onerror = (e) => trace(`client error: ${e?.stack ?? e}`);

    // input_required rounds are fulfilled by the SDK through this handler, then retried
    const elicitations = [];
    client.setRequestHandler('elicitation/create', async (request) => {
        elicitations.push(request.params);
        return { action: 'accept', content: { name: 'Alice' } };
    });

    let listChanged;
    const changed = new Promise((resolve) => { listChanged = resolve; });
    client.setNotificationHandler('notifications/tools/list_changed', (notification) => {
        listChanged(notification);
    });

    const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: tracingFetch });
    await client.connect(transport);

    const discovered = await client.discover();
    emit('discover', {
        era: client.getProtocolEra(),
        protocolVersion: client.getNegotiatedProtocolVersion(),
        supportedVersions: discovered.supportedVersions,
        serverInfo: client.getServerVersion() ?? null,
        capabilities: discovered.capabilities,
    });

    const before = await client.listTools();
    emit('tools', { names: names(before) });

    const call = await client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} });
    emit('call', {
        isError: call.isError ?? false,
        text: call.content?.find((c) => c.type === 'text')?.text ?? null,
        elicitations,
    });

    const subscription = await client.listen({ toolsListChanged: true });
    emit('listen', { honoredFilter: subscription.honoredFilter });
    console.log('LISTENING');

    let timer;
    const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(
            `no notifications/tools/list_changed within ${listChangedTimeoutMs} ms`)), listChangedTimeoutMs);
    });
    const ended = subscription.closed.then((how) => {
        throw new Error(`the subscription ended (${how}) before notifications/tools/list_changed`);
    });
    const notification = await Promise.race([changed, timeout, ended]);
    clearTimeout(timer);
    console.log('LIST_CHANGED');
    emit('list_changed', { method: notification.method, params: notification.params ?? null });

    // the SDK evicted its cached tools/list on the notification: this goes to the server again
    const after = await client.listTools();
    emit('tools_after', { names: names(after) });

    await subscription.close();
    emit('closed', { subscription: await subscription.closed });
    await client.close();
}

main().then(
    () => process.exit(0),
    (e) => {
        trace(`FAILED: ${e?.stack ?? e}`);
        if (e?.code !== undefined || e?.data !== undefined) {
            trace(`error code ${e.code}, data ${JSON.stringify(e.data)}`);
        }
        emit('error', { message: String(e?.message ?? e), code: e?.code ?? null });
        process.exit(1);
    },
);
