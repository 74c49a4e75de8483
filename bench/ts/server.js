// The official MCP TypeScript SDK (v1) server with the trivial tool every server in bench/run.sh answers:
// stateful Streamable HTTP (one transport and McpServer per session, kept in a map by session id), JSON
// responses (enableJsonResponse), on the SDK's Express app for localhost.
//
//   node server.js [PORT]     (0 or none: any free port); prints "endpoint: URL"
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

const TEXT = 'This is a simple text response for testing.';

function newServer() {
  const server = new McpServer({ name: 'typescript-sdk', version: '1.32.2' });
  server.registerTool('test_simple_text', { description: 'Tests simple text content response' },
    async () => ({ content: [{ type: 'text', text: TEXT }], isError: false }));
  return server;
}

const sessions = new Map();
const app = createMcpExpressApp();

function error(res, status, code, message) {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

app.post('/mcp', async (req, res) => {
  const id = req.headers['mcp-session-id'];
  try {
    if (id) {
      const transport = sessions.get(id);
      if (!transport) return error(res, 404, -32001, 'Session not found');
      return await transport.handleRequest(req, res, req.body);
    }
    if (!isInitializeRequest(req.body)) return error(res, 400, -32000, 'No session id');
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (sid) => sessions.set(sid, transport),
    });
    transport.onclose = () => { if (transport.sessionId) sessions.delete(transport.sessionId); };
    await newServer().connect(transport);
    await transport.handleRequest(req, res, req.body);
  } catch (e) {
    console.error(e);
    if (!res.headersSent) error(res, 500, -32603, 'Internal error');
  }
});

// GET (a standalone SSE stream) and DELETE (ending the session) go to the session's transport.
const bySession = async (req, res) => {
  const transport = sessions.get(req.headers['mcp-session-id']);
  if (!transport) return error(res, 404, -32001, 'Session not found');
  await transport.handleRequest(req, res);
};
app.get('/mcp', bySession);
app.delete('/mcp', bySession);

const listener = app.listen(Number(process.argv[2] || 0), '127.0.0.1', () => {
  console.log(`endpoint: http://127.0.0.1:${listener.address().port}/mcp`);
});
