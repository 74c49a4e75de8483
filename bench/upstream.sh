#!/usr/bin/env bash
# What an upstream MCP server costs behind Quiver, and what upstreams do to Quiver's start.
#
#   bench/upstream.sh [--jar JAR] [--warmup S] [--measure S] [--starts N] [--write]
#
# 1. Proxy overhead: tools/call of @modelcontextprotocol/server-everything's echo tool
#    ({"message":"hi"}) at concurrency 1, wrk (one thread, bench/lua/call.lua) pinned to CPU 1:
#      direct          server-everything's own Streamable HTTP endpoint (one session)
#      quiver-stdio    Quiver (pinned to CPU 0) -> server-everything over stdio
#      quiver-http     Quiver -> the same HTTP server-everything as an http upstream
#      quiver-local    Quiver's own echo-like tool (test_simple_text), for Quiver's share alone
#    each after WARMUP s of load, MEASURE s measured; p50, p99, requests/s, and the added p50/p99
#    against direct. Node and the upstreams are not pinned (they are what is being proxied).
# 2. Start with three upstreams (server-everything stdio, server-filesystem stdio, server-everything
#    http) configured: fork -> the endpoint's first answer, and fork -> all three servers' tools
#    listed, against the same start with no upstreams; medians of N starts.
# Needs wrk (installed if missing), curl, taskset, node/npm (server-everything and server-filesystem
# come from itests/e2e/upstreams/package-lock.json: npm ci there when node_modules is missing).
# --write appends the results to docs/BENCHMARKS.md.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="$ROOT/launcher/target/quiver.jar"
WARMUP=20
MEASURE=10
STARTS=5
WRITE=""
while [ $# -gt 0 ]; do
  case "$1" in
    --jar) JAR="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --measure) MEASURE="$2"; shift 2 ;;
    --starts) STARTS="$2"; shift 2 ;;
    --write) WRITE=1; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[ -f "$JAR" ] || (cd "$ROOT" && mvn -B -q -DskipTests install)
command -v wrk >/dev/null || { sudo -n apt-get install -y wrk >/dev/null 2>&1 || apt-get install -y wrk >/dev/null; }
UP="$ROOT/itests/e2e/upstreams"
[ -d "$UP/node_modules/@modelcontextprotocol/server-everything" ] || (cd "$UP" && npm ci --no-audit --no-fund --loglevel=error)
EVERYTHING="$UP/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
FILESYSTEM="$UP/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"

WORK="$(mktemp -d)"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
HTTP_PORT=$(free_port)
PORT="$HTTP_PORT" node "$EVERYTHING" streamableHttp > "$WORK/everything-http.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 100); do grep -q "listening on port" "$WORK/everything-http.log" 2>/dev/null && break; sleep 0.1; done
DIRECT_URL="http://127.0.0.1:$HTTP_PORT/mcp"

servers_json() {  # $1: "three" or "none"
  if [ "$1" = none ]; then echo '{"mcpServers": {}}'; return; fi
  cat <<EOF
{"mcpServers": {
  "everything": {"command": "node", "args": ["$EVERYTHING", "stdio"]},
  "fs": {"command": "node", "args": ["$FILESYSTEM", "$WORK"]},
  "everything-http": {"type": "http", "url": "$DIRECT_URL"}
}}
EOF
}

# starts Quiver with HOME_DIR's etc/; sets QPID and QURL
start_quiver() {
  local home="$1"
  mkdir -p "$home/etc" "$home/deploy"
  echo "sseMethods =" > "$home/etc/io.quiver.transport.http.cfg"
  rm -f "$home/out"; mkfifo "$home/out"
  (cd "$home" && exec taskset -c 0 java -XX:+UseSerialGC -Xms16m -Xmx512m -jar "$JAR" run --port 0 \
    --features core,http,conformance --etc "$home/etc" --deploy "$home/deploy" > "$home/out" 2> "$home/server.log") &
  QPID=$!
  PIDS+=("$QPID")
  local line
  read -r line < "$home/out"
  QURL="${line#Quiver MCP endpoint: }"
}

session() {  # $1: url -> prints the session id
  local sid
  sid=$(curl -si -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wrk","version":"1"}}}' \
    "$1" | tr -d '\r' | awk -F': ' 'tolower($1)=="mcp-session-id" {print $2}')
  curl -s -o /dev/null -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    -H "Mcp-Session-Id: $sid" -H 'MCP-Protocol-Version: 2025-11-25' \
    -d '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$1"
  echo "$sid"
}

tools_of() {  # $1: url, $2: session -> tool names, one per line
  curl -s -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    -H "Mcp-Session-Id: $2" -H 'MCP-Protocol-Version: 2025-11-25' \
    -d '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}' "$1" | grep -o '"name":"[^"]*"' | cut -d'"' -f4
}

measure() {  # $1 label, $2 url, $3 tool, $4 args -> "label p50 p99 rps errors"
  local sid
  sid=$(session "$2")
  SESSION="$sid" TOOL="$3" ARGS="$4" taskset -c 1 wrk -t1 -c1 -d"${WARMUP}s" -s "$ROOT/bench/lua/call.lua" "$2" > /dev/null
  local r
  r=$(SESSION="$sid" TOOL="$3" ARGS="$4" taskset -c 1 wrk -t1 -c1 -d"${MEASURE}s" --latency -s "$ROOT/bench/lua/call.lua" "$2" | grep '^rps=')
  echo "$1 $(echo "$r" | sed 's/rps=\([0-9]*\) p50_ms=\([0-9.]*\) p99_ms=\([0-9.]*\) errors=\([0-9]*\)/\2 \3 \1 \4/')"
}

# ---- 1. proxy overhead
HOME1="$WORK/q1"
mkdir -p "$HOME1/etc"
servers_json three > "$HOME1/etc/mcp-servers.json"
start_quiver "$HOME1"
SID=$(session "$QURL")
for _ in $(seq 1 300); do
  n=$(tools_of "$QURL" "$SID" | grep -c -E '^(everything|everything-http|fs)\.' || true)
  [ "$n" -ge 20 ] && break
  sleep 0.1
done
ECHO='{"message":"hi"}'
RESULTS="$WORK/results"
{
  measure direct "$DIRECT_URL" echo "$ECHO"
  measure quiver-stdio "$QURL" everything.echo "$ECHO"
  measure quiver-http "$QURL" everything-http.echo "$ECHO"
  measure quiver-local "$QURL" test_simple_text '{}'
} > "$RESULTS"
kill "$QPID"; wait "$QPID" 2>/dev/null || true

table=$(awk 'NR==1 {d50=$2; d99=$3} {printf "%-14s %9s %9s %8s %6s", $1, $2, $3, $4, $5; if (NR>1 && $1 != "quiver-local") printf "   %+.3f / %+.3f", $2-d50, $3-d99; printf "\n"}' "$RESULTS")

# ---- 2. start with three upstreams
now_ms() { date +%s%3N; }
start_times() {  # $1: three|none -> "endpoint_ms all_ready_ms" per start
  for _ in $(seq 1 "$STARTS"); do
    local home="$WORK/s-$RANDOM$RANDOM"
    mkdir -p "$home/etc"
    servers_json "$1" > "$home/etc/mcp-servers.json"
    local t0 t1 t2
    t0=$(now_ms)
    start_quiver "$home"
    curl -s -o /dev/null -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
      -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"s","version":"1"}}}' "$QURL"
    t1=$(now_ms)
    t2=$t1
    if [ "$1" = three ]; then
      local sid
      sid=$(session "$QURL")
      for _ in $(seq 1 600); do
        local names
        names=$(tools_of "$QURL" "$sid")
        if echo "$names" | grep -q '^everything\.' && echo "$names" | grep -q '^fs\.' && echo "$names" | grep -q '^everything-http\.'; then
          break
        fi
        sleep 0.05
      done
      t2=$(now_ms)
    fi
    echo "$((t1 - t0)) $((t2 - t0))"
    kill "$QPID"; wait "$QPID" 2>/dev/null || true
  done
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : int((a[NR/2] + a[NR/2+1]) / 2)}'; }
startup="(starts not measured: --starts 0)"
if [ "$STARTS" -gt 0 ]; then
NONE=$(start_times none)
THREE=$(start_times three)
startup=$(printf "no upstreams:    first answer %s ms (median of %s)\nthree upstreams: first answer %s ms, all three servers' tools listed %s ms\n" \
  "$(echo "$NONE" | awk '{print $1}' | median)" "$STARTS" "$(echo "$THREE" | awk '{print $1}' | median)" \
  "$(echo "$THREE" | awk '{print $2}' | median)")
fi

report=$(cat <<EOF
\`\`\`
tools/call at concurrency 1 (wrk on CPU 1, Quiver on CPU 0; $WARMUP s warm-up, $MEASURE s measured)
server         p50 (ms)  p99 (ms)    req/s errors   added p50 / p99 vs direct (ms)
$table

$startup
\`\`\`
Machine: $(nproc) cores, $(java -version 2>&1 | head -1), node $(node --version), load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%d).
EOF
)
echo "$report"
if [ -n "$WRITE" ]; then
  printf "\n### \`bench/upstream.sh --warmup %s --measure %s --starts %s\`, %s\n\n%s\n" "$WARMUP" "$MEASURE" "$STARTS" \
    "$(date -u +%Y-%m-%d)" "$report" >> "$ROOT/docs/BENCHMARKS.md"
fi
