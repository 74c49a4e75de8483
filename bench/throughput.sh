#!/usr/bin/env bash
# tools/call throughput of one Quiver build: one session, a trivial tool answering JSON.
#
#   bench/throughput.sh [JAR] [WARMUP_S] [MEASURE_S]   (defaults: launcher/target/quiver.jar, 20, 10)
#
# The server (the quiver script's heap and GC options, features core,http,conformance, sseMethods
# empty so calls answer JSON) runs pinned to CPU 0; wrk (Debian package, installed if missing) runs
# pinned to CPU 1 with one thread, calling test_simple_text in one session: warm-up load, then the
# measured run, at concurrency 1 and 32. Prints requests/s, latency percentiles and the server's CPU
# time per call (user + system, from /proc: steadier than requests/s on a shared machine).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="${1:-$ROOT/launcher/target/quiver.jar}"
WARMUP="${2:-20}"
MEASURE="${3:-10}"
command -v wrk >/dev/null || { sudo -n apt-get install -y wrk >/dev/null 2>&1 || apt-get install -y wrk >/dev/null; }
WORK="$(mktemp -d)"
PID=""
trap '[ -n "$PID" ] && kill "$PID" 2>/dev/null; rm -rf "$WORK"' EXIT
mkdir -p "$WORK/etc" "$WORK/deploy"
echo "sseMethods =" > "$WORK/etc/io.quiver.transport.http.cfg"
mkfifo "$WORK/out"
taskset -c 0 java -XX:+UseSerialGC -Xms32m -Xmx512m -jar "$JAR" run --port 0 --features core,http,conformance \
  --etc "$WORK/etc" --deploy "$WORK/deploy" > "$WORK/out" 2> "$WORK/server.log" &
PID=$!
read -r line < "$WORK/out"
URL="${line#Quiver MCP endpoint: }"
SESSION=$(curl -si -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
  -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wrk","version":"1"}}}' \
  "$URL" | tr -d '\r' | awk -F': ' 'tolower($1)=="mcp-session-id" {print $2}')
curl -s -o /dev/null -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
  -H "Mcp-Session-Id: $SESSION" -H 'MCP-Protocol-Version: 2025-11-25' \
  -d '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$URL"
export SESSION
# the server's CPU time (user + system, in clock ticks) so far
cpu_ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }
TICK=$(getconf CLK_TCK)
for c in 1 32; do
  taskset -c 1 wrk -t1 -c"$c" -d"${WARMUP}s" -s "$ROOT/bench/lua/call.lua" "$URL" > /dev/null
  before=$(cpu_ticks)
  result=$(taskset -c 1 wrk -t1 -c"$c" -d"${MEASURE}s" --latency -s "$ROOT/bench/lua/call.lua" "$URL" | grep '^rps=')
  after=$(cpu_ticks)
  rps=$(echo "$result" | sed 's/rps=\([0-9]*\).*/\1/')
  cpu_us=$(( (after - before) * 1000000 / TICK / (rps * MEASURE) ))
  echo "concurrency $c: $result server_cpu_us_per_call=$cpu_us"
done
echo "java: $(java -version 2>&1 | head -1); cores: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg); jar: $JAR"
