// The official TypeScript SDK v2 client against a Quiver that requires authentication, configured as
// Claude Code's "headers" would configure it: a static Authorization header on every request.
//
//   node auth-client.mjs <server url> [bearer token]
//
// Prints one JSON line per step on stdout: {"step":"tools","names":[...]}, {"step":"call","text":...}
// with a token; without one (or when the server refuses) {"step":"refused","status":...,
// "wwwAuthenticate":...}. Exit code 0 when the steps ran as far as the server let them.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [url, token] = process.argv.slice(2);
if (!url) {
    console.error('usage: node auth-client.mjs <server url> [bearer token]');
    process.exit(2);
}
const emit = (step, fields) => console.log(JSON.stringify({ step, ...fields }));

// remembers the last refusal the server sent, with its challenge
let refusal = null;
async function watchingFetch(input, init = {}) {
    const response = await fetch(input, init);
    if (response.status === 401 || response.status === 403) {
        refusal = { status: response.status, wwwAuthenticate: response.headers.get('www-authenticate') };
    }
    return response;
}

async function main() {
    const client = new Client({ name: 'quiver-ts-auth-client', version: '1.0.0' },
        { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const requestInit = token ? { headers: { Authorization: `Bearer ${token}` } } : undefined;
    const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: watchingFetch, requestInit });
    try {
        await client.connect(transport);
        await client.discover();
        const tools = await client.listTools();
        emit('tools', { names: tools.tools.map((t) => t.name) });
        const call = await client.callTool({ name: 'witness', arguments: { note: 'ts-call' } });
        emit('call', { isError: call.isError ?? false, text: call.content?.find((c) => c.type === 'text')?.text ?? null });
    } catch (e) {
        if (refusal === null) {
            throw e;
        }
        emit('refused', { ...refusal, message: String(e?.message ?? e) });
    }
    await client.close().catch(() => {});
}

main().then(() => process.exit(0), (e) => {
    console.error(`FAILED: ${e?.stack ?? e}`);
    emit('error', { message: String(e?.message ?? e) });
    process.exit(1);
});
