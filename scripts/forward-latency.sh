#!/usr/bin/env bash
# What forwarding costs (issue 26), on a real kernel in a QEMU guest: the time a forwarded frame
# spends in its re-emitter, from the kernel's time of the frame on the panel to the kernel's
# time of the same frame on the copy, over whole recordings; gestured next to interception-tools.
#
#   gestured      `gestured run --config Benchmarks/latency/forward.json5` (the photo wall's
#                 layout, `routing: { default: "forward" }`): grabs the panel, writes every
#                 touch to its virtual panel.
#   interception  `interception -g NODE | uinput -d NODE` (Debian's interception-tools; its
#                 `intercept` is called `interception` there): grabs the panel, re-emits every
#                 event on a uinput copy made from the panel's description.
#   panel         no consumer: the reader on the panel itself; what the player's stamp (below)
#                 is off the kernel's stamp of the same frame.
#
# The panel is made and played by Benchmarks/latency/panel_player.c through its own uinput
# descriptor (a grabbed panel's event node drops what is written to it): one write(2) a frame,
# in real time, every frame numbered in its MSC_TIMESTAMP (added to the panel's description
# when it lacks it), CLOCK_MONOTONIC read just before each write. The kernel stamps the frame
# inside that write; Benchmarks/latency/frame_times.c reads the copy (not grabbed) and keeps
# each frame's number and kernel time. The hop is the copy's time minus the player's stamp.
# Linux 6.1 (Debian 12, the guest's kernel) stamps what uinput receives with the time of the
# write, so the copy's time is when the re-emitter wrote the frame; Linux 6.5 and later take a
# written event's own time (docs/routing.md#times), and gestured writes the panel's, so there
# the difference would be 0 for gestured and the hop could not be seen: measure on 6.1.
#
# Guest: QEMU TCG -icount shift=0,sleep=on, 1 vCPU: guest time advances 1 ns per guest
# instruction while anything runs, so 1 µs = 1,000 guest instructions (kernel and user) between
# the two stamps; repeatable, host load does not enter. Each consumer alone, warmed up by a
# play of the first 5 s, then the whole recording in real time; its CPU (all its processes)
# from just before the play to the end of the drain.
#
# usage: scripts/forward-latency.sh [-c "panel gestured interception"] [-o DIR] [NAME=RECORDING ...]
#   default recordings: long60 (the synthetic 10-finger stream, make_long.py 60) and
#   wacom (wacom-dth2242-finger.10f.evemu of the corpus, GESTURED_RECORDINGS).
# env: GESTURED_PEER_TOOLS (the directory of make_long.py and vm/vm-run.sh, as for
#      scripts/latency.sh), GESTURED_RECORDINGS, GESTURED_SCRATCH_PATH (the SwiftPM scratch
#      path of the release build; default .build).
# Installs interception-tools on the host when it is missing (the guest runs the host's
# binaries); needs evemu-tools, udev, libevdev-dev, python3, cc (scripts/setup-deps.sh).
# About 9 minutes for the two default recordings and three consumers. A benchmark: not in CI.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
root=$PWD
source scripts/corpus.sh

CONSUMERS="panel gestured interception" KEEP=""
while getopts "c:o:h" opt; do
    case $opt in
        c) CONSUMERS=$OPTARG ;; o) KEEP=$OPTARG ;;
        *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))

source scripts/peer-tools.sh
source Benchmarks/latency/host-lib.sh
[ -n "$GESTURED_PEER_TOOLS" ] && [ -x "$GESTURED_PEER_TOOLS/vm/vm-run.sh" ] \
    || { echo "forward-latency: set GESTURED_PEER_TOOLS to the directory of make_long.py and vm/vm-run.sh" >&2; exit 2; }
if ! command -v interception >/dev/null || ! command -v uinput >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null
    apt-get install -y -q --no-install-recommends interception-tools >/dev/null
fi
for tool in interception uinput udevadm python3 cc pkg-config; do
    command -v "$tool" >/dev/null || { echo "forward-latency: $tool is not installed on the host (the guest runs the host's binaries)" >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
choose_recordings forward-latency "$work" "$@"

scratch=${GESTURED_SCRATCH_PATH:-$root/.build}
swift build -c release --product gestured --scratch-path "$scratch" >/dev/null
cc -O2 -Wall -Wextra -o "$work/panel_player" Benchmarks/latency/panel_player.c $(pkg-config --cflags --libs libevdev)
cc -O2 -Wall -Wextra -o "$work/frame_times" Benchmarks/latency/frame_times.c

timeout=$(guest_timeout)

out=$work/icount; mkdir -p "$out"
icount_runner forward-latency "$work/vm-run-icount.sh"
{
    printf 'OUT=%q\nGESTURED=%q\nCONFIG=%q\n' "$out" "$scratch/release/gestured" "$root/Benchmarks/latency/forward.json5"
    printf 'PLAYER=%q\nREADER=%q\nWARM=5\n' "$work/panel_player" "$work/frame_times"
    printf 'RECORDINGS=%q\nCONSUMERS=%q\n' "${recordings[*]}" "$CONSUMERS"
} > "$out/settings"

echo "== forward latency: the panel's kernel time of a frame -> its kernel time on the copy, $(git log -1 --format=%h)"
echo "-- QEMU -icount shift=0,sleep=on, 1 vCPU: 1 µs = 1,000 guest instructions"
status=0 rc=0
VM_RW_DIR=$work VM_TIMEOUT=$timeout VM_CPUS=1 VM_MEM=1G VM_APPEND="tsc=reliable clocksource=tsc lpj=4000000" \
    "$work/vm-run-icount.sh" "$root/Benchmarks/latency/forward-guest.sh" "$out/settings" > "$out/console.log" 2>&1 || rc=$?
[ -s "$out/guest.log" ] && sed 's/^/   /' "$out/guest.log"
[ $rc = 0 ] || { status=1; echo "forward-latency: the guest failed (exit $rc); console:" >&2; tail -n 20 "$out/console.log" >&2; }
if [ -s "$out/plays.tsv" ]; then
    for entry in "${recordings[@]}"; do
        name=${entry%%=*} consumers=() cpu=""
        while IFS=$'\t' read -r _ consumer cpu_us play_ms; do
            consumers+=("$consumer")
            [ "$consumer" = panel ] || cpu+=" $consumer $((cpu_us / 1000)) ms over a ${play_ms} ms play;"
        done < <(grep "^$name	" "$out/plays.tsv")
        ((${#consumers[@]})) && python3 Benchmarks/latency/forward_report.py "$out" "$name" "${consumers[@]}"
        echo "#   consumer CPU:${cpu%;}"
    done
fi
if [ -n "$KEEP" ]; then mkdir -p "$KEEP" && cp -r "$work"/. "$KEEP"/; fi
exit $status
