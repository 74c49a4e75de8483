-- wrk script of bench/scaling.sh: tools/call of TOOL with ARGS in one 2025-11-25 session, counting
-- every answer that is not a good result.
--   SESSION   the Mcp-Session-Id to send
--   TOOL      the tool (default test_simple_text)
--   ARGS      its arguments object as JSON (default {})
--   MINBYTES  an answer shorter than this many bytes counts as failed (the result-size tools)
-- Prints one line: rps, p50_ms, p99_ms, requests, failed (status not 200, no "result", an isError
-- result, a truncated text, or shorter than MINBYTES), busy (of the failed: isError results saying
-- the tool or the server is busy) and sockerr (wrk's connect, read, write and timeout errors).
--
-- response() runs in each wrk thread's own Lua state, done() in the main one: the counts are read
-- from the threads (thread:get), which a counter local to the script would not see.
local session = os.getenv("SESSION")
local tool = os.getenv("TOOL") or "test_simple_text"
local args = os.getenv("ARGS") or "{}"
local minbytes = tonumber(os.getenv("MINBYTES") or "0")
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2025-11-25"
if session and session ~= "" then
  wrk.headers["Mcp-Session-Id"] = session
end

local threads = {}
setup = function(thread)
  table.insert(threads, thread)
end

local id = 0
request = function()
  id = id + 1
  return wrk.format(nil, nil, nil,
    '{"jsonrpc":"2.0","id":' .. id .. ',"method":"tools/call","params":{"name":"' .. tool .. '","arguments":' .. args .. '}}')
end

-- globals, so that done() can read them from the thread
failed = 0
busy = 0
response = function(status, headers, body)
  -- "result" is near the start of an answer, isError and a truncation marker near its end:
  -- looking only there keeps a 1 MiB answer from costing wrk a scan of the whole body
  local tail = body:sub(-400)
  if status ~= 200 or #body < minbytes
      or not string.find(body:sub(1, 120), '"result"', 1, true)
      or string.find(tail, '"isError":true', 1, true)
      or string.find(tail, 'output truncated', 1, true) then
    failed = failed + 1
    if string.find(tail, ' busy', 1, true) then
      busy = busy + 1
    end
  end
end

done = function(summary, latency, requests)
  local f, b = 0, 0
  for _, t in ipairs(threads) do
    f = f + (t:get("failed") or 0)
    b = b + (t:get("busy") or 0)
  end
  local e = summary.errors
  io.write(string.format("rps=%.0f p50_ms=%.3f p99_ms=%.3f requests=%d failed=%d busy=%d sockerr=%d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.requests, f, b, e.connect + e.read + e.write + e.timeout))
end
