#!/usr/bin/env bash
# Start time and idle memory of `./quiver run`, as a user starts it.
#
#   bench/startup.sh [RUNS] [FEATURES]      (defaults: 10 runs, the default features)
#   IDLE=S bench/startup.sh ...             idle S seconds before reading the RSS (default 5)
#
# For each run: fork `./quiver run --port 0` as a fresh clone runs it (its own copy of the repository's
# etc/, an empty deploy/ folder, the default temporary storage), wait for the endpoint line, send
# one `initialize` over HTTP and time its answer (process start -> first MCP answer), then idle for
# 5 s and read the resident set size (VmRSS) from /proc, then SIGTERM and check the exit status.
# (Before 2026-12-05 each run had an empty etc/ and --data DIR: ~30 ms sooner than the default.)
# Prints one line per run and the medians. Needs curl. Run ./quiver build first (and one throw-away
# run, so the class data archive the script writes on the first exit exists).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUNS="${1:-10}"
FEATURES="${2:-core,http,tools-default}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
starts=() rss=()
for i in $(seq 1 "$RUNS"); do
  mkfifo "$WORK/out"
  t0=$(date +%s%N)
  rm -rf "$WORK/etc" "$WORK/deploy" && cp -r "$ROOT/etc" "$WORK/etc" && mkdir "$WORK/deploy"
  "$ROOT/quiver" run --port 0 --features "$FEATURES" --etc "$WORK/etc" --deploy "$WORK/deploy" \
    > "$WORK/out" 2> "$WORK/err-$i.log" &
  pid=$!
  read -r line < "$WORK/out"
  url="${line#Quiver MCP endpoint: }"
  curl -s -o /dev/null -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}' \
    "$url"
  t1=$(date +%s%N)
  sleep ${IDLE:-5}
  kb=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
  kill -TERM "$pid"
  status=0; wait "$pid" || status=$?
  rm -f "$WORK/out"
  ms=$(( (t1 - t0) / 1000000 ))
  starts+=("$ms"); rss+=("$((kb / 1024))")
  echo "run $i: first answer after ${ms} ms, idle RSS $((kb / 1024)) MiB, exit status $status"
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2))}'; }
echo "median over $RUNS runs: first answer $(median "${starts[@]}") ms, idle RSS $(median "${rss[@]}") MiB"
echo "java: $(java -version 2>&1 | head -1); cores: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg)"
