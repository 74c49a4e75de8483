#!/usr/bin/env bash
# Hot-install and update latency of a tool bundle, as a user and a connected client see them.
#
#   bench/hot-install.sh [RUNS] [POLL_MS]      (defaults: 10 runs, deploy/ as the launcher sets it up)
#
# Starts `./quiver run --port 0 --features core,http` with fresh folders, opens one MCP session over
# HTTP and holds its GET stream open (curl -N); every `notifications/tools/list_changed` line is
# timestamped as it arrives. Then, RUNS times:
#   install    the example jar is renamed into the watched folder  -> list_changed received
#   update     version 2 is renamed over it                         -> a tools/call answers the v2 text
#   uninstall  the jar is deleted                                   -> list_changed received
# Before each step the script waits a random 0..poll ms, so the copy lands at a random point of
# FileInstall's poll cycle, as a user's copy does. Prints one line per run and the medians.
#
# Without POLL_MS the jar goes into deploy/, which the launcher has FileInstall poll every 100 ms.
# With POLL_MS the jar goes into a second folder that an etc/ file has FileInstall poll every
# POLL_MS ms (felix.fileinstall.poll), to show what the poll interval costs and what the server
# itself takes. Needs curl, unzip and the JDK's jar tool; run ./quiver build and
# (cd examples/greeting-tool && mvn -B -q install) first.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUNS="${1:-10}"
POLL_MS="${2:-}"
V1="$ROOT/examples/greeting-tool/target/greeting-tool-1.0.0-SNAPSHOT.jar"
[ -f "$V1" ] || { echo "build the example first: (cd examples/greeting-tool && mvn -B -q install)" >&2; exit 1; }
WORK="$(mktemp -d)"
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$WORK/etc" "$WORK/deploy"

# Version 2: the same bundle with another English greeting and a higher Bundle-Version.
mkdir "$WORK/v2"
(cd "$WORK/v2" && unzip -q "$V1")
sed -i 's/^ENGLISH=Hello, /ENGLISH=Howdy, /' "$WORK/v2/io/quiver/examples/greeting/greetings.properties"
sed -i 's/^Bundle-Version: .*/Bundle-Version: 1.0.1/' "$WORK/v2/META-INF/MANIFEST.MF"
mv "$WORK/v2/META-INF/MANIFEST.MF" "$WORK/MANIFEST.MF"
jar --create --file "$WORK/v2.jar" --manifest "$WORK/MANIFEST.MF" -C "$WORK/v2" .

if [ -z "$POLL_MS" ]; then
  FOLDER="$WORK/deploy"
  POLL=100
  WHERE="deploy/ (FileInstall poll 100 ms, set by the launcher)"
else
  FOLDER="$WORK/hot"
  POLL="$POLL_MS"
  WHERE="a folder FileInstall polls every $POLL_MS ms (etc/org.apache.felix.fileinstall-bench.cfg)"
  mkdir -p "$FOLDER"
  printf 'felix.fileinstall.dir=%s\nfelix.fileinstall.filter=.*\\\\.jar\nfelix.fileinstall.poll=%s\nfelix.fileinstall.noInitialDelay=true\n' \
    "$FOLDER" "$POLL_MS" > "$WORK/etc/org.apache.felix.fileinstall-bench.cfg"
fi

mkfifo "$WORK/out"
"$ROOT/quiver" run --port 0 --features core,http --etc "$WORK/etc" --deploy "$WORK/deploy" \
  > "$WORK/out" 2> "$WORK/server.log" &
PIDS+=($!)
read -r line < "$WORK/out"
URL="${line#Quiver MCP endpoint: }"

H=(-H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream')
SID=$(curl -s -D - -o /dev/null "${H[@]}" "$URL" \
  -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}' \
  | tr -d '\r' | awk -F': ' 'tolower($1)=="mcp-session-id" {print $2}')
H+=(-H "Mcp-Session-Id: $SID" -H 'MCP-Protocol-Version: 2025-11-25')
curl -s -o /dev/null "${H[@]}" "$URL" -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'

# The client's GET stream: one timestamp (epoch seconds, microsecond resolution) per list_changed.
: > "$WORK/events"
curl -s -N -H 'Accept: text/event-stream' -H "Mcp-Session-Id: $SID" -H 'MCP-Protocol-Version: 2025-11-25' "$URL" \
  | while IFS= read -r l; do case "$l" in *tools/list_changed*) echo "$EPOCHREALTIME" >> "$WORK/events";; esac; done &
PIDS+=($!)
sleep 0.5

now() { echo "$EPOCHREALTIME"; }
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%d", (b - a) * 1000 }'; }
events() { wc -l < "$WORK/events"; }
# Waits for list_changed number $1; prints its timestamp.
await_event() {
  local deadline=$((SECONDS + 20))
  until [ "$(events)" -ge "$1" ]; do
    [ "$SECONDS" -lt "$deadline" ] || { echo "no list_changed #$1 within 20 s" >&2; exit 1; }
    sleep 0.002
  done
  sed -n "${1}p" "$WORK/events"
}
greet() {
  curl -s "${H[@]}" "$URL" -d '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}}}'
}
random_phase() { sleep "$(awk -v p="$POLL" -v r="$RANDOM" 'BEGIN { printf "%.3f", p * r / 32768 / 1000 }')"; }
place() { cp "$1" "$FOLDER/.greeting.part"; mv "$FOLDER/.greeting.part" "$FOLDER/greeting-tool.jar"; }

installs=() updates=() removals=()
seen=0
for i in $(seq 1 "$RUNS"); do
  random_phase
  t0=$(now); place "$V1"
  seen=$((seen + 1)); t1=$(await_event "$seen")
  greet | grep -q 'Hello, Ada!' || { echo "v1 does not answer" >&2; exit 1; }
  installs+=("$(ms "$t0" "$t1")")

  random_phase
  t0=$(now); place "$WORK/v2.jar"
  deadline=$((SECONDS + 20))
  until greet | grep -q 'Howdy, Ada!'; do
    [ "$SECONDS" -lt "$deadline" ] || { echo "v2 never answered" >&2; exit 1; }
  done
  t1=$(now)
  updates+=("$(ms "$t0" "$t1")")
  sleep 0.3                                     # the update's list_changed (quiet window 100 ms)
  seen=$(events)

  random_phase
  t0=$(now); rm "$FOLDER/greeting-tool.jar"
  seen=$((seen + 1)); t1=$(await_event "$seen")
  removals+=("$(ms "$t0" "$t1")")
  echo "run $i: install -> list_changed ${installs[-1]} ms, update -> v2 answers ${updates[-1]} ms, delete -> list_changed ${removals[-1]} ms"
  sleep 0.3
  seen=$(events)
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2))}'; }
range() { printf '%s\n' "$@" | sort -n | awk 'NR==1 {lo=$1} {hi=$1} END {print lo "-" hi}'; }
echo "median over $RUNS runs, $WHERE:"
echo "  install -> list_changed $(median "${installs[@]}") ms ($(range "${installs[@]}")),"\
  "update -> new behaviour $(median "${updates[@]}") ms ($(range "${updates[@]}")),"\
  "delete -> list_changed $(median "${removals[@]}") ms ($(range "${removals[@]}"))"
echo "java: $(java -version 2>&1 | head -1); cores: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg)"
