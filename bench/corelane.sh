#!/usr/bin/env bash
# The core lane on and off, for clients whose request bodies do not come with their headers:
#   calls     the JDK's own HTTP client (the transport of the official Java SDK's client), which writes a
#             POST's headers and its body in two writes
#   segments  a raw socket writing each request in 1,448-byte pieces (a body larger than one TCP segment, as
#             it crosses a real network), 16 KB of padding in the call's _meta
# (bench/Pressure.java). With coreLane true the lane waits for the rest of a body without a thread and
# serves the call on the thread that reads it; with false the servlet reads the body and hands the call over.
#
#   bench/corelane.sh [ROUNDS] [WARMUP_S] [MEASURE_S]
#
# Each round starts the server twice in turn (coreLane true, then false), pinned to CPU 0, with the JSON
# answers of bench/run.sh's quiver-json (sseMethods empty) and the conformance tools; the load runs on
# CPU 1: a warm-up of both loads at 8 threads, then each load at 1 and 8 threads. Prints calls/s, latency
# and the server's CPU per call.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROUNDS="${1:-3}" WARMUP="${2:-30}" MEASURE="${3:-10}"
cd "$ROOT"
[ -f launcher/target/quiver.jar ] || mvn -B -q -DskipTests install
WORK="$(mktemp -d)"
PID=""
trap '[ -z "$PID" ] || kill "$PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT
HZ="$(getconf CLK_TCK)"
load() {
  case "$1" in
    calls) taskset -c 1 java -Xmx256m "$ROOT/bench/Pressure.java" calls "$URL" "$2" "$3" ;;
    segments) taskset -c 1 java -Xmx256m "$ROOT/bench/Pressure.java" segments "$URL" "$2" "$3" 16000 ;;
  esac
}
for round in $(seq 1 "$ROUNDS"); do
  for lane in true false; do
    etc="$WORK/etc-$lane"; mkdir -p "$etc"
    printf 'sseMethods =\nselectorLane = true\ncoreLane = %s\n' "$lane" > "$etc/io.quiver.transport.http.cfg"
    taskset -c 0 java -XX:+UseSerialGC -Xms16m -Xmx512m -XX:CompileThresholdScaling=3 -jar launcher/target/quiver.jar run \
      --port 0 --features core,http,conformance --etc "$etc" > "$WORK/out" 2> "$WORK/log-$lane" &
    PID=$!
    for _ in $(seq 1 300); do grep -q "endpoint: " "$WORK/out" 2>/dev/null && break; sleep 0.1; done
    URL="$(grep -o 'http://[^ ]*' "$WORK/out" | head -1)"
    load calls 8 "$WARMUP" > /dev/null
    load segments 8 "$WARMUP" > /dev/null
    for kind in calls segments; do
      for c in 1 8; do
        before=$(awk '{print $14 + $15}' "/proc/$PID/stat")
        line=$(load "$kind" "$c" "$MEASURE")
        after=$(awk '{print $14 + $15}' "/proc/$PID/stat")
        rate=$(echo "$line" | grep -o '[0-9]* calls/s' | cut -d' ' -f1)
        cpu=$(awk -v t=$((after - before)) -v hz="$HZ" -v r="$rate" -v s="$MEASURE" 'BEGIN {printf "%.0f", t / hz * 1e6 / (r * s)}')
        echo "round $round coreLane=$lane $line; server CPU ${cpu} us/call"
      done
    done
    kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
  done
done
