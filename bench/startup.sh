#!/usr/bin/env bash
# Start time and idle memory of `./quiver run`, as a user starts it.
#
#   bench/startup.sh [RUNS] [FEATURES]      (defaults: 10 runs, the default features)
#   IDLE=S bench/startup.sh ...             idle S seconds before reading the RSS (default 5)
#   STDIO=1 bench/startup.sh [RUNS] [FEATURES]  over stdio, as a host launches it: `./quiver run --stdio`
#                                           (its default features unless FEATURES is given), `initialize`
#                                           written to its stdin, timed to the answer on its stdout; stopped
#                                           by closing its stdin
#
# For each run: fork `./quiver run --port 0` as a fresh clone runs it (its own copy of the repository's
# etc/, an empty deploy/ folder, the default temporary storage), wait for the endpoint line, send
# one `initialize` over HTTP and time its answer (process start -> first MCP answer), then idle for
# 5 s and read the resident set size (VmRSS) from /proc, then SIGTERM and check the exit status.
# (Before 2026-12-05 each run had an empty etc/ and --data DIR: ~30 ms sooner than the default.)
# Prints one line per run and the medians. Needs curl. Run ./quiver build first (and one throw-away
# run, so the class data archive and the storage template the script writes on the first exit exist).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUNS="${1:-10}"
STDIO="${STDIO:-0}"
if [ "$STDIO" = 1 ]; then
  FEATURES="${2:-}"   # --stdio's own default features (core, stdio, tools-default) unless named
else
  FEATURES="${2:-core,http,tools-default}"
fi
INITIALIZE='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}'
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
starts=() rss=()
for i in $(seq 1 "$RUNS"); do
  mkfifo "$WORK/out"
  rm -rf "$WORK/etc" "$WORK/deploy" && cp -r "$ROOT/etc" "$WORK/etc" && mkdir "$WORK/deploy"
  if [ "$STDIO" = 1 ]; then
    mkfifo "$WORK/in"
    t0=$(date +%s%N)
    "$ROOT/quiver" run --stdio ${FEATURES:+--features "$FEATURES"} --etc "$WORK/etc" --deploy "$WORK/deploy" \
      < "$WORK/in" > "$WORK/out" 2> "$WORK/err-$i.log" &
    pid=$!
    exec 3> "$WORK/in" 4< "$WORK/out"   # held open: the server keeps its stdin and stdout until the end
    printf '%s\n' "$INITIALIZE" >&3
    read -r line <&4
    t1=$(date +%s%N)
    case "$line" in *'"result"'*) ;; *) echo "run $i: no initialize result over stdio: $line" >&2; exit 1 ;; esac
  else
    t0=$(date +%s%N)
    "$ROOT/quiver" run --port 0 --features "$FEATURES" --etc "$WORK/etc" --deploy "$WORK/deploy" \
      > "$WORK/out" 2> "$WORK/err-$i.log" &
    pid=$!
    read -r line < "$WORK/out"
    url="${line#Quiver MCP endpoint: }"
    curl -s -o /dev/null -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
      -d "$INITIALIZE" "$url"
    t1=$(date +%s%N)
  fi
  sleep ${IDLE:-5}
  kb=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
  if [ "$STDIO" = 1 ]; then
    exec 3>&-                            # stdin ends: the server stops
  else
    kill -TERM "$pid"
  fi
  status=0; wait "$pid" || status=$?
  [ "$STDIO" = 1 ] && exec 4<&-
  rm -f "$WORK/out" "$WORK/in"
  ms=$(( (t1 - t0) / 1000000 ))
  starts+=("$ms"); rss+=("$((kb / 1024))")
  echo "run $i: first answer after ${ms} ms, idle RSS $((kb / 1024)) MiB, exit status $status"
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2))}'; }
echo "median over $RUNS runs: first answer $(median "${starts[@]}") ms, idle RSS $(median "${rss[@]}") MiB"
echo "java: $(java -version 2>&1 | head -1); cores: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg)"
