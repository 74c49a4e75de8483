-- wrk script: tools/call of TOOL (default test_simple_text) in the session SESSION, as JSON-RPC
-- requests with increasing ids (one wrk thread: ids stay unique among a session's requests in flight).
local session = os.getenv("SESSION")
local tool = os.getenv("TOOL") or "test_simple_text"
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2025-11-25"
wrk.headers["Mcp-Session-Id"] = session
local id = 0
request = function()
  id = id + 1
  return wrk.format(nil, nil, nil,
    '{"jsonrpc":"2.0","id":' .. id .. ',"method":"tools/call","params":{"name":"' .. tool .. '","arguments":{}}}')
end
local errors = 0
response = function(status, headers, body)
  if status ~= 200 or not string.find(body, '"result"', 1, true) then
    errors = errors + 1
  end
end
done = function(summary, latency, requests)
  io.write(string.format("rps=%.0f p50_ms=%.3f p99_ms=%.3f errors=%d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, errors))
end
