#!/usr/bin/env bash
# Quiver side by side with other MCP servers, in one run on one machine.
#
#   bench/run.sh [--rounds N] [--warmup S] [--measure S] [--only name,name]
#
# Builds what it needs (Quiver, and bench/peers with -Pbench), then for each round starts each
# server in turn pinned to CPU 0 and loads it from CPU 1 with wrk (one thread, bench/lua/call.lua:
# tools/call of the trivial tool test_simple_text): a warm-up at concurrency 32, then the measured
# runs at concurrency 1, 32 and 256. Servers alternate within a round, so drift hits all of them.
# Prints one line per measurement, then the medians over the rounds with the ratios to the servlet
# floor and Quiver's ratio to each peer (session JSON against the stateful peers, stateless against
# the stateless ones).
#
# The servers:
#   floor              bare Jetty 12 ee10 servlet + Jackson, no MCP (bench/peers Floor)
#   quiver-json        ./quiver run, a 2025-11-25 session, sseMethods empty (calls answer JSON)
#   quiver-sse         the same with the default sseMethods (calls answer an SSE stream)
#   quiver-stateless   the same server, 2026-07-28 requests with their _meta and headers
#   javasdk            the official Java SDK 2.1 streamable servlet transport, stateful session
#   javasdk-stateless  the official Java SDK 2.1 stateless servlet transport
# Not yet here (the performance issue lists them): the Quarkus MCP server, the Spring AI MCP server
# and the TypeScript SDK server.
#
# CPU/call is the server process's user + system time during the measured run divided by the
# calls answered. Needs wrk (the Debian package, installed if missing), curl and taskset.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROUNDS=1 WARMUP=20 MEASURE=10
ONLY="floor,quiver-json,quiver-sse,quiver-stateless,javasdk,javasdk-stateless"
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) ROUNDS="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --measure) MEASURE="$2"; shift 2 ;;
    --only) ONLY="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
command -v wrk >/dev/null || { sudo -n apt-get install -y wrk >/dev/null 2>&1 || apt-get install -y wrk >/dev/null; }

cd "$ROOT"
[ -f launcher/target/quiver.jar ] || mvn -B -q -DskipTests install
mvn -B -q -Pbench -pl bench/peers package -DskipTests
JAR="$ROOT/launcher/target/quiver.jar"
PEERS="$ROOT/bench/peers/target/peers.jar"
LUA="$ROOT/bench/lua/call.lua"
WORK="$(mktemp -d)"
PID=""
trap '[ -n "$PID" ] && kill "$PID" 2>/dev/null; rm -rf "$WORK"' EXIT
RESULTS="$WORK/results"
: > "$RESULTS"
TICK=$(getconf CLK_TCK)

# Starts a server on CPU 0 and waits for its endpoint line; sets PID and URL.
start() {
  local name="$1" out="$WORK/$1.out"
  rm -f "$out"
  case "$name" in
    floor) taskset -c 0 java -XX:+UseSerialGC -Xms32m -Xmx512m -cp "$PEERS" io.quiver.bench.peers.Floor 0 > "$out" 2> "$WORK/$name.log" & ;;
    javasdk) taskset -c 0 java -XX:+UseSerialGC -Xms32m -Xmx512m -cp "$PEERS" io.quiver.bench.peers.JavaSdk stateful 0 > "$out" 2> "$WORK/$name.log" & ;;
    javasdk-stateless) taskset -c 0 java -XX:+UseSerialGC -Xms32m -Xmx512m -cp "$PEERS" io.quiver.bench.peers.JavaSdk stateless 0 > "$out" 2> "$WORK/$name.log" & ;;
    quiver-*)
      local etc="$WORK/etc-$name"
      mkdir -p "$etc" "$WORK/deploy"
      if [ "$name" != quiver-sse ]; then echo "sseMethods =" > "$etc/io.quiver.transport.http.cfg"; fi
      # the quiver script's JVM options
      taskset -c 0 java -XX:+UseSerialGC -Xms32m -Xmx512m -jar "$JAR" run --port 0 \
        --features core,http,conformance --etc "$etc" --deploy "$WORK/deploy" > "$out" 2> "$WORK/$name.log" & ;;
  esac
  PID=$!
  for _ in $(seq 1 300); do
    if grep -q "endpoint: " "$out" 2>/dev/null; then break; fi
    sleep 0.1
  done
  URL="$(grep -o 'http://[^ ]*' "$out" | head -1)"
  [ -n "$URL" ] || { echo "$name did not start; see $WORK/$name.log" >&2; cat "$WORK/$name.log" >&2; exit 1; }
}

# Opens a session where the server keeps them; sets SESSION, VERSION and META for the Lua script.
session() {
  SESSION="" VERSION="2025-11-25" META=""
  case "$1" in
    quiver-json|quiver-sse|javasdk)
      [ "$1" = javasdk ] && VERSION="2025-06-18"
      SESSION=$(curl -si -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
        -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"'"$VERSION"'","capabilities":{},"clientInfo":{"name":"wrk","version":"1"}}}' \
        "$URL" | tr -d '\r' | awk -F': ' 'tolower($1)=="mcp-session-id" {print $2}')
      curl -s -o /dev/null -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
        -H "Mcp-Session-Id: $SESSION" -H "MCP-Protocol-Version: $VERSION" \
        -d '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$URL" ;;
    quiver-stateless) META=stateless ;;
  esac
  export SESSION VERSION META
}

cpu_ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }

for round in $(seq 1 "$ROUNDS"); do
  for name in ${ONLY//,/ }; do
    start "$name"
    session "$name"
    taskset -c 1 wrk -t1 -c32 -d"${WARMUP}s" -s "$LUA" "$URL" > /dev/null
    for c in 1 32 256; do
      taskset -c 1 wrk -t1 -c"$c" -d3s -s "$LUA" "$URL" > /dev/null
      before=$(cpu_ticks)
      line=$(taskset -c 1 wrk -t1 -c"$c" -d"${MEASURE}s" --latency -s "$LUA" "$URL" | grep '^rps=')
      after=$(cpu_ticks)
      rps=$(echo "$line" | sed 's/rps=\([0-9]*\).*/\1/')
      cpu=$(( rps > 0 ? (after - before) * 1000000 / TICK / (rps * MEASURE) : 0 ))
      echo "round $round $name c=$c $line cpu_us=$cpu"
      echo "$name $c $line cpu_us=$cpu" >> "$RESULTS"
    done
    kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
  done
done

echo
echo "medians over $ROUNDS round(s); warm-up ${WARMUP}s at c=32, ${MEASURE}s measured; $(nproc) cores;" \
  "$(java -version 2>&1 | head -1); $(date -u +%Y-%m-%d)"
awk '
  function median(list,   n, a, i, t, j) {
    n = split(list, a, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  {
    split($3, r, "="); split($4, p50, "="); split($5, p99, "="); split($7, cpu, "=")
    k = $1 " " $2; rps[k] = rps[k] " " r[2]; l50[k] = l50[k] " " p50[2]; l99[k] = l99[k] " " p99[2]
    cpus[k] = cpus[k] " " cpu[2]; names[$1] = 1; order[++n] = $1
  }
  END {
    nc = split("1 32 256", cs, " ")
    printf "%-18s %5s %9s %9s %9s %9s %8s\n", "server", "c", "req/s", "p50 ms", "p99 ms", "CPU/call", "x floor"
    for (i = 1; i <= n; i++) {
      s = order[i]
      if (seen[s]++) continue
      for (j = 1; j <= nc; j++) {
        k = s " " cs[j]
        if (!(k in rps)) continue
        m[k] = median(rps[k]); f = median(rps["floor " cs[j]])
        printf "%-18s %5d %9.0f %9.3f %9.3f %6.0f us %8s\n", s, cs[j], m[k], median(l50[k]), median(l99[k]),
          median(cpus[k]), (f > 0 ? sprintf("%.2f", m[k] / f) : "-")
      }
    }
    print ""
    for (j = 1; j <= nc; j++) {
      c = cs[j]
      printf "c=%d: quiver-json / javasdk %s, quiver-stateless / javasdk-stateless %s\n", c,
        (m["javasdk " c] > 0 ? sprintf("%.2f", m["quiver-json " c] / m["javasdk " c]) : "-"),
        (m["javasdk-stateless " c] > 0 ? sprintf("%.2f", m["quiver-stateless " c] / m["javasdk-stateless " c]) : "-")
    }
  }' "$RESULTS"
