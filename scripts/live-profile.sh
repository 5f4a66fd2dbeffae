#!/bin/bash
# Where a live gestured's instructions go, kernel and user, on a real kernel (issue 15): boots
# the peer tools' QEMU guest with -icount (guest time advances 1 ns per guest instruction), makes
# a uinput panel from RECORDING's description, starts `gestured run --stdout` on it (stdout into
# a guest tmpfs file, as live_cpu.sh does), samples it with `perf record -e cpu-clock` (on an
# icount guest a clock sample every N ns is a sample every N instructions) while evemu-play
# plays the recording in real time, and prints perf's reports: by symbol (self), by symbol
# with children (inclusive), by object.
#
# usage: scripts/live-profile.sh [-c CONFIG] [-s SECONDS] [-p PERIOD] [-o DIR] RECORDING
#   -c CONFIG   gestured's configuration (default config/photo-wall.json5)
#   -s SECONDS  play only the first SECONDS of the recording (default 20)
#   -p PERIOD   instructions between samples (default 20000)
#   -o DIR      keep perf.data and the reports in DIR (default: a temporary directory, removed)
# env: GESTURED_PEER_TOOLS (the directory of vm/vm-run.sh; found as scripts/peer-tools.sh
# says), GESTURED_BINARY (default: this package's release build, built first).
# Needs on the host: perf (linux-perf, its version the guest kernel's), evemu-tools; the guest
# uses the host's binaries. About 3 minutes for 20 s of a 10-finger stream.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
CONFIG=config/photo-wall.json5 SECONDS_PLAYED=20 PERIOD=20000 KEEP=""
while getopts "c:s:p:o:h" opt; do
    case $opt in
        c) CONFIG=$OPTARG ;; s) SECONDS_PLAYED=$OPTARG ;; p) PERIOD=$OPTARG ;; o) KEEP=$OPTARG ;;
        *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# = 1 ] || { echo "live-profile: give one recording (evemu, with its description)" >&2; exit 2; }
recording=$(realpath "$1")
grep -q '^B:' "$recording" || { echo "live-profile: $1 has no description (B: lines)" >&2; exit 2; }
for tool in perf evemu-play; do
    command -v "$tool" > /dev/null || { echo "live-profile: $tool is not installed on the host" >&2; exit 2; }
done
source scripts/peer-tools.sh
[ -n "$GESTURED_PEER_TOOLS" ] && [ -x "$GESTURED_PEER_TOOLS/vm/vm-run.sh" ] \
    || { echo "live-profile: set GESTURED_PEER_TOOLS to the directory of vm/vm-run.sh" >&2; exit 2; }
binary=${GESTURED_BINARY:-}
if [ -z "$binary" ]; then
    swift build -c release --product gestured >&2
    binary=$root/.build/release/gestured
fi
binary=$(realpath "$binary")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$work/out     # the guest writes under the one directory it may write ($work)
mkdir -p "$out"
# The description and the first SECONDS_PLAYED seconds of events.
awk -v s="$SECONDS_PLAYED" '/^E:/ { if (n++ == 0) t0 = $2; if ($2 - t0 > s) exit } { print }' \
    "$recording" > "$work/play.evemu"
sed -e "s#^HERE=.*#HERE=$GESTURED_PEER_TOOLS/vm#" \
    -e 's#-accel tcg,thread=multi#-accel tcg -icount shift=0,sleep=on#' \
    "$GESTURED_PEER_TOOLS/vm/vm-run.sh" > "$work/vm-run-icount.sh"
grep -q 'icount shift=0' "$work/vm-run-icount.sh" \
    || { echo "live-profile: vm-run.sh no longer has '-accel tcg,thread=multi'; cannot derive the icount runner" >&2; exit 2; }
chmod +x "$work/vm-run-icount.sh"

cat > "$work/guest.sh" <<'GUEST'
#!/bin/bash
# In the guest, as root. $1: settings.
set -u
. "$1"
W=/run/live-profile; mkdir -p "$W"
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
/lib/systemd/systemd-udevd --daemon > /dev/null 2>&1
evemu-device "$PLAY" > "$W/device.out" 2>&1 &
NODE=""
for _ in $(seq 100); do
    NODE=$(grep -o '/dev/input/event[0-9]*' "$W/device.out" | head -n1)
    [ -n "$NODE" ] && break
    sleep 0.1
done
[ -n "$NODE" ] || { echo "live-profile: evemu-device made no node" >&2; exit 3; }
sleep 1
"$GESTURED" run --config "$CONFIG" --device "$NODE" --socket "$W/g.sock" --stdout > "$W/stdout" 2> "$W/stderr" &
G=$!
sleep 2
perf record -e cpu-clock -c "$PERIOD" -g -p "$G" -o "$W/perf.data" 2> "$OUT/perf-record.txt" &
P=$!
sleep 1
evemu-play "$NODE" < "$PLAY"
sleep 2
kill -INT "$P"; wait "$P"
kill -INT "$G"; wait "$G"
echo "stdout lines: $(wc -l < "$W/stdout")" >> "$OUT/perf-record.txt"
perf report -i "$W/perf.data" --no-children --sort sym --stdio -g none > "$OUT/self.txt" 2>&1
perf report -i "$W/perf.data" --children --sort sym --stdio -g none > "$OUT/children.txt" 2>&1
perf report -i "$W/perf.data" --no-children --sort dso --stdio -g none > "$OUT/objects.txt" 2>&1
cp "$W/perf.data" "$OUT/"
GUEST
{
    printf 'OUT=%q\nGESTURED=%q\nCONFIG=%q\n' "$out" "$binary" "$root/$CONFIG"
    printf 'PLAY=%q\nPERIOD=%q\n' "$work/play.evemu" "$PERIOD"
} > "$work/settings"
rc=0
VM_RW_DIR=$work VM_TIMEOUT=$((300 + SECONDS_PLAYED * 10)) VM_CPUS=1 VM_MEM=1G \
    VM_APPEND="tsc=reliable clocksource=tsc lpj=4000000" \
    "$work/vm-run-icount.sh" "$work/guest.sh" "$work/settings" > "$work/console.log" 2>&1 || rc=$?
if [ $rc != 0 ] || [ ! -s "$out/self.txt" ]; then
    echo "live-profile: the guest failed (exit $rc); its console:" >&2
    tail -n 30 "$work/console.log" >&2
    exit 1
fi
if [ -n "$KEEP" ]; then
    mkdir -p "$KEEP"
    cp "$out"/* "$KEEP"/
fi
# The reports' first lines (sed reads them whole: no reader closes a pipe early under pipefail).
report() { sed -e '/^#/d' -e '/^$/d' "$1" | sed -n "1,$2p"; }
cat "$out/perf-record.txt"
echo "== by object"; report "$out/objects.txt" 8
echo "== by symbol, self"; report "$out/self.txt" 40
echo "== by symbol, with children"; report "$out/children.txt" 40
if [ -n "$KEEP" ]; then echo "perf.data and the reports: $KEEP"; fi
exit 0
