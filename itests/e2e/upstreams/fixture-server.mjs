// A small stdio MCP server for Quiver's upstream tests (no dependencies). FIXTURE_MODE picks a
// behaviour: "normal" (default), "garbage" (prints non-JSON and never answers), "silent" (never
// answers), "exit" (exits at once with status 3). WITNESS names a file each slow call appends a line
// to before it waits, so a test can count how often a call really ran.
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const mode = process.env.FIXTURE_MODE || 'normal';
if (mode === 'exit') {
  process.stderr.write('fixture: exiting at once\n');
  process.exit(3);
}
if (mode === 'garbage') {
  process.stdout.write('this is not JSON-RPC\n{"half": \n');
}
process.stderr.write(`fixture ${process.pid} started in mode ${mode}\n`);

const send = (message) => process.stdout.write(JSON.stringify(message) + '\n');
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const tools = [
  { name: 'slow', description: 'Waits ms milliseconds, reporting progress', inputSchema: { type: 'object',
    properties: { ms: { type: 'integer' }, label: { type: 'string' } }, required: ['ms'] } },
  { name: 'ask', description: 'Asks which branch through the Outcome envelope, then answers with it',
    inputSchema: { type: 'object', properties: {} } },
  { name: 'meta', description: 'Answers with the _meta the call carried', inputSchema: {} },
  { name: 'grow', description: 'Adds a tool to the list and says so (notifications/tools/list_changed)',
    inputSchema: { type: 'object', properties: {} } },
  { name: 'blocks', description: 'Answers with every kind of content block, each with annotations or _meta',
    inputSchema: { type: 'object', properties: {} },
    icons: [{ src: 'https://example.com/blocks.svg', mimeType: 'image/svg+xml', sizes: ['any'], theme: 'light' },
      { src: 'data:image/png;base64,iVBORw0KGgo=', mimeType: 'image/png' },
      { src: 'https://example.com/plain.png' }] },
];
// every content type MCP defines, with the optional fields a result may carry through a proxy
const blocks = {
  content: [
    { type: 'text', text: 'plain', annotations: { audience: ['user'], priority: 0.5 },
      _meta: { 'example.com/role': 'summary' } },
    { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png', _meta: { 'example.com/alt': 'a dot' } },
    { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav', _meta: { seconds: 1 } },
    { type: 'resource_link', uri: 'file:///srv/a.txt', name: 'a.txt', title: 'A', description: 'the file',
      mimeType: 'text/plain', size: 12, _meta: { list: [1, 2], nothing: null },
      icons: [{ src: 'https://example.com/a.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'dark' },
        { src: 'data:image/svg+xml;base64,PHN2Zy8+' }] },
    { type: 'resource', resource: { uri: 'file:///srv/b.bin', mimeType: 'application/octet-stream', blob: 'AAE=',
      _meta: { etag: 'x' } }, annotations: { lastModified: '2026-12-01T00:00:00Z' }, _meta: { embedded: true } },
    { type: 'resource', resource: { uri: 'file:///srv/c.txt', text: 'c' } },
  ],
  _meta: { 'example.com/trace': 'abc' },
};
const running = new Map();

createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim() || mode !== 'normal') return;
  const m = JSON.parse(line);
  if (m.method === 'initialize') {
    send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion,
      capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'fixture', version: '1.0.0' } } });
  } else if (m.method === 'tools/list') {
    send({ jsonrpc: '2.0', id: m.id, result: { tools } });
  } else if (m.method === 'notifications/cancelled') {
    const timer = running.get(m.params.requestId);
    if (timer) {
      clearInterval(timer);
      running.delete(m.params.requestId);
      if (process.env.WITNESS) appendFileSync(process.env.WITNESS, `cancelled ${m.params.requestId}\n`);
    }
  } else if (m.method === 'tools/call') {
    const args = m.params.arguments || {};
    const meta = m.params._meta || {};
    if (m.params.name === 'slow') {
      if (process.env.WITNESS) appendFileSync(process.env.WITNESS, `ran ${args.label || ''}\n`);
      let step = 0;
      const steps = 5;
      const timer = setInterval(() => {
        step++;
        if (meta.progressToken !== undefined) {
          send({ jsonrpc: '2.0', method: 'notifications/progress',
            params: { progressToken: meta.progressToken, progress: step, total: steps } });
        }
        if (step >= steps) {
          clearInterval(timer);
          running.delete(m.id);
          send({ jsonrpc: '2.0', id: m.id, result: text(`slept ${args.ms} ms`) });
        }
      }, Math.max(1, Math.floor(args.ms / steps)));
      running.set(m.id, timer);
    } else if (m.params.name === 'ask') {
      const answers = (meta['io.quiver/context'] || {}).answers || {};
      const answer = answers.branch;
      if (!answer) {
        send({ jsonrpc: '2.0', id: m.id, result: text(JSON.stringify({ 'io.quiver/outcome': 'needs_input',
          requests: [{ key: 'branch', message: 'Which branch?', schema: { type: 'object',
            properties: { name: { type: 'string' } }, required: ['name'] } }] })) });
      } else {
        send({ jsonrpc: '2.0', id: m.id, result: text(JSON.stringify({ 'io.quiver/outcome': 'done',
          content: `deploying ${answer.content.name}`, structuredContent: { meta } })) });
      }
    } else if (m.params.name === 'grow') {
      const name = `grown-${tools.length}`;
      tools.push({ name, description: 'A tool added while running', inputSchema: { type: 'object', properties: {} } });
      send({ jsonrpc: '2.0', id: m.id, result: text(`added ${name}`) });
      send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    } else if (m.params.name.startsWith('grown-')) {
      send({ jsonrpc: '2.0', id: m.id, result: text(`${m.params.name} answers`) });
    } else if (m.params.name === 'blocks') {
      send({ jsonrpc: '2.0', id: m.id, result: blocks });
    } else if (m.params.name === 'meta') {
      send({ jsonrpc: '2.0', id: m.id, result: { ...text(JSON.stringify(meta)), structuredContent: { meta } } });
    } else {
      send({ jsonrpc: '2.0', id: m.id, error: { code: -32602, message: `Unknown tool: ${m.params.name}` } });
    }
  } else if (m.id !== undefined) {
    send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `Method not found: ${m.method}` } });
  }
});
