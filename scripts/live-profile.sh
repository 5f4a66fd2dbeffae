#!/bin/bash
# Where a live gestured's instructions go, kernel and user, on a real kernel (issue 15): boots
# the peer tools' QEMU guest with -icount (guest time advances 1 ns per guest instruction), makes
# a uinput panel from RECORDING's description, starts `gestured run --stdout` on it (stdout into
# a guest tmpfs file, as live_cpu.sh does), samples it with `perf record -e cpu-clock` (on an
# icount guest a clock sample every N ns is a sample every N instructions) while evemu-play
# plays the recording in real time, and prints perf's reports: by symbol (self), by symbol
# with children (inclusive), by object.
#
# With -t callgrind, gestured runs under valgrind's callgrind in the guest instead: exact
# instruction counts of its user space by function, with call counts (so a cost per read of
# the device, per write, per frame), and callers and callees — what sampling cannot resolve
# in a function of a few hundred instructions. Valgrind slows gestured about fifty-fold, so
# frames queue up and a read takes several: compare costs per call, not per read.
#
# usage: scripts/live-profile.sh [-t perf|callgrind] [-c CONFIG] [-s SECONDS] [-p PERIOD] [-o DIR] RECORDING
#   -t TOOL     perf (default) or callgrind
#   -c CONFIG   gestured's configuration (default config/photo-wall.json5)
#   -s SECONDS  play only the first SECONDS of the recording (default 20; 3 is plenty for callgrind)
#   -p PERIOD   instructions between samples (default 20000; perf only)
#   -o DIR      keep perf.data (callgrind.out) and the reports in DIR (default: a temporary
#               directory, removed)
# env: GESTURED_PEER_TOOLS (the directory of vm/vm-run.sh; found as scripts/peer-tools.sh
# says), GESTURED_BINARY (default: this package's release build, built first).
# Needs on the host: perf (linux-perf, its version the guest kernel's) or valgrind, evemu-tools;
# the guest uses the host's binaries. About 3 minutes for 20 s of a 10-finger stream with perf,
# 1 minute for 3 s with callgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
CONFIG=config/photo-wall.json5 SECONDS_PLAYED=20 PERIOD=20000 KEEP="" TOOL=perf
while getopts "t:c:s:p:o:h" opt; do
    case $opt in
        t) TOOL=$OPTARG ;;
        c) CONFIG=$OPTARG ;; s) SECONDS_PLAYED=$OPTARG ;; p) PERIOD=$OPTARG ;; o) KEEP=$OPTARG ;;
        *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# = 1 ] || { echo "live-profile: give one recording (evemu, with its description)" >&2; exit 2; }
recording=$(realpath "$1")
grep -q '^B:' "$recording" || { echo "live-profile: $1 has no description (B: lines)" >&2; exit 2; }
case $TOOL in
    perf) profiler=perf ;;
    callgrind) profiler=valgrind ;;
    *) echo "live-profile: -t takes perf or callgrind, not $TOOL" >&2; exit 2 ;;
esac
for tool in $profiler evemu-play; do
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
if [ "$TOOL" = callgrind ]; then
    valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.out" \
        "$GESTURED" run --config "$CONFIG" --device "$NODE" --socket "$W/g.sock" --stdout > "$W/stdout" 2> "$W/stderr" &
    G=$!
    # Ready when it listens (its socket exists): minutes under valgrind and emulation.
    for _ in $(seq 600); do [ -S "$W/g.sock" ] && break; sleep 0.5; done
    [ -S "$W/g.sock" ] || { echo "live-profile: gestured did not start under valgrind" >&2; cat "$W/stderr" >&2; exit 3; }
    evemu-play "$NODE" < "$PLAY"
    # Drained when its output stops growing.
    last=-1
    while [ "$(wc -c < "$W/stdout")" != "$last" ]; do last=$(wc -c < "$W/stdout"); sleep 3; done
    kill -TERM "$G"; wait "$G"
    echo "stdout lines: $(wc -l < "$W/stdout")" > "$OUT/perf-record.txt"
    # The function tables without callgrind_annotate's preamble.
    callgrind_annotate --auto=no "$OUT/callgrind.out" 2>&1 | sed -n '/file:function/,$p' > "$OUT/self.txt"
    callgrind_annotate --auto=no --inclusive=yes "$OUT/callgrind.out" 2>&1 | sed -n '/file:function/,$p' > "$OUT/children.txt"
    callgrind_annotate --auto=no --tree=calling "$OUT/callgrind.out" > "$OUT/calls.txt" 2>&1
    echo "(callgrind: gestured's user space only)" > "$OUT/objects.txt"
    exit 0
fi
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
    printf 'PLAY=%q\nPERIOD=%q\nTOOL=%q\n' "$work/play.evemu" "$PERIOD" "$TOOL"
} > "$work/settings"
rc=0
timeout=$((300 + SECONDS_PLAYED * 10))
[ "$TOOL" = callgrind ] && timeout=$((600 + SECONDS_PLAYED * 60))
VM_RW_DIR=$work VM_TIMEOUT=$timeout VM_CPUS=1 VM_MEM=1G \
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
report() { sed -e '/^#/d' -e '/^$/d' -e '/^--/d' "$1" | sed -n "1,$2p"; }
cat "$out/perf-record.txt"
echo "== by object"; report "$out/objects.txt" 8
echo "== by symbol, self"; report "$out/self.txt" 40
echo "== by symbol, with children"; report "$out/children.txt" 40
if [ "$TOOL" = callgrind ]; then
    echo "(per-call costs with their callers and callees: calls.txt, kept with -o)"
fi
if [ -n "$KEEP" ]; then echo "the profile and the reports: $KEEP"; fi
exit 0
