#!/usr/bin/env bash
# What floods cost a running server: heap per idle session, resident memory with the session and
# stream limits reached, and a fast tool's latency while a slow tool saturates its share.
#
#   bench/hardening.sh [JAR]      (default launcher/target/quiver.jar; build it first)
#
# Each part starts its own server (`java -jar JAR run --port 0`, the quiver script's heap options,
# features core,http,tools-default,conformance) with fresh folders, drives it with
# bench/Pressure.java (JDK only) and reads the JVM with jcmd and /proc. Needs curl and a JDK.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="${1:-$ROOT/launcher/target/quiver.jar}"
WORK="$(mktemp -d)"
PRESSURE=(java -Xmx1g "$ROOT/bench/Pressure.java")
PID=""
trap '[ -n "$PID" ] && kill -9 "$PID" 2>/dev/null; rm -rf "$WORK"' EXIT

start() {
  local name="$1"
  mkdir -p "$WORK/$name/etc" "$WORK/$name/deploy"
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

echo "== heap per idle session"
start sessions
before=$(live_heap)
"${PRESSURE[@]}" sessions "$URL" 10000
after=$(live_heap)
echo "heap: live before $((before / 1024)) KiB, after 10000 sessions $((after / 1024)) KiB:" \
  "$(( (after - before) / 10000 )) bytes per accepted session (see the accepted count above)"
stop

echo "== resident memory with the limits reached (30000 initialize, then 6000 GET streams)"
start flood
echo "RSS idle $(rss_mib) MiB"
"${PRESSURE[@]}" sessions "$URL" 30000
echo "RSS after the session flood $(rss_mib) MiB"
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

echo "java: $(java -version 2>&1 | head -1); cores: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg); jar: $JAR"
