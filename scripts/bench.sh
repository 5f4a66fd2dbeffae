#!/usr/bin/env bash
# Reruns every performance measurement of docs/performance.md (issue 7) on this machine:
#  1. the benchmark suite (Benchmarks/, ordo-one/benchmark): engine frames, hit testing,
#     replay and parse throughput, JSON encoding, allocations;
#  2. the comparison with evemu's own C reader (Debian libevemu-dev) on the largest
#     recordings: in-process per pass, and whole commands with hyperfine;
#  3. fan-out of a replay to 1, 10 and 100 socket clients;
#  4. the idle daemon: wake-ups (context switches) over 10 s and resident memory;
#  5. start-up: exec to READY=1;
#  6-8 (with the shared peer tools): live CPU and latency on a real kernel, and a replay of a
#     million events against evemu's reader in paired rounds;
#  9. the engine at the layout limits (scripts/bench-limits.sh).
# Needs root for apt-get (or the packages already installed). Takes about 10 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
root=$PWD
# The figures are measured on the external corpus of real recordings (GESTURED_RECORDINGS).
source scripts/corpus.sh
recordings=$GESTURED_RECORDINGS
[ -d "$recordings" ] || { echo "bench: the benchmarks run on the corpus of real recordings; set GESTURED_RECORDINGS" >&2; exit 1; }
scripts/setup-deps.sh
need=()
for package in libevemu-dev hyperfine python3; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || need+=("$package")
done
if ((${#need[@]})); then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== machine: $(nproc) cores, $(uname -r), $(swift --version 2>&1 | head -1)"
swift build -c release --product gestured >/dev/null
gestured=$root/.build/release/gestured

echo "== 1. benchmark suite"
(cd Benchmarks && GESTURED_ROOT=$root GESTURED_RECORDINGS=$recordings \
    swift package --allow-writing-to-package-directory benchmark --no-progress)

echo "== 2. against evemu's C reader (parsing only) on the largest recordings"
cc -O2 -o "$work/evemu-read" Benchmarks/reference/evemu-read.c -levemu
for recording in wacom-dth2242-finger.10f.evemu hidrec-flatfrog-3200.12f.evemu; do
    printf '%s, evemu_read_event in process: ' "$recording"
    "$work/evemu-read" "$recordings/$recording" 200
done
for pair in "wacom-dth2242-finger.10f.evemu config/map.json5" "hidrec-flatfrog-3200.12f.evemu config/lobby.json5"; do
    set -- $pair
    hyperfine -N --warmup 3 --runs 50 \
        "$work/evemu-read $recordings/$1" \
        "$gestured replay --config $2 $recordings/$1" \
        "$gestured --version"
done

echo "== 3. fan-out of a replay to socket clients"
for clients in 1 10 100; do
    socket=$work/fanout-$clients.sock
    "$gestured" replay --config config/map.json5 --socket "$socket" --wait-clients "$clients" \
        "$recordings/wacom-dth2242-finger.10f.evemu" 2>"$work/fanout.log" &
    daemon=$!
    python3 Benchmarks/reference/fanout_clients.py "$socket" "$clients"
    wait "$daemon"
done

echo "== 4. the idle daemon: gestured run with no touchscreen yet (it waits on inotify) and no watchdog"
"$gestured" run --config config/lobby.json5 --socket "$work/idle.sock" --device "$work/no-such-touchscreen" 2>/dev/null &
daemon=$!
for _ in $(seq 100); do [ -S "$work/idle.sock" ] && break; sleep 0.05; done
switches() { awk '/^(voluntary|nonvoluntary)_ctxt_switches/ { sum += $2 } END { print sum }' "/proc/$daemon/status"; }
before=$(switches)
sleep 10
after=$(switches)
echo "idle daemon: $((after - before)) context switches in 10 s; $(grep -E '^VmHWM' /proc/$daemon/status | tr -s ' ')"
kill -TERM "$daemon"; wait "$daemon"

echo "== 5. startup: gestured run from exec to READY=1 (no touchscreen: it waits for one)"
python3 Benchmarks/reference/ready_time.py 20 "$gestured" run --config config/lobby.json5 \
    --socket "$work/ready.sock" --device "$work/no-such-touchscreen"

# 6. Live CPU on a real kernel (issue 15): a uinput panel in a QEMU guest run with -icount, so
# CPU time is an exact count of guest instructions; the synthetic 10-finger stream played in
# real time into it, read by each consumer alone: a bare libevdev read loop (the floor), lisgd,
# and `gestured run` on the photo wall (37 views, a pan, a tap and a pinch) printing every event.
# The measuring tools are the peer-comparison tools shared beside the project
# ($GESTURED_PEER_TOOLS: the directory holding make_long.py and peers/live_cpu.sh; by default
# the first shared/tools beside the package root or one of its parents). About 10 minutes.
source scripts/peer-tools.sh
if [ -n "$GESTURED_PEER_TOOLS" ] && [ -x "$GESTURED_PEER_TOOLS/peers/live_cpu.sh" ]; then
    echo "== 6. live CPU on a real kernel (icount): libevdev floor, lisgd, gestured run --stdout on the photo wall"
    for package in evtest lisgd; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
            || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$package" >/dev/null
    done
    python3 "$GESTURED_PEER_TOOLS/make_long.py" 60 > "$work/long60.evemu"
    "$GESTURED_PEER_TOOLS/peers/live_cpu.sh" -I -r 1 -m alone -c "libevdev lisgd" -n gestured -o "$work/live" \
        "$work/long60.evemu" \
        "$gestured run --config config/photo-wall.json5 --device {node} --socket /run/gestured-bench.sock --stdout"
else
    echo "== 6. live CPU: skipped (set GESTURED_PEER_TOOLS to the directory of make_long.py and peers/live_cpu.sh)"
fi

# 7. Latency on a real kernel (issue 15): from the kernel's timestamp of each frame to the moment
# a reader has its line, in the same guest, over whole recordings (the synthetic stream and
# the corpus's wacom-dth2242-finger.10f.evemu): gestured run on the photo wall read by a socket
# client, next to libinput debug-events read through a pipe; icount and multi-threaded TCG.
# Needs the same shared tools as section 6 (GESTURED_PEER_TOOLS). About 20 minutes.
if [ -n "${GESTURED_PEER_TOOLS:-}" ] && [ -x "$GESTURED_PEER_TOOLS/vm/vm-run.sh" ]; then
    echo "== 7. latency on a real kernel: kernel frame timestamp -> client's read, gestured and libinput debug-events"
    scripts/latency.sh
else
    echo "== 7. latency: skipped (set GESTURED_PEER_TOOLS to the directory of make_long.py and vm/vm-run.sh)"
fi

# 8. A replay of a million events (make_long.py 300, issue 15) against evemu's reader parsing
# the same file, whole commands in paired rounds (Benchmarks/reference/paired_runs.py: each
# round runs both in turn, so a host whose speed drifts slows both alike). Needs make_long.py
# (GESTURED_PEER_TOOLS). About 2 minutes.
if [ -n "${GESTURED_PEER_TOOLS:-}" ] && [ -f "$GESTURED_PEER_TOOLS/make_long.py" ]; then
    echo "== 8. replay of a million events against evemu's reader, paired rounds"
    python3 "$GESTURED_PEER_TOOLS/make_long.py" 300 > "$work/long300.evemu"
    python3 Benchmarks/reference/paired_runs.py "$work/evemu-read $work/long300.evemu" \
        "$gestured replay --config config/photo-wall.json5 $work/long300.evemu"
else
    echo "== 8. million-event replay: skipped (set GESTURED_PEER_TOOLS to the directory of make_long.py)"
fi

# 9. The engine's cost at the layout limits (issue 25, docs/limits.md § Engine): 10,000
# recognizers against ten fingers panning, wall time and instructions per frame. About 10 minutes.
echo "== 9. the engine at the layout limits"
scripts/bench-limits.sh
