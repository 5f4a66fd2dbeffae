#!/usr/bin/env bash
# Latency on a real kernel (issue 15): from the kernel's timestamp of a frame's SYN_REPORT (the
# evdev event time, CLOCK_MONOTONIC) to the moment a reader has the event's line, on the same
# clock, in a QEMU guest, over whole recordings; gestured next to `libinput debug-events`.
#
#   gestured  `gestured run --config config/photo-wall.json5 --device NODE --socket S`, read by
#             Benchmarks/latency/latency_client.py subscribed to `touches`: read(2) of the
#             socket returns → clock_gettime(CLOCK_MONOTONIC) − the line's `time`.
#   evdev     the floor: the same client reading the event node itself (one wake-up, no work).
#   libinput  `libinput debug-events --device NODE` with its stdout a pipe into the same client:
#             read(2) of the pipe returns → clock − the frame timestamp of each TOUCH_ line
#             (debug-events prints only milliseconds since its start; Benchmarks/latency/
#             touch_times.c, preloaded, keeps the exact microseconds without changing its output).
#
# Each consumer reads the panel alone, warmed up by a play of the first 5 s, then the whole
# recording is played with evemu-play in real time. Guest modes:
#   icount  QEMU TCG -icount shift=0,sleep=on, 1 vCPU: guest time advances 1 ns per guest
#           instruction while anything runs, so a latency is the instructions executed between
#           the kernel's stamp and the read (scheduler, consumer, kernel) — deterministic and
#           comparable across machines; it does not model caches or cycles per instruction.
#   tcg     multi-threaded TCG, 2 vCPUs (vm-run.sh as is): emulated wall time, inflated by the
#           emulation and by whatever else the host runs; noisy.
#
# usage: scripts/latency.sh [-m "icount tcg"] [-c "evdev gestured libinput"] [-o DIR] [NAME=RECORDING ...]
#   default recordings: long60 (the synthetic 10-finger stream, make_long.py 60) and
#   wacom (wacom-dth2242-finger.10f.evemu of the corpus, GESTURED_RECORDINGS).
# env: GESTURED_PEER_TOOLS (the directory of make_long.py and vm/vm-run.sh; by default the
#      first shared/tools beside the package root or one of its parents; the guest's kernel and
#      initramfs are its vm-setup.sh's cache), GESTURED_RECORDINGS, GESTURED_SCRATCH_PATH (the
#      SwiftPM scratch path of the release build; default .build), VM_CPUS (tcg mode; 2).
# Needs on the host: evemu-tools, libinput-tools, udev, python3, cc (the guest runs the host's
# binaries). For the two default recordings: about 8 minutes in icount mode, 11 in tcg.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
root=$PWD
source scripts/corpus.sh

MODES="icount tcg" CONSUMERS="evdev gestured libinput" KEEP=""
while getopts "m:c:o:h" opt; do
    case $opt in
        m) MODES=$OPTARG ;; c) CONSUMERS=$OPTARG ;; o) KEEP=$OPTARG ;;
        *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))

source scripts/peer-tools.sh
source Benchmarks/latency/host-lib.sh
[ -n "$GESTURED_PEER_TOOLS" ] && [ -x "$GESTURED_PEER_TOOLS/vm/vm-run.sh" ] \
    || { echo "latency: set GESTURED_PEER_TOOLS to the directory of make_long.py and vm/vm-run.sh" >&2; exit 2; }
for tool in evemu-device evemu-play libinput udevadm python3 cc; do
    command -v "$tool" >/dev/null || { echo "latency: $tool is not installed on the host (the guest runs the host's binaries)" >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
choose_recordings latency "$work" "$@"

scratch=${GESTURED_SCRATCH_PATH:-$root/.build}
swift build -c release --product gestured --scratch-path "$scratch" >/dev/null
cc -O2 -shared -fPIC -o "$work/touch_times.so" Benchmarks/latency/touch_times.c

timeout=$(guest_timeout)

status=0
echo "== latency: kernel frame timestamp -> reader's read (CLOCK_MONOTONIC, in the guest), $(git log -1 --format=%h)"
for mode in $MODES; do
    out=$work/$mode; mkdir -p "$out"
    runner=$GESTURED_PEER_TOOLS/vm/vm-run.sh cpus=${VM_CPUS:-2} append="tsc=reliable clocksource=tsc"
    if [ "$mode" = icount ]; then
        icount_runner latency "$work/vm-run-icount.sh"
        runner=$work/vm-run-icount.sh cpus=1 append="$append lpj=4000000"
    elif [ "$mode" != tcg ]; then
        echo "latency: unknown mode $mode (icount, tcg)" >&2; exit 2
    fi
    {
        printf 'OUT=%q\nGESTURED=%q\nCONFIG=%q\n' "$out" "$scratch/release/gestured" config/photo-wall.json5
        printf 'CLIENT=%q\nSHIM=%q\nWARM=5\n' "$root/Benchmarks/latency/latency_client.py" "$work/touch_times.so"
        printf 'RECORDINGS=%q\nCONSUMERS=%q\n' "${recordings[*]}" "$CONSUMERS"
    } > "$out/settings"
    echo "-- $mode: $([ "$mode" = icount ] && echo "QEMU -icount shift=0,sleep=on, 1 vCPU: 1 µs = 1,000 guest instructions" \
        || echo "QEMU multi-threaded TCG, $cpus vCPUs: emulated wall time")"
    rc=0
    VM_RW_DIR=$work VM_TIMEOUT=$timeout VM_CPUS=$cpus VM_MEM=1G VM_APPEND=$append \
        "$runner" "$root/Benchmarks/latency/guest.sh" "$out/settings" > "$out/console.log" 2>&1 || rc=$?
    [ -s "$out/guest.log" ] && sed 's/^/   /' "$out/guest.log"
    [ $rc = 0 ] || { status=1; echo "latency: the guest failed (exit $rc); console:" >&2; tail -n 20 "$out/console.log" >&2; }
    [ -s "$out/plays.tsv" ] || continue
    for entry in "${recordings[@]}"; do
        name=${entry%%=*} tables=() cpu=""
        while IFS=$'\t' read -r _ consumer mark cpu_us play_ms; do
            [ -s "$out/$name.$consumer.tsv" ] && tables+=("$name $consumer=$out/$name.$consumer.tsv@$mark")
            cpu+=" $consumer $((cpu_us / 1000)) ms over a ${play_ms} ms play;"
        done < <(grep "^$name	" "$out/plays.tsv")
        ((${#tables[@]})) && python3 Benchmarks/latency/latency_client.py report "${tables[@]}"
        echo "#   consumer CPU:${cpu%;}"
    done
done
if [ -n "$KEEP" ]; then mkdir -p "$KEEP" && cp -r "$work"/. "$KEEP"/; fi
exit $status
