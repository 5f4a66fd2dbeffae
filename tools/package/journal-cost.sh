#!/usr/bin/env bash
# The cost of a log message in JournalLogHandler, journald's native protocol against stderr
# lines (docs/service.md, "Logs"): callgrind counts the instructions inside
# JournalLogHandler.log(event:) while `gestured run` logs 200 client connections (400
# messages, "client connected" and "client disconnected"). "native" runs with a stand-in
# journald (a Python datagram socket on a private /run: unshare -m, a tmpfs), "stderr" with
# none, so every message is a line. Needs root (unshare, mount) and valgrind; the binary must
# keep its symbols (package-deb.sh's first, unstripped link: .build/static/release/gestured).
#
# Usage: tools/package/journal-cost.sh [GESTURED]   Prints both totals.
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=$(realpath "${1:-.build/static/release/gestured}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The lobby sample on a device that never comes: the daemon serves clients and waits.
sed 's|^  device: "auto",|  device: "/dev/input/gestured-journal-cost-none",|; s|group: "gestured", |group: null, |; s|"layouts/lobby.json5"|"'"$PWD"'/config/layouts/lobby.json5"|' \
    config/lobby.json5 > "$work/config.json5"
cat > "$work/inside.sh" <<'INSIDE'
set -u
mode=$1 binary=$2 work=$3
mount -t tmpfs tmpfs /run
mkdir -p /run/systemd/journal
if [ "$mode" = native ]; then
    python3 -c '
import socket
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.bind("/run/systemd/journal/socket")
while True: s.recv(65536)' & receiver=$!
    sleep 0.5
fi
JOURNAL_STREAM=8:1 valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.$mode" \
    --toggle-collect='*17JournalLogHandlerV3log5event*' \
    "$binary" run --config "$work/config.json5" --socket "$work/g.sock" 2> "$work/stderr.$mode" &
daemon=$!
for _ in $(seq 120); do [ -S "$work/g.sock" ] && break; sleep 0.5; done
python3 -c '
import socket, sys
for _ in range(200):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect(sys.argv[1]); s.makefile().readline(); s.close()' "$work/g.sock"
sleep 2
kill -TERM "$daemon"; wait "$daemon"
[ -z "${receiver:-}" ] || kill "$receiver"
echo "$mode: $(callgrind_annotate "$work/callgrind.$mode" | grep -m1 'PROGRAM TOTALS' | awk '{ print $1 }') instructions in JournalLogHandler.log; $(grep -c '^<6>client' "$work/stderr.$mode" || true) of the client messages went to stderr"
INSIDE
for mode in stderr native; do
    unshare -m --propagation private bash "$work/inside.sh" "$mode" "$binary" "$work"
done
