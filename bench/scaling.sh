#!/usr/bin/env bash
# How Quiver's cost grows: with the size of its catalog, of a result, of an argument schema, with the
# number of concurrent clients, and with idle sessions and streams held open.
#
#   bench/scaling.sh [--warmup S] [--runwarm S] [--measure S] [--only catalog,result,schema,concurrency,idle]
#                    [--tools 10,1000,10000] [--sessions N] [--xmx SIZE] [--jar PATH] [--write]
#   bench/run.sh --scaling [the same options]
#
# Builds what it needs (Quiver if launcher/target/quiver.jar is missing; the bench tool bundle
# bench/scaling-tools with -Pbench), then starts servers pinned to CPU 0 (the quiver script's
# options: `java -XX:+UseSerialGC -Xms32m -Xmx512m -jar quiver.jar run`, calls answering JSON:
# sseMethods emptied) with bench/scaling-tools/target/scaling-tools.jar in their deploy/ folder, and
# loads them from CPU 1: wrk (one thread, bench/lua/scaling.lua: tools/call in one 2025-11-25
# session) and bench/scaling-tools/ScalingClient.java (JDK only) for what wrk cannot do.
#
#   catalog      one server per N = 10, 1,000, 10,000 trivial tools (features core,http; the file
#                etc/io.quiver.bench.catalog.cfg says tools = N; the catalog holds N + the bundle's 5
#                other tools): how long until all are listed; tools/list at concurrency 1, the first
#                page and a walk over every page (page size: the default pageSize, 100); tools/call
#                of one of them at c=32.
#   result       bench_text_1k / _100k / _1m answer 1 KiB, 100 KiB, 1 MiB of text, at c=1 and c=32
#                (1 MiB is exactly the default maxOutputBytes, which a result may reach).
#   schema       bench_schema_simple (one string property) and bench_schema_complex (36 properties:
#                nesting, arrays, enums, patterns, a oneOf), called with valid arguments, c=1 and 32.
#   concurrency  test_simple_text (conformance feature) at c = 1, 32, 256, 1024, with maxQueuedPerTool
#                raised to 2048 so that no call is answered "busy" (one tool may otherwise hold 32
#                running + 64 waiting calls); then c = 256 and 1024 with the default, counting "busy".
#                result, schema and concurrency share one server (features core,http,conformance).
#   idle         its own server: tools/call at c=32 with no other load, then with N (10,000) idle
#                sessions (initialize + initialized, kept), then with a GET stream (SSE listener
#                stream) open on each of them; the server's RSS (VmRSS) and live heap (after a full
#                GC) each time. Sets maxSessions, maxSessionsPerClient (all the load comes from one
#                address) and maxStreams to N + 100: their heap-sized defaults would refuse 10,000.
#
# Each server first gets --warmup seconds (default 60) of load at c=32: pinned to one CPU, the JIT
# compiler threads share it with the loaded server, and c=32 measured in 5 s slices climbed from
# 900 req/s in the first to ~21,000 after 65 s. Each measured run then gets --runwarm seconds (default 5) of warm-up at its own
# settings and --measure seconds (default 5). Every run counts its errors: HTTP status not 200, no
# "result", an isError result (a "busy" answer, failed validation), a cut or short text, and wrk's
# socket errors. CPU/call is the server's user + system time during the run divided by the calls.
# On a shared machine: each run first waits (at most 2 min) until other processes use less than a
# tenth of a CPU, and a run during which they took more says so in its notes.
# --write appends the table with the date, the machine and the command to docs/BENCHMARKS.md.
# --jar measures another build of quiver.jar; --sessions sets the idle part's N; --xmx the server heap.
# SERVER_OPTS=... adds JVM options to the servers (after the script's), e.g. SERVER_OPTS=-Xlog:gc:file=/tmp/gc.log
# Needs wrk (the Debian package, installed if missing), curl, taskset, a JDK (javac, jcmd).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
COMMAND="bench/scaling.sh $*"
WARMUP=60 RUNWARM="" MEASURE=5 ONLY="catalog,result,schema,concurrency,idle" TOOLS="10,1000,10000" IDLE=10000
XMX=512m WRITE=0 QUIVER_JAR=""
while [ $# -gt 0 ]; do
  case "$1" in
    --scaling) shift ;;   # bench/run.sh --scaling hands its options over as they are
    --warmup) WARMUP="$2"; shift 2 ;;
    --measure) MEASURE="$2"; shift 2 ;;
    --runwarm) RUNWARM="$2"; shift 2 ;;
    --only) ONLY="$2"; shift 2 ;;
    --tools) TOOLS="$2"; shift 2 ;;
    --sessions) IDLE="$2"; shift 2 ;;
    --xmx) XMX="$2"; shift 2 ;;
    --jar) QUIVER_JAR="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    --write) WRITE=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
for part in ${ONLY//,/ }; do
  case "$part" in catalog|result|schema|concurrency|idle) ;; *) echo "unknown part $part" >&2; exit 2 ;; esac
done
wants() { [[ ",$ONLY," == *",$1,"* ]]; }
command -v wrk >/dev/null || { sudo -n apt-get install -y wrk >/dev/null 2>&1 || apt-get install -y wrk >/dev/null; }
for tool in wrk curl taskset javac jcmd; do
  command -v "$tool" >/dev/null || { echo "scaling.sh needs $tool" >&2; exit 1; }
done

# wrk -c1024 and 10,000 streams need descriptors: the server and the idle client each hold one per
# connection
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
NOFILE=$(ulimit -n)
if wants idle && [ "$NOFILE" != unlimited ] && [ "$NOFILE" -lt $((IDLE + 1100)) ]; then
  echo "the idle part needs $((IDLE + 1100)) open files, ulimit -n allows $NOFILE (raise the hard limit)" >&2
  exit 1
fi

cd "$ROOT"
if [ -z "$QUIVER_JAR" ]; then
  QUIVER_JAR="$ROOT/launcher/target/quiver.jar"
  [ -f "$QUIVER_JAR" ] || mvn -B -q -DskipTests install
fi
[ -f "$QUIVER_JAR" ] || { echo "no $QUIVER_JAR" >&2; exit 1; }
mvn -B -q -Pbench -pl bench/scaling-tools package -DskipTests
WORK="$(mktemp -d)"
PID="" IDLE_PID=""
# on any exit: the idle client and the server go (SIGTERM, SIGKILL after 10 s), then the folder
cleanup() {
  exec 3>&-
  if [ -n "$IDLE_PID" ]; then kill "$IDLE_PID" 2>/dev/null || true; fi
  if [ -n "$PID" ]; then
    kill "$PID" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# copies of the jars: launcher/target/quiver.jar may be rebuilt while this runs (a JVM whose jar is
# replaced under it fails to load its next class); a copy taken mid-write fails the zip test
for try in $(seq 1 30); do
  cp "$QUIVER_JAR" "$WORK/quiver.jar"
  unzip -tq "$WORK/quiver.jar" >/dev/null 2>&1 && break
  [ "$try" = 30 ] && { echo "$QUIVER_JAR is not a whole jar" >&2; exit 1; }
  sleep 2
done
cp bench/scaling-tools/target/scaling-tools.jar "$WORK/scaling-tools.jar"
JAR="$WORK/quiver.jar"
TOOLJAR="$WORK/scaling-tools.jar"
LUA="$ROOT/bench/lua/scaling.lua"
# what is measured, named now: others may commit while this runs
if [ "$QUIVER_JAR" = "$ROOT/launcher/target/quiver.jar" ]; then
  BUILD="launcher/target/quiver.jar, tree at $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
else
  BUILD="$QUIVER_JAR (tree at $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'))"
fi
javac -d "$WORK/client" "$ROOT/bench/scaling-tools/ScalingClient.java"
CLIENT=(taskset -c 1 java -XX:+UseSerialGC -Xmx512m -cp "$WORK/client" ScalingClient)
RESULTS="$WORK/results"
NOTES="$WORK/notes"
: > "$RESULTS"
: > "$NOTES"
TICK=$(getconf CLK_TCK)
RUNWARM=${RUNWARM:-$(( WARMUP < 5 ? WARMUP : 5 ))}
HEAP_MIB=$(( $(echo "$XMX" | sed 's/[gG]$/*1024/; s/[mM]$//') ))

# The arguments bench_schema_complex is called with: valid against its schema (753 bytes).
COMPLEX_ARGS='{"id":"abc-1234","title":"Quarterly report","priority":"high","count":42,"ratio":0.75,"enabled":true,"version":"1.2.3-beta.1","tags":["finance","q3-2026","internal"],"flags":["draft","pinned"],"owner":{"name":"Ada Lovelace","email":"ada@example.org","role":"editor","team":{"id":7,"name":"Analytics"}},"schedule":{"start":"2026-12-01","end":"2026-12-31","timezone":"Europe/Berlin","repeat":{"every":1,"unit":"week"}},"items":[{"sku":"AB123456","qty":2,"price":19.99,"options":["gift"]},{"sku":"CD654321","qty":1,"price":5.5,"options":["express","insured"]},{"sku":"EF000001","qty":10,"price":0.99}],"metadata":{"source":"bench","batch":"7"},"notes":"Measured by bench/scaling.sh.","location":{"lat":52.52,"lon":13.405},"contact":{"phone":"+4930123456"}}'

note() { echo "$*" | tee -a "$NOTES"; }

# start NAME FEATURES [CORE_CFG] [HTTP_CFG] [CATALOG_N]: a server on CPU 0; sets PID, URL and STARTED.
# The launcher gives up when its endpoint is not up within 15 s (a loaded machine): two more tries.
start() {
  local name="$1" features="$2" core="${3:-}" http="${4:-}" n="${5:-}" dir="$WORK/$1" try
  SERVER="$name"
  for try in 1 2 3; do
    rm -rf "$dir"
    mkdir -p "$dir/etc" "$dir/deploy"
    printf 'sseMethods =\n%s\n' "$http" > "$dir/etc/io.quiver.transport.http.cfg"
    [ -n "$core" ] && printf '%s\n' "$core" > "$dir/etc/io.quiver.core.cfg"
    [ -n "$n" ] && echo "tools = $n" > "$dir/etc/io.quiver.bench.catalog.cfg"
    cp "$TOOLJAR" "$dir/deploy/"
    # shellcheck disable=SC2086 # SERVER_OPTS is a list of words
    taskset -c 0 java -XX:+UseSerialGC -Xms32m -Xmx"$XMX" ${SERVER_OPTS:-} -jar "$JAR" run --port 0 --features "$features" \
      --etc "$dir/etc" --deploy "$dir/deploy" --data "$dir/data" > "$dir/out" 2> "$dir/server.log" &
    PID=$!
    STARTED=$(date +%s%N)
    for _ in $(seq 1 600); do
      grep -q "endpoint: " "$dir/out" 2>/dev/null && break
      kill -0 "$PID" 2>/dev/null || break
      sleep 0.1
    done
    URL="$(grep -o 'http://[^ ]*' "$dir/out" | head -1 || true)"
    [ -n "$URL" ] && return
    echo "server $name did not start (try $try of 3); its log ($dir/server.log) ends:" >&2
    tail -5 "$dir/server.log" >&2
    stop
  done
  echo "server $name did not start: giving up" >&2
  exit 1
}

stop() {
  kill "$PID" 2>/dev/null || true
  wait "$PID" 2>/dev/null || true
  PID=""
}

# until TOOL is listed (the bundle in deploy/ is installed after the endpoint answers); sets
# LISTED_MS, from the server's fork
wait_tool() {
  local out
  out=$("${CLIENT[@]}" wait "$URL" "$1" 300) || { echo "$out" >&2; tail -30 "$WORK/$SERVER/server.log" >&2; exit 1; }
  LISTED_MS=$(( ($(date +%s%N) - STARTED) / 1000000 ))
}

# a 2025-11-25 session for wrk: SESSION
session() {
  SESSION=$(curl -si -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wrk","version":"1"}}}' \
    "$URL" | tr -d '\r' | awk -F': ' 'tolower($1)=="mcp-session-id" {print $2}')
  [ -n "$SESSION" ] || { echo "initialize did not give a session" >&2; exit 1; }
  curl -s -o /dev/null -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    -H "Mcp-Session-Id: $SESSION" -H "MCP-Protocol-Version: 2025-11-25" \
    -d '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$URL"
  export SESSION
}

# field NAME LINE: the number after NAME= in a result line
field() { sed -E "s/(^|.* )$1=([0-9.]+).*/\2/" <<< "$2"; }
# connections the kernel dropped because a listen queue was full, machine-wide: a burst of connects
# (wrk -c1024) overflowed Jetty's accept queue while it was Felix HTTP's default (50; 1024 since c919cb5)
overflows() {
  awk '/^TcpExt:/ { if (!h) { for (i = 1; i <= NF; i++) if ($i == "ListenOverflows") c = i; h = 1 } else { print $c + 0; exit } }' \
    /proc/net/netstat 2>/dev/null || echo 0
}
# The machine's busy time in clock ticks, and this script's children's (wrk) CPU time in ticks:
# what neither the server nor wrk used, other processes did
cpu_busy() { awk '$1 == "cpu" {print $2 + $3 + $4 + $7 + $8 + $9}' /proc/stat; }
child_ticks() {   # sets CHILD_TICKS: call it in this shell, not in $(...), whose children are its own
  times > "$WORK/times"
  CHILD_TICKS=$(awk -v tick="$TICK" 'NR == 2 {
    t = 0
    for (i = 1; i <= 2; i++) { split($i, p, "m"); sub("s", "", p[2]); t += p[1] * 60 + p[2] }
    printf "%d", t * tick }' "$WORK/times")
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }
rss_mib() { awk '/VmRSS/ {printf "%d", $2 / 1024}' "/proc/$PID/status"; }
# live heap in MiB, after the full GC a class histogram makes
heap_mib() { jcmd "$PID" GC.class_histogram 2>/dev/null | awk '/^Total/ {printf "%.1f", $3 / 1048576}'; }

# load TOOL ARGS C SECONDS [MINBYTES]: one wrk run; prints its line
load() {
  TOOL="$1" ARGS="$2" MINBYTES="${5:-0}" taskset -c 1 wrk -t1 -c"$3" -d"$4s" --timeout 30s --latency -s "$LUA" "$URL" \
    | grep '^rps=' || echo "rps=0 p50_ms=0 p99_ms=0 requests=0 failed=1 busy=0 sockerr=0 (wrk failed)"
}

# Waits (at most 2 minutes) until other processes use less than a tenth of a CPU over a second:
# this machine may be shared, and a run beside another load measures the other load.
quiet() {
  local busy before others
  for _ in $(seq 1 24); do
    busy=$(cpu_busy); before=$(cpu_ticks)
    sleep 1
    others=$(( ($(cpu_busy) - busy - ($(cpu_ticks) - before)) * 100 / TICK ))
    [ "$others" -lt 10 ] && return
    echo "(other processes use ${others}% of a CPU: waiting)" >&2
    sleep 4
  done
}

# measure PART CASE TOOL ARGS C [MINBYTES] [NOTE]: a short warm-up at C, then the measured run
measure() {
  local part="$1" case="$2" tool="$3" args="$4" c="$5" min="${6:-0}" extra="${7:-}"
  quiet
  load "$tool" "$args" "$c" "$RUNWARM" "$min" > /dev/null
  local before after line drops busy children others
  drops=$(overflows)
  busy=$(cpu_busy)
  child_ticks; children=$CHILD_TICKS
  before=$(cpu_ticks)
  line=$(load "$tool" "$args" "$c" "$MEASURE" "$min")
  after=$(cpu_ticks)
  child_ticks
  others=$(( ($(cpu_busy) - busy - (after - before) - (CHILD_TICKS - children)) * 100 / (MEASURE * TICK) ))
  drops=$(( $(overflows) - drops ))
  local rps p50 p99 req failed sockerr cpu
  rps=$(field rps "$line"); p50=$(field p50_ms "$line"); p99=$(field p99_ms "$line")
  req=$(field requests "$line"); failed=$(field failed "$line"); sockerr=$(field sockerr "$line")
  cpu=$(( req > 0 ? (after - before) * 1000000 / TICK / req : 0 ))
  [ "$part" = concurrency ] && extra="server threads after the run: $(ls "/proc/$PID/task" | wc -l)"
  [ "$drops" -gt 0 ] && extra="${extra:+$extra; }$drops SYNs dropped on a full listen queue"
  # other processes on the machine (the server's or wrk's CPU) make the run worth less: say so
  [ "$others" -ge 10 ] && extra="${extra:+$extra; }other processes took ${others}% of a CPU meanwhile"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$part" "$case" "$c" "$rps" "$p50" "$p99" \
    "$((failed + sockerr))" "$cpu" "$extra" >> "$RESULTS"
  printf '%-12s %-34s c=%-5s %s cpu_us=%s %s\n' "$part" "$case" "$c" "$line" "$cpu" "$extra"
  LAST_P99="$p99"
}

# list_row CASE LINE NOTE: a result row from a ScalingClient list line (requests/s to 1 decimal)
list_row() {
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' catalog "$1" 1 \
    "$(awk -v n="$(field n "$2")" -v s="$MEASURE" 'BEGIN {printf (n / s < 10 ? "%.1f" : "%.0f"), n / s}')" \
    "$(field p50_ms "$2")" "$(field p99_ms "$2")" "$(field errors "$2")" - "$3" >> "$RESULTS"
}

# --- catalog ------------------------------------------------------------------------------------
if wants catalog; then
  for n in ${TOOLS//,/ }; do
    last=$(printf 'bench_tool_%05d' "$n")
    start "catalog-$n" core,http "" "" "$n"
    wait_tool "$last"
    registered=$(grep -o 'registered [0-9]* catalog tools in [0-9]* ms' "$WORK/catalog-$n/server.log" | awk '{print $6}')
    note "catalog N=$n: all listed ${LISTED_MS} ms after the server process started (the bundle's activation registered them in ${registered} ms)"
    session
    quiet
    load "$last" '{}' 32 "$WARMUP" > /dev/null
    quiet
    busy=$(cpu_busy); child_ticks; children=$CHILD_TICKS; before=$(cpu_ticks)
    out=$("${CLIENT[@]}" list "$URL" bench_tool_ "$n" "$RUNWARM" "$MEASURE")
    child_ticks
    others=$(( ($(cpu_busy) - busy - ($(cpu_ticks) - before) - (CHILD_TICKS - children)) * 100 / ((RUNWARM + 2 * MEASURE) * TICK) ))
    shared=""
    [ "$others" -ge 10 ] && shared="; other processes took ${others}% of a CPU meanwhile"
    echo "$out"
    list_row "N=$n tools/list first page" "$(grep '^list: first' <<< "$out")" "page size 100$shared"
    walk=$(grep '^list: walk' <<< "$out")
    list_row "N=$n tools/list all pages" "$walk" "$(field pages "$walk") pages a walk; req/s: walks/s$shared"
    measure catalog "N=$n tools/call $last" "$last" '{}' 32 0 \
      "listed after ${LISTED_MS} ms; RSS $(rss_mib) MiB"
    stop
  done
fi

# --- result size, argument schema, concurrency: one server ---------------------------------------
# One tool may run toolSharePercent (50) of maxConcurrentCalls (64) calls at once and keep
# maxQueuedPerTool (64) more waiting; beyond those 96 a call is answered "busy" at once, by design.
# The server raises that queue so that every one of 1,024 clients gets its answer; at the end the
# default is put back (the etc/ file is watched) and c = 256, 1024 show how many are told "busy".
if wants result || wants schema || wants concurrency; then
  start main core,http,conformance "maxQueuedPerTool = 2048"
  wait_tool bench_text_1m
  wait_tool bench_schema_complex
  session
  load test_simple_text '{}' 32 "$WARMUP" > /dev/null
fi

if wants result; then
  for size in 1k:1024 100k:102400 1m:1048576; do
    for c in 1 32; do
      measure result "bench_text_${size%%:*} (${size#*:} bytes)" "bench_text_${size%%:*}" '{}' "$c" "${size#*:}"
    done
  done
fi

if wants schema; then
  for c in 1 32; do
    measure schema "bench_schema_simple (1 property)" bench_schema_simple '{"name":"bench"}' "$c" 0 "arguments 16 bytes"
    measure schema "bench_schema_complex (36 properties)" bench_schema_complex "$COMPLEX_ARGS" "$c" 0 \
      "arguments ${#COMPLEX_ARGS} bytes"
  done
fi

if wants concurrency; then
  note "concurrency: io.quiver.core maxQueuedPerTool = 2048 (default 64) so that no call is answered busy"
  for c in 1 32 256 1024; do
    measure concurrency "test_simple_text" test_simple_text '{}' "$c"
  done
  echo "maxQueuedPerTool = 64" > "$WORK/main/etc/io.quiver.core.cfg"
  sleep 3
  for c in 256 1024; do
    load test_simple_text '{}' "$c" "$RUNWARM" > /dev/null
    line=$(load test_simple_text '{}' "$c" "$MEASURE")
    note "concurrency: the default maxQueuedPerTool (64), c=$c: $(field rps "$line") req/s, p99 $(field p99_ms "$line") ms;" \
      "$(field busy "$line") of $(field requests "$line") calls answered busy (by design)," \
      "$(( $(field failed "$line") - $(field busy "$line") )) other failed answers, $(field sockerr "$line") socket errors"
  done
fi

if [ -n "$PID" ]; then
  stop
fi

# --- idle sessions and streams --------------------------------------------------------------------
if wants idle; then
  # every session and stream comes from 127.0.0.1: maxSessionsPerClient (default a quarter of
  # maxSessions) refuses them first; maxSessions (20 per MiB of heap) and maxStreams (8 per MiB)
  # are raised only where their default is below what this part opens
  # (100 more than N: the sessions of wrk and of the catalog waits). Their defaults are sized to the
  # heap the JVM reports (Runtime.maxMemory, ~494 MiB at -Xmx512m with Serial GC): maxSessions 20
  # per MiB (~9,880), maxSessionsPerClient a quarter of that (~2,470), maxStreams 8 per MiB (~3,950)
  heap_mib=$((HEAP_MIB * 965 / 1000))
  core="maxSessions = $((IDLE + 100))
maxSessionsPerClient = $((IDLE + 100))"
  http="maxStreams = $((IDLE + 100))"
  raised="io.quiver.core maxSessions = $((IDLE + 100)) (default ~$((heap_mib * 20 > 1000 ? heap_mib * 20 : 1000))),"
  raised="$raised io.quiver.core maxSessionsPerClient = $((IDLE + 100)) (default ~$(( (heap_mib * 20 > 1000 ? heap_mib * 20 : 1000) / 4 ))),"
  raised="$raised io.quiver.transport.http maxStreams = $((IDLE + 100)) (default ~$((heap_mib * 8 > 256 ? heap_mib * 8 : 256)))"
  note "idle: limits set for $IDLE sessions and streams from one address (-Xmx$XMX): $raised"
  start idle core,http,conformance "$core" "$http"
  wait_tool test_simple_text
  session
  load test_simple_text '{}' 32 "$WARMUP" > /dev/null
  rss0=$(rss_mib); heap0=$(heap_mib)
  measure idle "tools/call, no idle load" test_simple_text '{}' 32 0 "RSS ${rss0} MiB, live heap ${heap0} MiB"
  p99_0="$LAST_P99"
  mkfifo "$WORK/idle.in"
  "${CLIENT[@]}" idle "$URL" < "$WORK/idle.in" > "$WORK/idle.out" 2> "$WORK/idle.err" &
  IDLE_PID=$!
  exec 3> "$WORK/idle.in"
  # waits for the client's line starting with $1 (at most 15 min); prints it
  answer() {
    for _ in $(seq 1 9000); do
      # (a whole line: the file ends with its newline)
      if grep -q "^$1" "$WORK/idle.out" && [ -z "$(tail -c1 "$WORK/idle.out")" ]; then
        grep "^$1" "$WORK/idle.out" | tail -1
        return
      fi
      kill -0 "$IDLE_PID" 2>/dev/null || break
      sleep 0.1
    done
    echo "the idle client gave no '$1' line:" >&2; cat "$WORK/idle.out" "$WORK/idle.err" >&2; exit 1
  }
  echo "sessions $IDLE" >&3
  note "idle: $(answer sessions:)"
  sleep 2
  rss1=$(rss_mib); heap1=$(heap_mib)
  measure idle "tools/call, $IDLE idle sessions" test_simple_text '{}' 32 0 "RSS ${rss1} MiB, live heap ${heap1} MiB"
  p99_1="$LAST_P99"
  echo streams >&3
  note "idle: $(answer streams:)"
  sleep 2
  rss2=$(rss_mib); heap2=$(heap_mib)
  measure idle "tools/call, $IDLE idle sessions + streams" test_simple_text '{}' 32 0 \
    "RSS ${rss2} MiB, live heap ${heap2} MiB"
  p99_2="$LAST_P99"
  echo check >&3
  note "idle: after the run with streams: $(answer check:)"
  note "idle: per session $(( (rss1 - rss0) * 1024 / IDLE )) KiB RSS, $(awk -v a="$heap0" -v b="$heap1" -v n="$IDLE" 'BEGIN {printf "%.0f", (b - a) * 1048576 / n}') bytes live heap;" \
    "per stream $(( (rss2 - rss1) * 1024 / IDLE )) KiB RSS, $(awk -v a="$heap1" -v b="$heap2" -v n="$IDLE" 'BEGIN {printf "%.0f", (b - a) * 1048576 / n}') bytes live heap"
  verdict=$(awk -v r="$rss2" -v a="$p99_0" -v b="$p99_2" -v n="$IDLE" 'BEGIN {
    printf "%d idle streams: RSS %d MiB (target <= 512: %s); c=32 p99 %.3f ms with them, %.3f ms without (%s)",
      n, r, (r <= 512 ? "met" : "missed"), b, a, (b <= a ? "within it" : sprintf("%.2fx", b / a)) }')
  note "idle: $verdict"
  echo quit >&3
  exec 3>&-
  wait "$IDLE_PID" 2>/dev/null || true
  IDLE_PID=""
  stop
fi

# --- the table ------------------------------------------------------------------------------------
JAVA_VERSION="$(java -version 2>&1 | head -1)"
CONDITIONS="$(date -u +%Y-%m-%d); $BUILD; $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo); $JAVA_VERSION; load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; server -XX:+UseSerialGC -Xms32m -Xmx$XMX on CPU 0, load on CPU 1; warm-up ${WARMUP} s at c=32 per server and ${RUNWARM} s per run, ${MEASURE} s measured"
echo
echo "$CONDITIONS"
awk -F'\t' 'BEGIN { printf "%-12s %-44s %5s %8s %9s %9s %6s %8s  %s\n", "part", "case", "c", "req/s", "p50 ms", "p99 ms", "errors", "CPU/call", "notes" }
  { printf "%-12s %-44s %5s %8s %9s %9s %6s %8s  %s\n", $1, $2, $3, $4, $5, $6, $7, ($8 == "-" ? "-" : $8 " us"), $9 }' "$RESULTS"
echo
cat "$NOTES"
errors=$(awk -F'\t' '{ s += $7 } END { print s + 0 }' "$RESULTS")
echo "errors in all runs: $errors"

if [ "$WRITE" = 1 ]; then
  DOC="$ROOT/docs/BENCHMARKS.md"
  {
    if ! grep -q '^## How cost grows' "$DOC"; then
      cat <<'EOF'

## How cost grows (`bench/scaling.sh`, `bench/run.sh --scaling`)

What: how a server's cost grows with its catalog (10, 1,000, 10,000 tools), with the size of a
result (1 KiB, 100 KiB, 1 MiB of text), with the argument schema (one property or 36), with
concurrency (1 to 1,024 clients in one session) and with idle sessions and GET streams (10,000 each).
The servers (`java -XX:+UseSerialGC -Xms32m -Xmx512m -jar quiver.jar run`, calls answering JSON)
run pinned to CPU 0 with the bench tool bundle `bench/scaling-tools` (built only with `-Pbench`) in
their `deploy/` folder: one per catalog size, one for result size, schema and concurrency, one for
the idle part. The load runs on CPU 1: `wrk` (one thread, `bench/lua/scaling.lua`: `tools/call` in
one 2025-11-25 session) and `bench/scaling-tools/ScalingClient.java` (JDK only: `tools/list` page
walks at concurrency 1, the idle sessions and streams). Each server gets 60 s of load at c=32
first, each run 5 s of its own warm-up, then 5 s measured. Every run counts its errors (status not
200, no `result`, an `isError` result such as "busy", a cut or short text, socket errors). *CPU/call*
is the server's user + system time during the run divided by the calls answered. Each run waits
until other processes leave the machine alone, and notes it when they did not.

```sh
bench/scaling.sh                                   # all parts, about 13 minutes
bench/scaling.sh --only idle --sessions 10000      # one part
bench/scaling.sh --measure 10 --write              # longer runs, appended here
```
EOF
    fi
    echo
    echo "### $(date -u +%Y-%m-%d): \`$COMMAND\`"
    echo
    echo "Conditions: $CONDITIONS."
    echo
    echo "| part | case | c | req/s | p50 ms | p99 ms | errors | CPU/call | notes |"
    echo "|---|---|---|---|---|---|---|---|---|"
    awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, ($8 == "-" ? "-" : $8 " µs"), $9 }' "$RESULTS"
    echo
    sed 's/^/- /' "$NOTES"
    echo "- errors in all runs: $errors"
  } >> "$DOC"
  echo "appended to $DOC"
fi
