#!/usr/bin/env bash
# What floods cost a running server: heap per idle session, resident memory with the session and
# stream limits reached, a fast tool's latency while a slow tool saturates its share, and thousands of
# request bodies that never come.
#
#   bench/hardening.sh [JAR]      (default launcher/target/quiver.jar; build it first)
#
# Each part starts its own server (`java -jar JAR run --port 0`, the quiver script's heap options,
# features core,http,tools-default,conformance, SSE polling off) with fresh folders, drives it with
# bench/Pressure.java (JDK only) and reads the JVM with jcmd and /proc. Needs a JDK.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="${1:-$ROOT/launcher/target/quiver.jar}"
WORK="$(mktemp -d)"
PRESSURE=(java -Xmx1g "$ROOT/bench/Pressure.java")
PID=""
trap '[ -n "$PID" ] && kill -9 "$PID" 2>/dev/null; rm -rf "$WORK"' EXIT

start() {
  local name="$1" core="${2:-}" http="${3:-}"
  mkdir -p "$WORK/$name/etc" "$WORK/$name/deploy"
  [ -n "$core" ] && printf '%s\n' "$core" > "$WORK/$name/etc/io.quiver.core.cfg"
  # the conformance feature (for its slow tool) turns SSE polling on; these clients do not resume
  echo "ssePollingMs = 0" > "$WORK/$name/etc/io.quiver.transport.http.cfg"
  [ -n "$http" ] && printf '%s\n' "$http" >> "$WORK/$name/etc/io.quiver.transport.http.cfg"
  mkfifo "$WORK/$name/out"
  java -XX:+UseSerialGC -Xms32m -Xmx512m -jar "$JAR" run --port 0 \
    --features core,http,tools-default,conformance --etc "$WORK/$name/etc" --deploy "$WORK/$name/deploy" \
    --data "$WORK/$name/data" > "$WORK/$name/out" 2> "$WORK/$name/server.log" &
  PID=$!
  read -r line < "$WORK/$name/out"
  URL="${line#Quiver MCP endpoint: }"
}

stop() {
  kill -TERM "$PID" 2>/dev/null || true
  wait "$PID" 2>/dev/null || true
  PID=""
}

# live heap in bytes (a full GC first): the class histogram's total
live_heap() {
  jcmd "$PID" GC.class_histogram 2>/dev/null | awk '/^Total/ {print $3}'
}

rss_mib() {
  awk '/VmRSS/ {print int($2 / 1024)}' "/proc/$PID/status"
}

echo "== heap per idle session (limits raised so 10000 sessions fit: the cost of one, not the cap)"
start sessions "maxSessions = 100000
maxSessionsPerClient = 100000"
before=$(live_heap)
"${PRESSURE[@]}" sessions "$URL" 10000 | tee "$WORK/sessions.txt"
after=$(live_heap)
accepted=$(grep -o '200=[0-9]*' "$WORK/sessions.txt" | cut -d= -f2)
echo "heap: live before $((before / 1024)) KiB, after $((after / 1024)) KiB:" \
  "$(( (after - before) / ${accepted:-1} )) bytes per session ($accepted sessions)"
stop

echo "== resident memory with the session limit reached (30000 initialize from one address; defaults)"
start flood
echo "RSS idle $(rss_mib) MiB"
"${PRESSURE[@]}" sessions "$URL" 30000
echo "RSS after the session flood $(rss_mib) MiB"
stop

echo "== resident memory with the stream limit reached (6000 sessions with a GET stream each;"
echo "   per-client limit raised to the overall one, standing for a flood from many addresses)"
start streams "maxSessionsPerClient = 100000"
echo "RSS idle $(rss_mib) MiB"
"${PRESSURE[@]}" streams "$URL" 6000 20 > "$WORK/streams.txt" &
spid=$!
until grep -q '^streams:' "$WORK/streams.txt" 2>/dev/null; do sleep 1; done
cat "$WORK/streams.txt"
sleep 5
echo "RSS with the streams open $(rss_mib) MiB"
wait "$spid" || true
stop

echo "== fast tool latency while a slow tool saturates its share (400 slow calls of 30 s)"
start starvation
"${PRESSURE[@]}" starvation "$URL" 400 30
stop

echo "== slow bodies (3000 connections send a call's headers and 5 bytes of its body; bodyTimeoutMs 5 s)"
start slowbodies "" "bodyTimeoutMs = 5000"
echo "RSS idle $(rss_mib) MiB"
"${PRESSURE[@]}" slowbodies "$URL" 3000 &
spid=$!
sleep 4
echo "RSS with the bodies waited for $(rss_mib) MiB"
wait "$spid" || true
stop

echo "java: $(java -version 2>&1 | head -1); cores: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg); jar: $JAR"
