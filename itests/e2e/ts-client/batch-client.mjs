// A real 2025-03-26 client that sends JSON-RPC batches: the official TypeScript SDK v1's Streamable HTTP
// client transport (pinned in package.json + package-lock.json), used directly, since the SDK's Client
// sends one message at a time. It opens a 2025-03-26 session, then sends two batches: one the server
// answers with a JSON array, one that calls tools and is answered on an SSE stream.
//
//   node batch-client.mjs <MCP endpoint URL>
//
// Each step prints one JSON line on stdout ({"step": ..., ...}). Exit code 0 only if every step succeeded.

import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const url = process.argv[2];
if (!url) {
    console.error('usage: node batch-client.mjs <MCP endpoint URL>');
    process.exit(2);
}

const emit = (step, fields) => console.log(JSON.stringify({ step, ...fields }));
const responses = new Map();
const notifications = [];
const errors = [];
let arrived = () => {};

const transport = new StreamableHTTPClientTransport(new URL(url));
transport.onmessage = (message) => {
    if ('id' in message && !('method' in message)) {
        responses.set(message.id, message);
    } else {
        notifications.push(message);
    }
    arrived();
};
transport.onerror = (e) => errors.push(String(e?.message ?? e));

/** Waits until every id has its response (or 10 s pass). */
async function answers(ids) {
    const deadline = Date.now() + 10_000;
    while (!ids.every((id) => responses.has(id))) {
        if (Date.now() > deadline) {
            throw new Error(`no response to ${ids.filter((id) => !responses.has(id))}; errors: ${errors}`);
        }
        await new Promise((resolve) => {
            arrived = resolve;
            setTimeout(resolve, 100);
        });
    }
    return ids.map((id) => responses.get(id));
}

const call = (id, name, extra = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {}, ...extra } });

async function main() {
    await transport.start();
    await transport.send({
        jsonrpc: '2.0', id: 0, method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'quiver-batch-it', version: '1.0.0' } },
    });
    const [init] = await answers([0]);
    emit('initialized', { protocolVersion: init.result?.protocolVersion, session: transport.sessionId ?? null });
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });

    await transport.send([
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ]);
    const [ping, list] = await answers([1, 2]);
    emit('quick', { ping: ping.result ?? null, tools: list.result?.tools?.length ?? 0 });

    await transport.send([
        call(3, 'test_simple_text'),
        call(4, 'test_tool_with_progress', { _meta: { progressToken: 'p4' } }),
        { jsonrpc: '2.0', id: 5, method: 'ping' },
    ]);
    const [simple, progressed, ping2] = await answers([3, 4, 5]);
    emit('calls', {
        simple: simple.result?.content?.[0]?.text ?? null,
        progressed: progressed.result?.isError === false,
        ping: ping2.result ?? null,
        progress: notifications.filter((n) => n.method === 'notifications/progress' && n.params?.progressToken === 'p4').length,
    });
    emit('errors', { errors });
    await transport.close();
    process.exit(errors.length === 0 ? 0 : 1);
}

main().catch((e) => {
    emit('failed', { message: String(e?.stack ?? e), errors });
    process.exit(1);
});
