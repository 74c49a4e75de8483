-- wrk script: tools/call of TOOL (default test_simple_text) as JSON-RPC requests with increasing ids.
--   SESSION  the Mcp-Session-Id to send (none: no session header)
--   VERSION  the MCP-Protocol-Version header (default 2025-11-25)
--   META     "stateless": the 2026-07-28 per-request _meta and the Mcp-Method / Mcp-Name headers
--   AUTH     an Authorization header value to send (none: no credential)
--   ARGS     the arguments object as JSON text (default {})
local session = os.getenv("SESSION")
local tool = os.getenv("TOOL") or "test_simple_text"
local args = os.getenv("ARGS") or "{}"
local stateless = os.getenv("META") == "stateless"
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = stateless and "2026-07-28" or (os.getenv("VERSION") or "2025-11-25")
local auth = os.getenv("AUTH")
if auth and auth ~= "" then
  wrk.headers["Authorization"] = auth
end
if session and session ~= "" then
  wrk.headers["Mcp-Session-Id"] = session
end
local meta = ""
if stateless then
  wrk.headers["Mcp-Method"] = "tools/call"
  wrk.headers["Mcp-Name"] = tool
  meta = ',"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
    .. '"io.modelcontextprotocol/clientCapabilities":{},'
    .. '"io.modelcontextprotocol/clientInfo":{"name":"wrk","version":"1"}}'
end
local id = 0
request = function()
  id = id + 1
  return wrk.format(nil, nil, nil,
    '{"jsonrpc":"2.0","id":' .. id .. ',"method":"tools/call","params":{"name":"' .. tool .. '","arguments":' .. args .. meta .. '}}')
end
-- each wrk thread has its own Lua state: its errors are read back through the thread objects
local threads = {}
setup = function(thread)
  table.insert(threads, thread)
end
errors = 0
response = function(status, headers, body)
  -- wrk counts answers of 400 and above itself (summary.errors.status)
  if status < 400 and (status ~= 200 or not string.find(body, '"result"', 1, true)) then
    errors = errors + 1
  end
end
done = function(summary, latency, requests)
  local failed = summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.timeout
  for _, thread in ipairs(threads) do
    failed = failed + (thread:get("errors") or 0)
  end
  io.write(string.format("rps=%.0f p50_ms=%.3f p99_ms=%.3f errors=%d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, failed))
end
