#!/usr/bin/env bash
# Quiver side by side with other MCP servers, in one run on one machine.
#
#   bench/run.sh [--rounds N] [--warmup S] [--measure S] [--only name,name] [--baseline JAR] [--paired] [--write]
#   bench/run.sh --scaling [options]     runs bench/scaling.sh with those options instead
#
# Builds what the chosen servers need (Quiver; bench/peers, bench/quarkus and bench/spring with -Pbench;
# npm ci in bench/ts when its node_modules is missing), then for each round starts each
# server in turn pinned to CPU 0 and loads it from CPU 1 with wrk (one thread, bench/lua/call.lua:
# tools/call of the trivial tool test_simple_text): a warm-up at concurrency 32 (60 s by default: pinned to one CPU, the JIT shares it with the load for ~40-65 s), then the measured
# runs at concurrency 1, 32 and 256 (the quiver-blocking shapes warm up for at least 120 s: their calls run
# on Jetty's pool, whose threads starve the JIT on one CPU; after 30 s they measured a third of their rate
# at c=1). Servers alternate within a round, so drift hits all of them.
# --paired starts every chosen server at once instead (each idle on CPU 0 while another is loaded)
# and warms each up, then measures them in turn, concurrency by concurrency, so that the runs that
# are compared lie seconds apart rather than minutes: this machine's speed drifts in phases of minutes
# (the floor's CPU per call moved from 30 to 51 us between runs of one evening), and a ratio of two runs
# minutes apart measures the phase as much as the servers. The ratios are then the medians of the
# ratios within each round, printed round by round too. Without it each server is started, warmed and
# measured alone, one after the other.
# Prints one line per measurement, then the medians over the rounds with the ratios to the servlet
# floor and Quiver's ratio to each peer (session JSON against the floor and the stateful peers,
# stateless against the floor and the stateless ones).
#
# The servers:
#   floor              bare Jetty 12 ee10 servlet + Jackson, no MCP (bench/peers Floor)
#   core-floor         the same answer from a Jetty 12 core Handler, no servlets (bench/peers CoreFloor)
#   core-floor-nb      the same handler declared non-blocking: Jetty runs it on the selecting thread,
#                      no hand-off (not in the default set: what a non-servlet transport could reach)
#   quiver-core-nb     Quiver's engine (core classes on the class path, no OSGi) behind that non-blocking
#                      core handler, a 2025-11-25 session, JSON only, the tool on Quiver's worker pools
#                      (bench/peers QuiverCore worker; not in the default set: a measurement of the
#                      proposed transport, not a server to deploy)
#   quiver-core-nb-inline  the same with the tool run on the selecting thread (QuiverCore inline)
#   quiver-core-nb-hop     the same with each call handed once to Jetty's pool and run there in full
#                          (QuiverCore hop: one hand-off, as a transport would for tools that may block)
#   quiver-json        ./quiver run with selectorLane = true (every quiver-* shape but -pool), a 2025-11-25 session, sseMethods empty (calls answer JSON);
#                      test_simple_text is declared non-blocking: served on the selecting thread
#   quiver-blocking    the same calling greet (the same trivial work, but declared blocking as tools
#                      are by default): one hand-off to Jetty's pool per call, like the Quarkus
#                      server's worker hand-off (ratio to quarkus)
#   quiver-blocking-pool  quiver-blocking with selectorLane = false: every request handed from the
#                      selecting thread to Jetty's pool as before the lane (ratio quiver-blocking / it)
#   quiver-sse         the same with the default sseMethods (calls of blocking tools answer an SSE
#                      stream; a non-blocking tool's answer comes at once, as JSON)
#   quiver-stateless   the same server, 2026-07-28 requests with their _meta and headers
#   quiver-base        quiver-json run from another quiver.jar (--baseline JAR, e.g. one built from an
#                      earlier commit): what a change cost, in the same run (ratio quiver-json / quiver-base)
#   quiver-stateless-base  quiver-stateless run from that jar (ratio quiver-stateless / quiver-stateless-base)
#   quiver-apikey      quiver-json with an API key configured: every request authenticated
#                      (Authorization: Bearer), the per-subject limits off (not in the default set:
#                      what authentication costs, ratio to quiver-json)
#   quiver-noaudit     quiver-json with the audit file off (io.quiver.audit enabled = false; not in the
#                      default set: what the audit trail's line per call costs, ratio to quiver-json)
#   javasdk            the official Java SDK 2.1 streamable servlet transport, stateful session
#   javasdk-stateless  the official Java SDK 2.1 stateless servlet transport
#   quarkus            the Quarkus MCP server 1.13.0 (Quarkus 3.33.2, bench/quarkus), a 2025-11-25
#                      streamable HTTP session; calls answer JSON; its tool runs on a worker thread
#   quarkus-nb         the same server calling test_simple_text_nb, the same tool annotated
#                      @NonBlocking: run on the Vert.x event loop that read the request (the like of
#                      quiver-json; not in the default set before 2026-12-02)
#   spring             the Spring AI 2.0.1 MCP server (Boot 4.0.7, WebMVC, STREAMABLE, sync;
#                      bench/spring), a 2025-11-25 session; calls answer an SSE stream (no JSON mode)
#   ts                 the official TypeScript SDK 1.32.2 server (Express, bench/ts), a 2025-11-25
#                      session, enableJsonResponse: calls answer JSON
#
# --write appends the summary, with the date, machine and command, to docs/BENCHMARKS.md.
#
# CPU/call is the server process's user + system time during the measured run divided by the
# calls answered. Needs wrk (the Debian package, installed if missing), curl, taskset, and Node.js
# with npm for ts.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROUNDS=1 WARMUP=60 MEASURE=10 WRITE="" BASELINE="" PAIRED=""
COMMAND="bench/run.sh $*"
ONLY="floor,quiver-json,quiver-blocking,quiver-sse,quiver-stateless,javasdk,javasdk-stateless,quarkus,quarkus-nb,spring,ts"
while [ $# -gt 0 ]; do
  case "$1" in
    --scaling) shift; exec "$ROOT/bench/scaling.sh" "$@" ;;
    --rounds) ROUNDS="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --measure) MEASURE="$2"; shift 2 ;;
    --only) ONLY="$2"; shift 2 ;;
    --baseline) BASELINE="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    --write) WRITE=1; shift ;;
    --paired) PAIRED=1; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
command -v wrk >/dev/null || { sudo -n apt-get install -y wrk >/dev/null 2>&1 || apt-get install -y wrk >/dev/null; }

cd "$ROOT"
chosen() { case ",$ONLY," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }
if { chosen quiver-base || chosen quiver-stateless-base; } && [ ! -f "$BASELINE" ]; then
  echo "quiver-base and quiver-stateless-base need --baseline JAR" >&2; exit 2
fi
modules=""
if chosen quiver-json || chosen quiver-blocking || chosen quiver-blocking-pool || chosen quiver-sse || chosen quiver-stateless || chosen quiver-apikey || chosen quiver-noaudit; then
  [ -f launcher/target/quiver.jar ] || mvn -B -q -DskipTests install
fi
# QuiverCore puts the engine's classes on the class path: install the current ones first
if chosen quiver-core-nb || chosen quiver-core-nb-inline || chosen quiver-core-nb-hop; then mvn -B -q -DskipTests install -pl bundles/core -am; fi
if chosen floor || chosen core-floor || chosen core-floor-nb || chosen quiver-core-nb || chosen quiver-core-nb-inline || chosen quiver-core-nb-hop \
    || chosen javasdk || chosen javasdk-stateless; then modules="$modules,bench/peers"; fi
if chosen quarkus || chosen quarkus-nb; then modules="$modules,bench/quarkus"; fi
if chosen spring; then modules="$modules,bench/spring"; fi
[ -z "$modules" ] || mvn -B -q -Pbench -pl "${modules#,}" package -DskipTests
if chosen ts && [ ! -d bench/ts/node_modules ]; then (cd bench/ts && npm ci --no-audit --no-fund >/dev/null); fi
JAR="$ROOT/launcher/target/quiver.jar"
PEERS="$ROOT/bench/peers/target/peers.jar"
LUA="$ROOT/bench/lua/call.lua"
WORK="$(mktemp -d)"
PID="" ALL_PIDS=""
trap 'for p in $PID $ALL_PIDS; do kill "$p" 2>/dev/null; done; rm -rf "$WORK"' EXIT
RESULTS="$WORK/results"
LOAD="$(cut -d' ' -f1-3 /proc/loadavg)"
: > "$RESULTS"
TICK=$(getconf CLK_TCK)

# Starts a bench/peers main class on CPU 0 in the background: peer CLASS ARGS... (uses name and out of start).
peer() {
  taskset -c 0 java -XX:+UseSerialGC -Xms32m -Xmx512m -cp "$PEERS" "io.quiver.bench.peers.$1" "${@:2}" \
    > "$out" 2> "$WORK/$name.log" &
}

# Starts a server on CPU 0 and waits for its endpoint line; sets PID and URL.
start() {
  local name="$1" out="$WORK/$1.out" ready="endpoint: " path=""
  rm -f "$out"
  case "$name" in
    floor) peer Floor 0 ;;
    core-floor) peer CoreFloor blocking 0 ;;
    core-floor-nb) peer CoreFloor nonblocking 0 ;;
    quiver-core-nb) peer QuiverCore worker 0 ;;
    quiver-core-nb-inline) peer QuiverCore inline 0 ;;
    quiver-core-nb-hop) peer QuiverCore hop 0 ;;
    javasdk) peer JavaSdk stateful 0 ;;
    javasdk-stateless) peer JavaSdk stateless 0 ;;
    quarkus|quarkus-nb)
      # port 0: Quarkus binds a free port and names it in its startup line (its endpoint is /mcp)
      ready="Listening on: " path=/mcp
      taskset -c 0 java -XX:+UseSerialGC -Xms32m -Xmx512m -Dquarkus.http.port=0 \
        -jar "$ROOT/bench/quarkus/target/quarkus-app/quarkus-run.jar" > "$out" 2> "$WORK/$name.log" & ;;
    spring) taskset -c 0 java -XX:+UseSerialGC -Xms32m -Xmx512m -jar "$ROOT/bench/spring/target/bench-spring.jar" \
        --server.port=0 > "$out" 2> "$WORK/$name.log" & ;;
    ts) taskset -c 0 node "$ROOT/bench/ts/server.js" 0 > "$out" 2> "$WORK/$name.log" & ;;
    quiver-*)
      local etc="$WORK/etc-$name"
      mkdir -p "$etc" "$WORK/deploy"
      if [ "$name" != quiver-sse ]; then echo "sseMethods =" > "$etc/io.quiver.transport.http.cfg"; fi
      # the selector lane (on by default; said anyway, so a baseline jar from before it was runs it too) for every shape but the one that measures without it
      if [ "$name" = quiver-blocking-pool ]; then echo "selectorLane = false" >> "$etc/io.quiver.transport.http.cfg"
      else echo "selectorLane = true" >> "$etc/io.quiver.transport.http.cfg"; fi
      if [ "$name" = quiver-noaudit ]; then echo "enabled = false" > "$etc/io.quiver.audit.cfg"; fi
      if [ "$name" = quiver-apikey ]; then
        # a key as quiver apikey create makes it; the limits per subject would cap one client's rate
        local key="qvk_$(head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"
        printf 'hash = sha256:%s\nsubject = bench\ntenant = default\nroles =\nscopes =\nexpires = 2099-01-01T00:00:00Z\n' \
          "$(printf '%s' "$key" | sha256sum | cut -d' ' -f1)" > "$etc/io.quiver.auth.apikey-bench.cfg"
        printf 'subjectRequestsPerSecond = 0\nmaxConcurrentCallsPerSubject = 0\n' >> "$etc/io.quiver.transport.http.cfg"
        AUTH="Bearer $key"
      fi
      # the quiver script's JVM options
      local jar="$JAR"; case "$name" in quiver-base|quiver-stateless-base) jar="$BASELINE" ;; esac
      taskset -c 0 java -XX:+UseSerialGC -Xms16m -Xmx512m -XX:CompileThresholdScaling=3 -XX:TrimNativeHeapInterval=2000 \
        -Djava.locale.providers=COMPAT -jar "$jar" run --port 0 \
        --features core,http,conformance --etc "$etc" --deploy "$WORK/deploy" > "$out" 2> "$WORK/$name.log" & ;;
  esac
  PID=$!
  for _ in $(seq 1 600); do
    if grep -q "$ready" "$out" 2>/dev/null; then break; fi
    sleep 0.1
  done
  URL="$(grep -o "${ready}http://[^ ]*" "$out" | head -1)"
  URL="${URL#"$ready"}"
  [ -n "$URL" ] || { echo "$name did not start; see $WORK/$name.log" >&2; cat "$out" "$WORK/$name.log" >&2; exit 1; }
  URL="$URL$path"
}

# Opens a session where the server keeps them; sets SESSION, VERSION and META for the Lua script.
session() {
  SESSION="" VERSION="2025-11-25" META="" TOOL="test_simple_text" ARGS="{}"
  [ "$1" = quiver-apikey ] || AUTH=""
  local auth=(); [ -n "$AUTH" ] && auth=(-H "Authorization: $AUTH")
  case "$1" in
    quiver-json|quiver-blocking|quiver-blocking-pool|quiver-base|quiver-apikey|quiver-noaudit|quiver-sse|quiver-core-nb|quiver-core-nb-inline|quiver-core-nb-hop|javasdk|quarkus|quarkus-nb|spring|ts)
      case "$1" in quiver-blocking|quiver-blocking-pool) TOOL="greet" ARGS='{"name":"wrk"}' ;; esac
      [ "$1" = quarkus-nb ] && TOOL="test_simple_text_nb"
      [ "$1" = javasdk ] && VERSION="2025-06-18"
      SESSION=$(curl -si "${auth[@]}" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
        -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"'"$VERSION"'","capabilities":{},"clientInfo":{"name":"wrk","version":"1"}}}' \
        "$URL" | tr -d '\r' | awk -F': ' 'tolower($1)=="mcp-session-id" {print $2}')
      curl -s -o /dev/null "${auth[@]}" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
        -H "Mcp-Session-Id: $SESSION" -H "MCP-Protocol-Version: $VERSION" \
        -d '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$URL" ;;
    quiver-stateless|quiver-stateless-base) META=stateless ;;
  esac
  export SESSION VERSION META AUTH TOOL ARGS
}

cpu_ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }

# The measured run of the server in PID / URL at one concurrency, after 3 s of the same load:
# measure NAME CLIENTS ROUND.
measure() {
  local before after line rps cpu
  taskset -c 1 wrk -t1 -c"$2" -d3s -s "$LUA" "$URL" > /dev/null
  before=$(cpu_ticks)
  line=$(taskset -c 1 wrk -t1 -c"$2" -d"${MEASURE}s" --latency -s "$LUA" "$URL" | grep '^rps=')
  after=$(cpu_ticks)
  rps=$(echo "$line" | sed 's/rps=\([0-9]*\).*/\1/')
  cpu=$(( rps > 0 ? (after - before) * 1000000 / TICK / (rps * MEASURE) : 0 ))
  echo "round $3 $1 c=$2 $line cpu_us=$cpu"
  echo "$1 $2 $line cpu_us=$cpu round=$3" >> "$RESULTS"
}

warm_up() {
  local warm=$WARMUP
  case "$1" in quiver-blocking*) [ "$warm" -ge 120 ] || warm=120 ;; esac
  taskset -c 1 wrk -t1 -c32 -d"${warm}s" -s "$LUA" "$URL" > /dev/null
}

if [ -n "$PAIRED" ]; then
  declare -A PIDS URLS ENVS
  for name in ${ONLY//,/ }; do
    start "$name"
    session "$name"
    warm_up "$name"
    PIDS[$name]=$PID URLS[$name]=$URL ENVS[$name]="$(declare -p SESSION VERSION META AUTH TOOL ARGS)"
    ALL_PIDS="$ALL_PIDS $PID" PID=""
  done
  for round in $(seq 1 "$ROUNDS"); do
    for c in 1 32 256; do
      for name in ${ONLY//,/ }; do
        PID=${PIDS[$name]} URL=${URLS[$name]}
        eval "${ENVS[$name]}"
        kill -0 "$PID" 2>/dev/null || { echo "$name exited during the run; its log:" >&2; tail -20 "$WORK/$name.log" >&2; exit 1; }
        measure "$name" "$c" "$round"
      done
    done
  done
  PID=""
else
  for round in $(seq 1 "$ROUNDS"); do
    for name in ${ONLY//,/ }; do
      start "$name"
      session "$name"
      warm_up "$name"
      for c in 1 32 256; do
        measure "$name" "$c" "$round"
      done
      kill -0 "$PID" 2>/dev/null || { echo "$name exited during the run; its log:" >&2; tail -20 "$WORK/$name.log" >&2; }
      kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
    done
  done
fi

{
echo "medians over $ROUNDS round(s)${PAIRED:+ of paired runs (every server up at once, measured in turn; ratios: the median of those of each round)};" \
  "warm-up ${WARMUP}s at c=32 (quiver-blocking shapes at least 120 s), ${MEASURE}s measured; $(nproc) cores;" \
  "$(java -version 2>&1 | head -1); $(date -u +%Y-%m-%d)"
awk -v paired="$PAIRED" '
  function median(list,   n, a, i, t, j) {
    n = split(list, a, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  {
    split($3, r, "="); split($4, p50, "="); split($5, p99, "="); split($7, cpu, "=")
    k = $1 " " $2; rps[k] = rps[k] " " r[2]; l50[k] = l50[k] " " p50[2]; l99[k] = l99[k] " " p99[2]
    cpus[k] = cpus[k] " " cpu[2]; names[$1] = 1; order[++n] = $1
    split($8, rd, "="); per[k " " rd[2]] = r[2]; if (rd[2] + 0 > nr) nr = rd[2] + 0
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
        m[k] = median(rps[k])
        printf "%-18s %5d %9.0f %9.3f %9.3f %6.0f us %8s\n", s, cs[j], m[k], median(l50[k]), median(l99[k]),
          median(cpus[k]), ratio(s, "floor", cs[j])
      }
    }
    ratios("quiver-json", "floor core-floor core-floor-nb javasdk quarkus quarkus-nb spring ts")
    ratios("quiver-blocking", "floor quarkus quarkus-nb quiver-blocking-pool")
    ratios("quiver-core-nb", "floor core-floor-nb quarkus")
    ratios("quiver-core-nb-inline", "floor core-floor-nb quarkus")
    ratios("quiver-core-nb-hop", "floor core-floor-nb quarkus")
    ratios("quiver-sse", "javasdk spring")
    ratios("quiver-stateless", "floor javasdk-stateless quarkus quarkus-nb")
    ratios("quiver-apikey", "quiver-json")
    ratios("quiver-noaudit", "quiver-json quarkus-nb")
    ratios("quiver-json", "quiver-base")
    ratios("quiver-stateless", "quiver-stateless-base")
  }
  # Quiver in one shape divided by each peer that ran, at each concurrency ("-" where one did not run).
  function ratios(q, peers,   np, p, w, j, i, r, head, line, any) {
    if (!(q in names)) return
    np = split(peers, p, " ")
    head = sprintf("%-18s", q " /")
    for (i = 1; i <= np; i++) if (p[i] in names) {
      w[i] = length(p[i]) < 6 ? 6 : length(p[i]); head = head sprintf(" %" w[i] "s", p[i]); any = 1
    }
    if (!any) return
    print ""; print head
    for (j = 1; j <= nc; j++) {
      line = sprintf("%-18s", "c=" cs[j])
      for (i = 1; i <= np; i++) if (p[i] in names)
        line = line sprintf(" %" w[i] "s", ratio(q, p[i], cs[j]))
      print line
    }
    if (!paired) return
    for (i = 1; i <= np; i++) if (p[i] in names) {
      line = sprintf("  %s / %s at c=32, round by round:", q, p[i])
      for (r = 1; r <= nr; r++) line = line sprintf(" %s", (per[p[i] " 32 " r] > 0 ? sprintf("%.2f", per[q " 32 " r] / per[p[i] " 32 " r]) : "-"))
      print line
    }
  }
  # q against p at c clients: the ratio of the medians, or with --paired the median of the ratios of each round.
  function ratio(q, p, c,   r, list) {
    if (!((p " " c) in rps) || median(rps[p " " c]) <= 0) return "-"
    if (!paired) return sprintf("%.2f", median(rps[q " " c]) / median(rps[p " " c]))
    for (r = 1; r <= nr; r++) if (per[p " " c " " r] > 0) list = list " " per[q " " c " " r] / per[p " " c " " r]
    return sprintf("%.2f", median(list))
  }' "$RESULTS"
} > "$WORK/summary"
echo
cat "$WORK/summary"
if [ -n "$WRITE" ]; then
  {
    echo
    echo "### \`$COMMAND\`, $(date -u +%Y-%m-%d)"
    echo
    echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)," \
      "$(java -version 2>&1 | head -1), load average before the run: $LOAD; Quiver at $(git -C "$ROOT" rev-parse --short HEAD)."
    echo
    echo '```'
    cat "$WORK/summary"
    echo '```'
  } >> "$ROOT/docs/BENCHMARKS.md"
  echo "appended to docs/BENCHMARKS.md"
fi
