#!/bin/bash
# gestured's kernel tests. Runs INSIDE the test VM (tools/vmtest/vm-run.sh; scripts/kernel-tests.sh
# sets it all up), as root, in the package root: virtual devices are created through
# /dev/uinput with evemu-device, recordings are played into them with evemu-play, and
# `gestured run --stdout` reads them through the real kernel evdev path (one test reads the
# events from the socket instead, as a subscribed client gets them). Each test prints
# PASS/FAIL with its wall time; the exit status is the number of failures. systemd-udevd runs in
# the guest (vm-init starts it), as on a kiosk.
#
# The main check: live output == `gestured replay` of what the kernel delivered while the
# recording played (evemu-record of the same node: see start_capture), with the same
# configuration, times and velocities included, after normalising what legitimately differs
# (see normalise()). Not the replay of the recording played: evemu-play wakes late on a loaded
# machine, so the kernel's timestamps, the ones gestured run sees, drift from the recording's,
# and a time-dependent recognizer (a swipe's minimum velocity) may then rightly decide otherwise.
set -u
G=$(readlink -f "${GESTURED:-.build/debug/gestured}")
# The project's own recordings (made from gesture scripts, tools/synth) drive every test of
# the live path. The external corpus of real recordings (GESTURED_RECORDINGS, resolved on the
# host by scripts/kernel-tests.sh) adds the test_corpus_* tests on real panels' input; without
# it they are skipped, and under CI (CI=true) a missing corpus is a failure.
OWN=$(readlink -f config/recordings)
FIXTURES=$(readlink -f Tests/Fixtures/recordings)
REC=${GESTURED_RECORDINGS:-}
if [ -n "$REC" ] && [ -d "$REC" ]; then REC=$(readlink -f "$REC"); HAVE_CORPUS=1; else HAVE_CORPUS=0; fi
CORPUS_NOTE="no recording corpus at ${REC:-(none found)}: set GESTURED_RECORDINGS to run the tests over real recordings"
HERE=$(dirname "$(readlink -f "$0")")
W=$(mktemp -d /tmp/kernel-tests.XXXXXX)
# The configuration the tests run, a copy of CONFIG (default: the lobby kiosk's) that does not
# take the panel exclusively: evemu-record reads the node beside gestured run, and a grabbed
# device sends its events to the grabbing reader only. test_grab_takes_the_panel checks the grab.
SHIPPED_CONFIG=$(readlink -f "${CONFIG:-config/lobby.json5}")
CONFIG=$W/config.json5
FAILURES=0
PASSES=0
SKIPS=0
DEVICE_PIDS=()
HELPER_PIDS=()
GPID=
# The guest's job runs in a chroot, where systemd's tools (udevadm) refuse to act unless told.
export SYSTEMD_IGNORE_CHROOT=1
# python3 for the stand-in of systemd's notification socket (the host's, through the 9p root).
PYTHON=${PYTHON:-/usr/bin/python3}

log() { echo "  $*"; }
now() { date +%s.%N; }

# How long a test waits for what should come at once (a node, a log line, udev, every frame
# read): generous, as a loaded host slows the emulated guest down, and free when it comes.
WAIT_SECONDS=30

# poll COMMAND...: until COMMAND succeeds, every 50 ms, for WAIT_SECONDS at most. Counted on the
# clock, not in tries: under emulation each try (a process started) can take most of a second.
poll() {
    local until=$((SECONDS + WAIT_SECONDS))
    until "$@"; do
        [ "$SECONDS" -lt "$until" ] || return 1
        sleep 0.05
    done
}

# --- devices -------------------------------------------------------------------------------

# make_device DESCRIPTION: creates a uinput device with evemu-device; sets NODE and DEVPID.
make_device() {
    local out="$W/evemu-device.$RANDOM.out"
    evemu-device "$1" > "$out" 2>&1 &
    DEVPID=$!
    DEVICE_PIDS+=("$DEVPID")
    NODE=
    poll node_in "$out" && return 0
    log "evemu-device $1 gave no node: $(cat "$out")"
    return 1
}

node_in() {   # node_in FILE: sets NODE to the event node evemu-device named in FILE, once it exists
    NODE=$(grep -o '/dev/input/event[0-9]*' "$1" | head -n1)
    [ -n "$NODE" ] && [ -e "$NODE" ]
}

remove_device() {   # remove_device PID: destroys the uinput device
    kill "$1" 2>/dev/null; wait "$1" 2>/dev/null
}

# description_of FILE: the description lines of an evemu recording (evemu-device wants no E:).
description_of() { grep -v '^E:' "$1" > "$2"; }

# --- gestured ------------------------------------------------------------------------------

# start_gestured NAME [ARGS...]: `gestured run --stdout` into $W/NAME.jsonl and $W/NAME.err,
# serving its socket at $W/NAME.sock (the configured one is /run/gestured's, for group gestured).
start_gestured() {
    local name=$1; shift
    "$G" run --config "${RUN_CONFIG:-$CONFIG}" --socket "$W/$name.sock" --stdout "$@" > "$W/$name.jsonl" 2> "$W/$name.err" &
    GPID=$!
}

# start_notify_listener LOG SOCKET: a stand-in for systemd's NOTIFY_SOCKET at SOCKET, writing
# each datagram to LOG as one line: its CLOCK_MONOTONIC arrival time, then its lines.
start_notify_listener() {
    rm -f "$2"
    "$PYTHON" -c '
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
print("bound", flush=True)
while True:
    message = s.recv(4096).decode()
    print("%.6f %s" % (time.monotonic(), message.replace("\n", " ")), flush=True)
' "$2" > "$1" 2>&1 &
    HELPER_PIDS+=("$!")
    wait_for "$1" "^bound"
}

# started_at PID: when the process started, in seconds of CLOCK_BOOTTIME (the same as
# CLOCK_MONOTONIC in a VM that never suspends), to the kernel's 10 ms tick.
started_at() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.6f", $22 / hz }' "/proc/$1/stat"; }

# wait_for FILE PATTERN [COUNT]: until FILE has COUNT lines matching PATTERN.
wait_for() {
    poll has_lines "$1" "$2" "${3:-1}" && return 0
    log "timed out waiting for ${3:-1} × '$2' in $1:"; sed 's/^/    /' "$1" 2>&1 | tail -n 20
    return 1
}

has_lines() {   # has_lines FILE PATTERN COUNT (grep prints nothing while FILE does not exist)
    local found; found=$(grep -c -- "$2" "$1" 2>/dev/null)
    [ "${found:-0}" -ge "$3" ]
}

# wait_frames SOCKET COUNT: until the gestured serving SOCKET has processed COUNT touch frames
# (its status says so; WAIT_SECONDS at most). Needed before removing a device: once it is gone,
# evdev answers ENODEV even to a reader that has not read what was played yet. One Python
# process polls, as starting the interpreter is slow under emulation.
wait_frames() {
    "$PYTHON" - "$1" "$2" "$WAIT_SECONDS" <<'PYTHON' || { log "gestured did not report $2 frames processed"; return 1; }
import sys, time
sys.path.insert(0, "examples/python")
from gestured_client import GesturedClient
with GesturedClient(sys.argv[1]) as client:
    deadline = time.monotonic() + int(sys.argv[3])
    while client.status()["input"]["frames"] < int(sys.argv[2]):
        if time.monotonic() > deadline:
            sys.exit(1)
        time.sleep(0.02)
PYTHON
}

# stop_gestured: SIGTERM must end it with status 0.
stop_gestured() {
    kill -TERM "$GPID"
    wait "$GPID"
    local rc=$?
    [ $rc -eq 0 ] || { log "gestured run exited $rc after SIGTERM:"; sed 's/^/    /' "$W"/*.err | tail -n 20; return 1; }
}

# --- what the kernel delivered -------------------------------------------------------------

# without_grab CONFIG OUT: CONFIG with `grab: false` and its relative layout path made absolute
# (OUT lives in $W); gestured check-config must accept it and not call it grabbed.
without_grab() {
    local dir; dir=$(dirname "$(readlink -f "$1")")
    sed -E "s/^([[:space:]]*)grab:[[:space:]]*true/\1grab: false/
            s|^([[:space:]]*layout:[[:space:]]*\")([^/\"][^\"]*\")|\1$dir/\2|" "$1" > "$2"
    "$G" check-config "$2" > "$2.check" 2>&1 || { sed 's/^/    /' "$2.check"; return 1; }
    ! grep -q ', grabbed' "$2.check"
}

# frames_in RECORDING: how many frames (SYN_REPORTs) an evemu recording or capture holds.
frames_in() { awk '$1 == "E:" && $3 == "0000" && $4 == "0000" { n++ } END { print n + 0 }' "$1"; }

holds_frames() { [ "$(frames_in "$1")" -ge "$2" ]; }   # holds_frames RECORDING COUNT

# span_of RECORDING: seconds from its first event to its last.
span_of() {
    awk '$1 == "E:" { split($2, t, "."); us = t[1] * 1000000 + t[2]; if (!n++) first = us; last = us }
         END { printf "%.2f", (last - first) / 1e6 }' "$1"
}

# start_capture NAME: evemu-record of $NODE into $W/NAME.kernel.evemu (CAPTURE): what the kernel
# delivers on the node, with the kernel's own timestamps (CLOCK_MONOTONIC, as gestured reads
# them), counted from the first event. evemu-record opens the node before it writes anything,
# and from the open on the kernel queues every event for it, so once its header is in the file
# nothing played can be missed. An independent reader, so a fault in gestured's own reading
# cannot hide in the capture it is compared with.
start_capture() {
    CAPTURE=$W/$1.kernel.evemu
    evemu-record "$NODE" "$CAPTURE" 2> "$W/$1.kernel.err" &
    CAPTURE_PID=$!
    HELPER_PIDS+=("$CAPTURE_PID")
    wait_for "$CAPTURE" '^# EVEMU' || { log "evemu-record is not reading $NODE: $(cat "$W/$1.kernel.err")"; return 1; }
}

# stop_capture PLAYED: once the capture holds as many frames as the events PLAYED (or
# WAIT_SECONDS have passed), stops evemu-record. A capture with fewer (it missed the start, the
# kernel dropped events for it: SYN_DROPPED) fails the test, so no comparison passes on part of
# the input.
stop_capture() {
    local want have
    want=$(frames_in "$1")
    poll holds_frames "$CAPTURE" "$want"
    have=$(frames_in "$CAPTURE")
    kill -TERM "$CAPTURE_PID" 2>/dev/null; wait "$CAPTURE_PID" 2>/dev/null
    if grep -q '^E: [0-9.]* 0000 0003 ' "$CAPTURE"; then
        log "the kernel dropped events for the capture (SYN_DROPPED): it is not what gestured run read"; return 1
    fi
    [ "$have" -eq "$want" ] || { log "the capture holds $have frames, the events played $want: $CAPTURE is incomplete"; return 1; }
    [ "$want" -gt 0 ] || { log "nothing was played: the comparison would prove nothing"; return 1; }
    log "the kernel delivered all $want frames in $(span_of "$CAPTURE") s (played from $(span_of "$1") s of recording)"
}

# restore_udev_fuzz NODE FILE: the fuzz libinput's udev rule moved from the kernel into
# LIBINPUT_FUZZ_* (it zeroes the kernel's), put back into FILE's description, as gestured reads
# the live panel. Whether evemu-record's description was taken before or after the rule ran is
# a race; with the fuzz as udev keeps it the replay's libmtdev filters as live's does.
restore_udev_fuzz() {
    local node=$1 file=$2 entry code value
    for entry in $(udevadm info -q property -n "$node" 2>/dev/null | grep '^LIBINPUT_FUZZ_'); do
        code=${entry#LIBINPUT_FUZZ_}; value=${code#*=}; code=${code%%=*}
        awk -v c="$code" -v v="$value" '$1 == "A:" && tolower($2) == tolower(c) { $5 = v } { print }' "$file" \
            > "$file.fuzz" && mv "$file.fuzz" "$file"
    done
}

# settle: lets the last deadlines fire (tap intervals 0.3-0.35 s, long press 0.5 s) before
# stopping, so live has fired everything replay fires at the end of the recording.
settle() { sleep 1.2; }

# normalise JSONL: what must be equal between live and the replay of the capture. Dropped: seq
# (live numbers device events the replay has others of) and device events (their messages name
# the source). Times are counted from the first event's (live times are the kernel's clock, a
# capture's count from its first event). Kept: every touch with its id, phase and position,
# every view and responder list, every gesture with its state, translation and velocity, every
# control event, and their order. Touch ids are renumbered by first appearance, so a stretch of
# a longer run (after a replug) compares with a replay that starts from 1; in a daemon of several
# screens each screen's ids on their own (a touch is known by its screen and its id).
normalise() {
    grep -v '"type":"device"' "$1" \
        | sed -E 's/"seq":[0-9]+,//' \
        | awk '
            match($0, /"time":-?[0-9]+/) {
                time = substr($0, RSTART + 7, RLENGTH - 7) + 0
                if (!counted) { origin = time; counted = 1 }
                $0 = substr($0, 1, RSTART - 1) sprintf("\"time\":%.0f", time - origin) substr($0, RSTART + RLENGTH)
            }
            { print }' \
        | awk '
            function renumber(id) { id = screen SUBSEP id; if (!(id in ids)) ids[id] = ++count[screen]; return ids[id] }
            {
                out = ""; line = $0
                screen = match(line, /"screen":"[^"]*"/) ? substr(line, RSTART, RLENGTH) : ""
                # "id":N (touches), "touch":N (hitTest, control), "touches":[N,...] (gesture)
                while (match(line, /"(id|touch)":[0-9]+|"touches":\[[0-9,]+\]/)) {
                    token = substr(line, RSTART, RLENGTH)
                    out = out substr(line, 1, RSTART - 1)
                    line = substr(line, RSTART + RLENGTH)
                    if (token ~ /^"touches"/) {
                        n = split(substr(token, 12, length(token) - 12), parts, ",")
                        token = "\"touches\":["
                        for (i = 1; i <= n; i++) token = token (i > 1 ? "," : "") renumber(parts[i])
                        token = token "]"
                    } else {
                        colon = index(token, ":")
                        token = substr(token, 1, colon) renumber(substr(token, colon + 1))
                    }
                    out = out token
                }
                print out line
            }'
}

# compare LIVE REPLAY: equal after normalise(), and not trivially (touches began).
compare() {
    normalise "$1" > "$1.norm"; normalise "$2" > "$2.norm"
    local began; began=$(grep -c '"phase":"began"' "$2.norm")
    if [ "$began" -eq 0 ]; then log "the replay has no touches: the comparison would prove nothing"; return 1; fi
    if ! diff -u "$2.norm" "$1.norm" > "$1.diff"; then
        log "live output differs from the replay of what the kernel delivered (- replay, + live):"
        head -n 40 "$1.diff" | sed 's/^/    /'
        grep -q '"action":"resynchronised"' "$1" && log "gestured run lost events to SYN_DROPPED (it read too late)"
        return 1
    fi
    log "live == replay, times and velocities included: $(wc -l < "$1.norm") events, $began touch deliveries began," \
        "$(grep -c '"type":"gesture"' "$1.norm") gesture events, $(grep -c '"type":"control"' "$1.norm") control events"
}

# device_block FILE NODE: the lines `gestured devices` printed for NODE.
device_block() { awk -v n="$2:" '$1 == n { on = 1; print; next } /^[^ ]/ { on = 0 } on' "$1"; }

# touch_phases JSONL: "id:phase" of every touch of every delivery, in order.
touch_phases() { grep -o '"id":[0-9]*,"phase":"[a-z]*"' "$1" | sed -E 's/"id":([0-9]+),"phase":"([a-z]+)"/\1:\2/'; }

# --- the tests -------------------------------------------------------------------------------

# live_equals_replay NAME DESCRIPTION EVENTS [REPLAY-OPTIONS...]: the recording played into a
# virtual device gives the same events as the replay of what the kernel delivered.
live_equals_replay() {
    local name=$1 desc=$2 events=$3; shift 3
    make_device "$desc" || return 1
    local dev=$DEVPID
    start_capture "$name" || return 1
    start_gestured "$name" "${GESTURED_ARGS[@]}"
    wait_for "$W/$name.err" "reading the touchscreen .*path=$NODE$" || return 1
    evemu-play "$NODE" < "$events" || { log "evemu-play failed"; return 1; }
    settle
    stop_gestured || return 1
    stop_capture "$events" || return 1
    restore_udev_fuzz "$NODE" "$CAPTURE"
    remove_device "$dev"
    "$G" replay --config "$CONFIG" "$@" "$CAPTURE" > "$W/$name.replay.jsonl" || { log "replay failed"; return 1; }
    compare "$W/$name.jsonl" "$W/$name.replay.jsonl"
}

four_finger_drag() {   # four_finger_drag RECORDING: multi-finger, protocol B, 10 slots
    local r=$1
    description_of "$r" "$W/four.desc"
    # --trace on both sides: every touch's hit-test trace and failed recognizers compared too.
    GESTURED_ARGS=(--trace)
    live_equals_replay four-finger "$W/four.desc" "$r" --trace || return 1
    [ "$(grep -c '"type":"hitTest"' "$W/four-finger.jsonl")" -eq 4 ] || { log "not 4 touches hit-tested"; return 1; }
}

test_four_finger_drag() { four_finger_drag "$OWN/four-finger-drag.evemu"; }
test_corpus_four_finger_drag() { four_finger_drag "$REC/atmel-maxtouch.4-finger-drag-down.evemu"; }

# taps_through_symlink RECORDING UP-INSIDE REPEATS: taps (timing-sensitive) on the welcome
# overlay's start button, the device given as a udev-style symlink; live timing must reproduce
# which taps repeat (touchDownRepeat).
taps_through_symlink() {
    local r=$1 inside=$2 repeats=$3
    description_of "$r" "$W/taps.desc"
    make_device "$W/taps.desc" || return 1
    local dev=$DEVPID
    mkdir -p /dev/input/by-id && ln -sf "../$(basename "$NODE")" /dev/input/by-id/gestured-test-event-touch
    start_capture taps || return 1
    GESTURED_ARGS=(--device /dev/input/by-id/gestured-test-event-touch)
    start_gestured taps "${GESTURED_ARGS[@]}"
    wait_for "$W/taps.err" "reading the touchscreen .*path=$NODE$" || return 1
    evemu-play "$NODE" < "$r" || return 1
    settle; stop_gestured || return 1; stop_capture "$r" || return 1; remove_device "$dev"
    rm -f /dev/input/by-id/gestured-test-event-touch
    "$G" replay --config "$CONFIG" "$CAPTURE" > "$W/taps.replay.jsonl" || return 1
    compare "$W/taps.jsonl" "$W/taps.replay.jsonl" || return 1
    [ "$(grep -c '"view":"welcomeStart","event":"touchUpInside"' "$W/taps.jsonl")" -eq "$inside" ] \
        && [ "$(grep -c '"view":"welcomeStart","event":"touchDownRepeat"' "$W/taps.jsonl")" -eq "$repeats" ] \
        || { log "expected $inside touchUpInside and $repeats touchDownRepeat on welcomeStart"; return 1; }
}

# The project's taps: 8 taps in groups of 1, 2, 1, 3, 1 (config/recordings/one-finger-taps.touches).
test_one_finger_taps_through_symlink() { taps_through_symlink "$OWN/one-finger-taps.evemu" 8 3; }
# A real panel's fast taps: 7 land on the button, 3 close enough in time to repeat.
test_corpus_one_finger_taps() { taps_through_symlink "$REC/atmel-maxtouch.1-finger-fast-taps.evemu" 7 3; }

test_lobby_session() {   # the demo: taps, a swipe, pans, a long press, a drag off a button, live timers
    local r=$OWN/lobby-session.evemu
    description_of "$r" "$W/lobby.desc"
    GESTURED_ARGS=()
    live_equals_replay lobby "$W/lobby.desc" "$r" || return 1
    grep -q '"recognizer":"welcomeSwipe","kind":"swipe","view":"welcomeDialog","state":"recognized"' "$W/lobby.jsonl" \
        && grep -q '"view":"help","event":"touchUpOutside"' "$W/lobby.jsonl" \
        || { log "the lobby session lost its swipe or its press dragged off Help"; return 1; }
}

test_corpus_single_slot_quanta() {   # 10 slots declared, only slot 0 used, no ABS_MT_SLOT events; 14 s
    GESTURED_ARGS=()
    live_equals_replay quanta "$REC/quanta-optical.desc" "$REC/quanta-optical.events"
}

protocol_a_through_mtdev() {   # protocol_a_through_mtdev RECORDING: no slots, SYN_MT_REPORT: libmtdev live too
    local r=$1
    description_of "$r" "$W/protoA.desc"
    GESTURED_ARGS=()
    live_equals_replay protoA "$W/protoA.desc" "$r"
}

test_protocol_a_through_mtdev() { protocol_a_through_mtdev "$FIXTURES/protocol-a-drag.evemu"; }
test_corpus_protocol_a_through_mtdev() { protocol_a_through_mtdev "$REC/ntrig-dell-xt2.protoA.evemu"; }

test_unplug_mid_gesture() {
    local r=$OWN/four-finger-drag.evemu
    description_of "$r" "$W/panel.desc"
    # The first 12 frames: four fingers down and dragging, none lifted.
    awk '/^E:/ { print; if ($3 == "0000" && $4 == "0000") { if (++frames == 12) exit } }' "$r" > "$W/half.events"
    # gestured starts before the device exists: it must wait (inotify) and pick it up.
    GESTURED_ARGS=(--trace)
    start_gestured unplug --trace
    wait_for "$W/unplug.err" "waiting for the touchscreen to appear" || return 1
    make_device "$W/panel.desc" || return 1
    start_capture unplugged || return 1
    wait_for "$W/unplug.err" "reading the touchscreen .*path=$NODE$" || return 1
    evemu-play "$NODE" < "$W/half.events" || return 1
    wait_frames "$W/unplug.sock" 12 || return 1
    stop_capture "$W/half.events" || return 1
    remove_device "$DEVPID"
    wait_for "$W/unplug.jsonl" '"action":"removed"' || return 1
    kill -0 "$GPID" 2>/dev/null || { log "gestured died when the device was removed"; return 1; }
    local lines; lines=$(wc -l < "$W/unplug.jsonl")
    cp "$W/unplug.jsonl" "$W/unplugged.jsonl"
    grep -h '"action":"removed"' "$W/unplugged.jsonl" | sed 's/^/    /'
    # A recording that ends with fingers down ends with them cancelled, exactly what a removal
    # must do: the replay of the same 12 frames is the expected output. Live cancels at the
    # removal, on the daemon's clock, replay at the end of its input: an empty frame at the
    # removal's time on the capture's timeline (counted from the first touch's, which both
    # streams begin with) ends the replay's input there too, and times compare exactly.
    local first removed
    first=$(grep -v '"type":"device"' "$W/unplugged.jsonl" | head -n 1 | grep -o '"time":[0-9]*' | cut -d: -f2)
    removed=$(grep '"action":"removed"' "$W/unplugged.jsonl" | grep -o '"time":[0-9]*' | cut -d: -f2)
    awk -v after=$((removed - first)) '{ print } $1 == "E:" && !n++ { split($2, t, "."); first = t[1] * 1000000 + t[2] }
        END { us = first + after; printf "E: %d.%06d 0000 0000 0000\n", int(us / 1000000), us % 1000000 }' \
        "$CAPTURE" > "$W/unplugged.until-removal.evemu"
    "$G" replay --config "$CONFIG" --trace "$W/unplugged.until-removal.evemu" > "$W/unplugged.replay.jsonl" || return 1
    compare "$W/unplugged.jsonl" "$W/unplugged.replay.jsonl" || return 1
    [ "$(grep -c '"type":"hitTest"' "$W/unplugged.jsonl")" -eq 4 ] || { log "not 4 touches before the unplug"; return 1; }
    grep -q '"state":"cancelled"\|"phase":"cancelled"' "$W/unplugged.jsonl" || { log "nothing was cancelled"; return 1; }
    # Plugged in again: picked up without a restart, and the whole recording resolves as in replay.
    make_device "$W/panel.desc" || return 1
    start_capture replugged || return 1
    wait_for "$W/unplug.jsonl" '"action":"added"' 2 || return 1
    evemu-play "$NODE" < "$r" || return 1
    settle; stop_gestured || return 1; stop_capture "$r" || return 1; remove_device "$DEVPID"
    tail -n +"$((lines + 1))" "$W/unplug.jsonl" > "$W/replugged.jsonl"
    "$G" replay --config "$CONFIG" --trace "$CAPTURE" > "$W/replugged.replay.jsonl" || return 1
    compare "$W/replugged.jsonl" "$W/replugged.replay.jsonl"
}

# frames_at TIME: evemu lines for events given as "type code value" arguments then SYN_REPORT.
ev() { printf 'E: %s %04x %04x %d\n' "$T" "$1" "$2" "$3"; }
syn() { ev 0 0 0; }

test_syn_dropped() {
    # While gestured is stopped (SIGSTOP, so it reads nothing), far more events than the
    # kernel's per-client buffer holds are played at once; the kernel drops them and queues
    # SYN_DROPPED. Scenario 1: finger 100 stays down through the flood (it must continue,
    # never cancelled) and finger 101 lands during it (it must begin at resync). Scenario 2:
    # finger 200 lifts during the flood and 201 lands in its slot (200 must be cancelled).
    make_device "$HERE/touchscreen.desc" || return 1
    RUN_CONFIG=Tests/Fixtures/config/kernel-test-plain.json5 start_gestured dropped
    wait_for "$W/dropped.err" "reading the touchscreen .*path=$NODE$" || return 1
    T=0.000000
    { ev 3 0x2f 0; ev 3 0x39 100; ev 3 0x35 500; ev 3 0x36 300; ev 1 0x14a 1; syn; } > "$W/s1a.events"
    { for i in $(seq 1500); do ev 3 0x35 $((500 + (i % 2) * 40)); syn; done
      ev 3 0x2f 1; ev 3 0x39 101; ev 3 0x35 1500; ev 3 0x36 800; syn; } > "$W/s1b.events"
    { T=0.050000; ev 3 0x2f 0; ev 3 0x35 560; syn
      T=0.100000; ev 3 0x39 -1; ev 3 0x2f 1; ev 3 0x39 -1; ev 1 0x14a 0; syn; } > "$W/s1c.events"
    { ev 3 0x2f 0; ev 3 0x39 200; ev 3 0x35 300; ev 3 0x36 900; ev 1 0x14a 1; syn; } > "$W/s2a.events"
    { for i in $(seq 1500); do ev 3 0x35 $((300 + (i % 2) * 40)); syn; done
      ev 3 0x39 -1; syn; ev 3 0x39 201; ev 3 0x35 1700; ev 3 0x36 200; syn; } > "$W/s2b.events"
    { T=0.100000; ev 3 0x39 -1; ev 1 0x14a 0; syn; } > "$W/s2c.events"
    for s in 1 2; do
        evemu-play "$NODE" < "$W/s${s}a.events" || return 1
        wait_for "$W/dropped.jsonl" '"phase":"began"' "$s" || return 1
        kill -STOP "$GPID"
        evemu-play "$NODE" < "$W/s${s}b.events" || return 1
        kill -CONT "$GPID"
        wait_for "$W/dropped.jsonl" '"action":"resynchronised"' "$s" || return 1
        evemu-play "$NODE" < "$W/s${s}c.events" || return 1
    done
    settle; stop_gestured || return 1; remove_device "$DEVPID"
    # Touch ids are the engine's, counted from 1 in order of landing: 1 = finger 100,
    # 2 = finger 101, 3 = finger 200, 4 = finger 201.
    local want="1:began 1:ended 1:moved 2:began 2:ended 3:began 3:cancelled 4:began 4:ended "
    [ "$(touch_phases "$W/dropped.jsonl" | sort -u | sort -t: -k1,1n -k2 | tr '\n' ' ')" = "$want" ] || {
        log "expected touch phases '$want', got '$(touch_phases "$W/dropped.jsonl" | sort -u | sort -t: -k1,1n -k2 | tr '\n' ' ')'"
        grep -v '"type":"touches"' "$W/dropped.jsonl" | head -n 10 | sed 's/^/    /'
        return 1; }
    log "SYN_DROPPED twice: $(grep -c '"action":"resynchronised"' "$W/dropped.jsonl") resyncs; surviving finger continued, lost finger cancelled, new fingers began"
    grep '"action":"resynchronised"' "$W/dropped.jsonl" | head -n 1 | sed 's/^/    /'
}

# touchpad_beside_touchscreen TOUCHPAD TOUCHSCREEN: auto skips the touchpad, gestured reads
# the touchscreen while both play.
touchpad_beside_touchscreen() {
    local tp=$1 ts=$2
    description_of "$tp" "$W/touchpad.desc"; description_of "$ts" "$W/panel.desc"
    # The touchpad comes first in event-number order: auto must skip it.
    make_device "$W/touchpad.desc" || return 1
    local tpnode=$NODE tpdev=$DEVPID
    make_device "$W/panel.desc" || return 1
    local tsnode=$NODE tsdev=$DEVPID
    "$G" devices > "$W/devices.txt" || { log "gestured devices failed"; return 1; }
    log "gestured devices:"; sed 's/^/    /' "$W/devices.txt"
    device_block "$W/devices.txt" "$tpnode" | grep -q '^  auto: no (touchpad: ' \
        || { log "the touchpad is not reported as skipped"; return 1; }
    device_block "$W/devices.txt" "$tsnode" | grep -q '^  auto: yes' || { log "the touchscreen is not reported as picked"; return 1; }
    start_capture beside || return 1
    GESTURED_ARGS=()
    start_gestured beside
    wait_for "$W/beside.err" "reading the touchscreen .*path=$tsnode$" || return 1
    evemu-play "$tpnode" < "$tp" & local tpplay=$!
    evemu-play "$tsnode" < "$ts" || return 1
    wait $tpplay || return 1
    settle; stop_gestured || return 1; stop_capture "$ts" || return 1; remove_device "$tsdev"; remove_device "$tpdev"
    "$G" replay --config "$CONFIG" "$CAPTURE" > "$W/beside.replay.jsonl" || return 1
    compare "$W/beside.jsonl" "$W/beside.replay.jsonl"
}

test_touchpad_beside_touchscreen() {
    touchpad_beside_touchscreen "$FIXTURES/touchpad-scroll.evemu" "$OWN/four-finger-drag.evemu"
}
test_corpus_touchpad_beside_touchscreen() {
    touchpad_beside_touchscreen "$REC/tp-bcm5974.three-finger-click.evemu" "$REC/atmel-maxtouch.4-finger-drag-down.evemu"
}

# events_of RECORDING: its events as "MICROSECONDS TYPE CODE VALUE", times counted from the
# first event (evemu-record starts at 0.000001, gestured record at 0), values as numbers.
events_of() {
    awk '$1 == "E:" { split($2, t, "."); us = t[1] * 1000000 + t[2]; if (!n++) first = us
                      printf "%.0f %s %s %d\n", us - first, tolower($3), tolower($4), $5 }' "$1"
}

# gestured record, beside evemu-record on the same node, writes what the kernel delivered: the
# same events at the same times, every frame played; its description makes the same device for
# replay and for evemu-device. Compared with evemu-record's capture, not with the recording
# played: the kernel's times are evemu-play's, late on a loaded machine, and a late drag may
# rightly resolve otherwise than the recording's.
test_record_and_replay() {
    local r=$OWN/four-finger-drag.evemu
    description_of "$r" "$W/panel.desc"
    make_device "$W/panel.desc" || return 1
    local dev=$DEVPID node=$NODE
    start_capture recorded || return 1
    "$G" record -o "$W/recorded.evemu" 2> "$W/record.err" & local rpid=$!
    HELPER_PIDS+=("$rpid")
    wait_for "$W/record.err" "recording $node" || return 1
    evemu-play "$node" < "$r" || return 1
    stop_capture "$r" || return 1
    # gestured record has read as much when its file holds as many frames.
    poll holds_frames "$W/recorded.evemu" "$(frames_in "$r")"
    kill -TERM $rpid; wait $rpid || { log "gestured record exited $?"; return 1; }
    remove_device "$dev"
    log "gestured record wrote $(grep -c '^E:' "$W/recorded.evemu") events; its head:"
    head -n 3 "$W/recorded.evemu" | sed 's/^/    /'
    events_of "$CAPTURE" > "$W/recorded.kernel.events"; events_of "$W/recorded.evemu" > "$W/recorded.events"
    diff -u "$W/recorded.kernel.events" "$W/recorded.events" > "$W/recorded.events.diff" || {
        log "gestured record's events differ from evemu-record's (- evemu-record, + gestured record):"
        head -n 20 "$W/recorded.events.diff" | sed 's/^/    /'; return 1; }
    log "gestured record == evemu-record: $(wc -l < "$W/recorded.events") events at the same times"
    # gestured replay reads it and resolves it as it resolves evemu-record's capture.
    "$G" replay --config "$CONFIG" "$W/recorded.evemu" > "$W/recorded.replay.jsonl" || { log "replay of the recording failed"; return 1; }
    "$G" replay --config "$CONFIG" "$CAPTURE" > "$W/recorded.kernel.replay.jsonl" || return 1
    compare "$W/recorded.replay.jsonl" "$W/recorded.kernel.replay.jsonl" || return 1
    # evemu-device builds a device from it, evemu-play plays it, and gestured run reads that.
    make_device "$W/recorded.evemu" || { log "evemu-device rejected the recorded description"; return 1; }
    start_capture rerecorded || return 1
    GESTURED_ARGS=()
    start_gestured rerecorded
    wait_for "$W/rerecorded.err" "reading the touchscreen .*path=$NODE$" || return 1
    evemu-play "$NODE" < "$W/recorded.evemu" || { log "evemu-play rejected the recorded events"; return 1; }
    settle; stop_gestured || return 1; stop_capture "$W/recorded.evemu" || return 1; remove_device "$DEVPID"
    "$G" replay --config "$CONFIG" "$CAPTURE" > "$W/rerecorded.replay.jsonl" || return 1
    compare "$W/rerecorded.jsonl" "$W/rerecorded.replay.jsonl"
}

test_socket_subscriber_equals_replay() {   # run without --stdout: a subscribed client's stream == replay
    local r=$OWN/four-finger-drag.evemu sock=$W/socket.sock
    description_of "$r" "$W/panel.desc"
    make_device "$W/panel.desc" || return 1
    local dev=$DEVPID
    start_capture socket || return 1
    start_notify_listener "$W/notify.log" "$W/notify.sock" || return 1
    NOTIFY_SOCKET=$W/notify.sock "$G" run --config "$CONFIG" --socket "$sock" --trace > "$W/socket.stdout" 2> "$W/socket.err" &
    GPID=$!
    local launched; launched=$(started_at "$GPID")
    wait_for "$W/notify.log" "READY=1" || return 1
    grep -q "READY=1 STATUS=reading $NODE " "$W/notify.log" \
        || { log "READY=1 does not say the device is read:"; sed 's/^/    /' "$W/notify.log"; return 1; }
    log "READY=1 $(awk -v l="$launched" '/READY=1/ { printf "%.0f", ($1 - l) * 1000; exit }' "$W/notify.log") ms" \
        "after the process started (to the 10 ms tick)"
    # The daemon's --trace gives every subscriber the traces, as replay --trace prints them.
    "$G" tail --socket "$sock" > "$W/socket.jsonl" 2> "$W/tail.err" & local tpid=$!
    HELPER_PIDS+=("$tpid")
    wait_for "$W/notify.log" "; 1 subscriber on $sock" || return 1
    evemu-play "$NODE" < "$r" || return 1
    settle
    log "peak RSS after serving the recording: $(grep VmHWM "/proc/$GPID/status" | tr -s ' \t' ' ')"
    stop_gestured || return 1
    # gestured tail exits 0 on the daemon's bye.
    wait "$tpid" || { log "gestured tail exited $?: $(cat "$W/tail.err")"; return 1; }
    stop_capture "$r" || return 1
    remove_device "$dev"
    grep -q "STOPPING=1" "$W/notify.log" || { log "no STOPPING=1"; return 1; }
    [ ! -s "$W/socket.stdout" ] || { log "events on stdout without --stdout"; return 1; }
    "$G" replay --config "$CONFIG" --trace "$CAPTURE" > "$W/socket.replay.jsonl" || { log "replay failed"; return 1; }
    compare "$W/socket.jsonl" "$W/socket.replay.jsonl" || return 1
    [ "$(grep -c '"type":"hitTest"' "$W/socket.jsonl")" -eq 4 ] || { log "not 4 touches hit-tested"; return 1; }
}

# The lobby kiosk takes the panel exclusively (grab: true), so a desktop session does not also
# turn touches into clicks: a reader that had the node open before gestured run grabbed it gets
# nothing, and gestured run gets every touch (counted, not timed: no load can change it).
test_grab_takes_the_panel() {
    local r=$OWN/four-finger-drag.evemu lobby; lobby=$(readlink -f config/lobby.json5)
    "$G" check-config "$lobby" | grep -q ', grabbed' || { log "$lobby does not grab the panel"; return 1; }
    description_of "$r" "$W/grabbed.desc"
    make_device "$W/grabbed.desc" || return 1
    local dev=$DEVPID
    "$G" record -o "$W/grabbed.other.evemu" 2> "$W/grabbed.other.err" & local rpid=$!
    HELPER_PIDS+=("$rpid")
    wait_for "$W/grabbed.other.err" "recording $NODE" || return 1
    RUN_CONFIG=$lobby start_gestured grabbed --trace
    wait_for "$W/grabbed.err" "reading the touchscreen .*path=$NODE$" || return 1
    evemu-play "$NODE" < "$r" || return 1
    settle; stop_gestured || return 1
    kill -TERM $rpid; wait $rpid || { log "gestured record exited $?"; return 1; }
    remove_device "$dev"
    local others; others=$(grep -c '^E:' "$W/grabbed.other.evemu")
    [ "$others" -eq 0 ] || { log "another reader got $others events while gestured run held the panel"; return 1; }
    local touches began ends
    touches=$(grep -c '"type":"hitTest"' "$W/grabbed.jsonl")
    began=$(touch_phases "$W/grabbed.jsonl" | grep -c ':began$')
    ends=$(touch_phases "$W/grabbed.jsonl" | grep -c ':ended$\|:cancelled$')
    [ "$touches" -eq 4 ] && [ "$began" -gt 0 ] && [ "$began" -eq "$ends" ] \
        || { log "gestured run under its grab: $touches touches hit-tested (4 played), $began deliveries began, $ends ended"; return 1; }
    log "gestured run under its grab: all 4 touches, $began deliveries began and ended; the other reader: no event"
}

test_unreadable_device_message() {
    make_device "$HERE/touchscreen.desc" || return 1
    local dev=$DEVPID
    # Device nodes are root's and the input group's (udev's default rules; gestured-panel's under the
    # package's rule): a user in neither gets EACCES, and is told to join gestured-panel, whose
    # rule gives it the panel only (input would open every keyboard too).
    setpriv --reuid=65534 --regid=65534 --clear-groups "$G" run --config "$SHIPPED_CONFIG" --stdout --device "$NODE" \
        --socket "/tmp/gestured-denied.$$.sock" > /dev/null 2> "$W/denied.err"
    local rc=$?
    remove_device "$dev"
    sed 's/^/    /' "$W/denied.err"
    [ $rc -ne 0 ] || { log "gestured run succeeded on an unreadable device"; return 1; }
    grep -q "open failed on $NODE: Permission denied (errno 13)" "$W/denied.err" \
        && grep -qF 'join the gestured-panel group (`sudo usermod -aG gestured-panel $USER`' "$W/denied.err" \
        && grep -qE '(systemd|/etc/udev/rules\.d|/usr/lib/udev/rules\.d)/70-gestured-touchscreen\.rules' "$W/denied.err" \
        || { log "the message does not name errno, the call, the path, the panel's group and the udev rule"; return 1; }
}

# --- issue 13: real panels as they come --------------------------------------------------------

# udev_entry NODE: the file of NODE's entry in udev's database (/run/udev/data/c13:MINOR).
udev_entry() { printf '/run/udev/data/c%d:%d\n' "0x$(stat -c %t "$1")" "0x$(stat -c %T "$1")"; }

# udev_property NODE PROPERTY=VALUE: until udev's database has it for NODE (the file is read,
# as gestured reads it: udevadm is slow to start under emulation).
udev_property() {
    local entry; entry=$(udev_entry "$1")
    poll grep -qxF -- "E:$2" "$entry" 2>/dev/null && return 0
    log "udev never said $2 for $1 ($entry):"; sed 's/^/    /' "$entry" 2>&1
    return 1
}

test_udev_runs_in_the_guest() {   # the harness itself: vm-init started systemd-udevd
    pgrep -x systemd-udevd > /dev/null || { log "systemd-udevd is not running in the guest"; return 1; }
    make_device "$HERE/touchscreen.desc" || return 1
    udev_property "$NODE" ID_INPUT_TOUCHSCREEN=1 || return 1
    local entry; entry=$(udev_entry "$NODE")
    log "$entry: $(grep '^E:' "$entry" | tr '\n' ' ')"
    remove_device "$DEVPID"
    return 0
}

# An N-Trig-like digitiser (protocol A, BTN_TOUCH + BTN_TOOL_DOUBLETAP, no INPUT_PROP_DIRECT):
# udev calls it a touchscreen, gestured trusts udev's database and picks it with auto, and the
# live output through mtdev equals the replay.
test_ntrig_like_touchscreen_with_udev() {
    local r=$FIXTURES/ntrig-like-drag.evemu
    make_device "$FIXTURES/ntrig-like-panel.desc" || return 1
    local dev=$DEVPID
    udev_property "$NODE" ID_INPUT_TOUCHSCREEN=1 || return 1
    "$G" devices > "$W/ntrig.devices" || { log "gestured devices failed"; return 1; }
    device_block "$W/ntrig.devices" "$NODE" > "$W/ntrig.block"
    sed 's/^/    /' "$W/ntrig.block"
    grep -q '^  kind: touchscreen, multitouch protocol A (through mtdev) (touchscreen: udev says ID_INPUT_TOUCHSCREEN=1)$' \
        "$W/ntrig.block" && grep -q "^  classified by: udev's database" "$W/ntrig.block" \
        && grep -q '^  auto: yes' "$W/ntrig.block" || { log "not classified a touchscreen by udev's database"; return 1; }
    start_capture ntrig || return 1
    start_gestured ntrig
    wait_for "$W/ntrig.err" "reading the touchscreen .*kind=.touchscreen: udev says ID_INPUT_TOUCHSCREEN=1. .*path=$NODE$" \
        || return 1
    evemu-play "$NODE" < "$r" || return 1
    settle; stop_gestured || return 1; stop_capture "$r" || return 1; remove_device "$dev"
    "$G" replay --config "$CONFIG" "$CAPTURE" > "$W/ntrig.replay.jsonl" || return 1
    compare "$W/ntrig.jsonl" "$W/ntrig.replay.jsonl" || return 1
    grep -q '"view":"welcomeStart","event":"touchUpInside"' "$W/ntrig.jsonl" \
        && grep -q '"phase":"began","view":"carousel"' "$W/ntrig.jsonl" \
        || { log "the tap or the two-finger drag did not land where the script put them"; return 1; }
}

# A panel that declares pen buttons and reports its position on ABS_Z/ABS_RX: auto passes it
# over with a message naming type and axes; configured with them, live equals the replay with
# the same configuration; read without them, the warning names the axes that move.
test_misdescribed_panel() {
    local desc=$FIXTURES/misdescribed-panel.desc events=$FIXTURES/misdescribed-drag.events
    local configured; configured=$(readlink -f Tests/Fixtures/replay/misdescribed-panel.json5)
    make_device "$desc" || return 1
    local dev=$DEVPID node=$NODE
    udev_property "$node" ID_INPUT_TABLET=1 || return 1
    "$G" devices > "$W/misdescribed.devices" || { log "gestured devices failed"; return 1; }
    device_block "$W/misdescribed.devices" "$node" > "$W/misdescribed.block"
    sed 's/^/    /' "$W/misdescribed.block"
    grep -q "^  auto: no (tablet: udev says ID_INPUT_TABLET=1; if it is the touchscreen, select it with device: { path: \"$node\", type: \"touchscreen\" }, and axes: " \
        "$W/misdescribed.block" || { log "auto's refusal does not name type and axes"; return 1; }
    # The daemon with auto waits, and says which device it passed over and how to take it.
    start_gestured misdescribed-auto
    wait_for "$W/misdescribed-auto.err" "waiting for the touchscreen to appear" || return 1
    wait_for "$W/misdescribed-auto.err" "auto passed over a device that may be the touchscreen .*$node .*type: ..touchscreen" || return 1
    stop_gestured || return 1
    # Configured: a touchscreen read from ABS_Z/ABS_RX, live as in replay, no warning.
    start_capture misdescribed || return 1
    RUN_CONFIG=$configured start_gestured misdescribed
    wait_for "$W/misdescribed.err" "reading the touchscreen .*kind=.touchscreen: the configuration's device.type says so. .*path=$node$" \
        || return 1
    evemu-play "$node" < "$events" || return 1
    settle; stop_gestured || return 1; stop_capture "$events" || return 1
    "$G" replay --config "$configured" "$CAPTURE" > "$W/misdescribed.replay.jsonl" || return 1
    compare "$W/misdescribed.jsonl" "$W/misdescribed.replay.jsonl" || return 1
    grep -q '"view":"welcomeStart","event":"touchUpInside"' "$W/misdescribed.jsonl" \
        && grep -q '"recognizer":"carouselPan","kind":"pan","view":"carousel","state":"began"' "$W/misdescribed.jsonl" \
        || { log "the tap or the drag did not land where the events put them"; return 1; }
    ! grep -q '"type":"warning"' "$W/misdescribed.jsonl" || { log "a warning although the axes are configured"; return 1; }
    # Read without them (the node given, as --force does in replay): the warning, live and in replay.
    start_gestured misdescribed-forced --device "$node"
    wait_for "$W/misdescribed-forced.err" "reading the touchscreen .*path=$node$" || return 1
    evemu-play "$node" < "$events" || return 1
    wait_for "$W/misdescribed-forced.jsonl" '"type":"warning"' || return 1
    settle; stop_gestured || return 1; remove_device "$dev"
    local want='its position axes ABS_X and ABS_Y have not changed in 3 frames while ABS_Z, ABS_RX did'
    grep '"type":"warning"' "$W/misdescribed-forced.jsonl" | grep -F "$want" \
        | grep -qF 'device.axes: { x: \"ABS_Z\", y: \"ABS_RX\" }' \
        && grep -q "input device warning .*$want" "$W/misdescribed-forced.err" \
        || { log "no warning naming the axes that move and the setting, as an event and a log line"; return 1; }
    "$G" replay --config "$CONFIG" "$desc" "$events" > /dev/null 2> "$W/misdescribed-refused.err" \
        && { log "replay took a tablet without --force"; return 1; }
    grep -qF 'type: "touchscreen"' "$W/misdescribed-refused.err" || { log "the replay's refusal does not name type"; return 1; }
    "$G" replay --force --config "$CONFIG" "$desc" "$events" > "$W/misdescribed-forced.replay.jsonl" \
        2> "$W/misdescribed-forced.replay.err" || return 1
    grep -q "gestured: warning: .*$want" "$W/misdescribed-forced.replay.err" || { log "replay --force did not warn"; return 1; }
    log "$(grep -o "$want[^\"]*" "$W/misdescribed-forced.replay.err" | head -n 1)"
}

# A udev rule gives the panel LIBINPUT_CALIBRATION_MATRIX (mirrored left to right): gestured
# applies it when the configuration sets none, says so, and the touches are where a replay with
# that matrix in the configuration puts them.
test_udev_calibration() {
    local r=$OWN/four-finger-drag.evemu
    sed 's/^N: .*/N: gestured calibration test panel/' "$OWN/panel.desc" > "$W/calibrated.desc"
    mkdir -p /etc/udev/rules.d
    echo 'SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="gestured calibration test panel", ENV{LIBINPUT_CALIBRATION_MATRIX}="-1 0 1 0 1 0"' \
        > /etc/udev/rules.d/99-gestured-calibration-test.rules
    udevadm control --reload
    make_device "$W/calibrated.desc" || return 1
    local dev=$DEVPID
    udev_property "$NODE" 'LIBINPUT_CALIBRATION_MATRIX=-1 0 1 0 1 0' || return 1
    start_capture calibrated || return 1
    "$G" devices > "$W/calibrated.devices" || return 1
    device_block "$W/calibrated.devices" "$NODE" | grep -q "^  calibration: \[-1, 0, 1, 0, 1, 0\] from udev's LIBINPUT_CALIBRATION_MATRIX$" \
        || { log "gestured devices does not show udev's matrix:"; device_block "$W/calibrated.devices" "$NODE"; return 1; }
    start_gestured calibrated
    wait_for "$W/calibrated.err" "reading the touchscreen .*calibration=.\[-1, 0, 1, 0, 1, 0\] from udev's LIBINPUT_CALIBRATION_MATRIX. .*path=$NODE$" \
        || return 1
    evemu-play "$NODE" < "$r" || return 1
    settle; stop_gestured || return 1; stop_capture "$r" || return 1; remove_device "$dev"
    rm -f /etc/udev/rules.d/99-gestured-calibration-test.rules; udevadm control --reload
    # The same matrix in the configuration: the replay the live output must equal.
    sed "s|^  screen: { width: 1920, height: 1080, rotation: 0 },|  screen: { width: 1920, height: 1080, rotation: 0, calibration: [-1, 0, 1, 0, 1, 0] },|; s|\"layouts/|\"$(readlink -f config/layouts)/|" \
        "$CONFIG" > "$W/calibrated.json5"
    grep -q 'calibration: \[-1' "$W/calibrated.json5" || { log "could not write the calibrated configuration"; return 1; }
    "$G" replay --config "$W/calibrated.json5" "$CAPTURE" > "$W/calibrated.replay.jsonl" || return 1
    compare "$W/calibrated.jsonl" "$W/calibrated.replay.jsonl" || return 1
    # And it is not the uncalibrated replay: the first touch is mirrored (x → 1920 - x).
    "$G" replay --config "$CONFIG" "$CAPTURE" > "$W/uncalibrated.replay.jsonl" || return 1
    local plain mirrored
    plain=$(grep -o '"phase":"began","x":[0-9.]*' "$W/uncalibrated.replay.jsonl" | head -n 1 | sed 's/.*://')
    mirrored=$(grep -o '"phase":"began","x":[0-9.]*' "$W/calibrated.jsonl" | head -n 1 | sed 's/.*://')
    awk -v a="$plain" -v b="$mirrored" 'BEGIN { exit !((a + b - 1920) ^ 2 < 0.01) }' \
        || { log "the first touch is at x $mirrored live, not 1920 - $plain"; return 1; }
    log "first touch at x $plain uncalibrated, $mirrored with udev's matrix"
}

# --- issue 26: the virtual panel (docs/routing.md) ---------------------------------------------
# gestured run with the hidden GESTURED_DEBUG_PANEL_COPY switch (until the configuration's
# routing turns the copy on): `pass-through` writes every frame read to the copy, so what
# libinput makes of the copy is tested before routing decides anything. The package's udev
# rule is installed in the guest, as the package installs it.

# routing_panel OUT [tooltype]: the project's panel as a USB touchscreen with kernel fuzz on its
# position axes (libinput's rule moves it to LIBINPUT_FUZZ_*), optionally declaring
# ABS_MT_TOOL_TYPE (finger … palm) so that a palm reaches the copy.
routing_panel() {
    sed -e 's/^N: .*/N: gestured routing test panel/' -e 's/^I: .*/I: 0003 0eef 0001 0100/' \
        -e 's/^A: 00 0 19199 0 /A: 00 0 19199 8 /' -e 's/^A: 01 0 10799 0 /A: 01 0 10799 8 /' \
        -e 's/^A: 35 0 19199 0 /A: 35 0 19199 8 /' -e 's/^A: 36 0 10799 0 /A: 36 0 10799 8 /' \
        "$OWN/panel.desc" > "$1"
    if [ "${2:-}" = tooltype ]; then
        sed -i -e 's/^B: 03 03 00 00 00 00 80 61 02/B: 03 03 00 00 00 00 80 e1 02/' \
            -e 's/^A: 39 0 65535 0 0 0/A: 37 0 2 0 0 0\nA: 39 0 65535 0 0 0/' "$1"
        grep -q '^A: 37 0 2' "$1" || { log "could not add ABS_MT_TOOL_TYPE to $1"; return 1; }
    fi
}

install_package_rule() {
    mkdir -p /etc/udev/rules.d /run/gestured
    rm -f /etc/udev/rules.d/99-gestured-routing-test.rules   # a failed test's
    cp systemd/70-gestured-touchscreen.rules /etc/udev/rules.d/
    udevadm control --reload
}

remove_package_rule() {
    rm -f /etc/udev/rules.d/70-gestured-touchscreen.rules /etc/udev/rules.d/99-gestured-routing-test.rules
    udevadm control --reload
}

# start_copying NAME MODE [ARGS...]: gestured run with the lobby's configuration (grab: true)
# and the virtual panel on in MODE; waits until it reads $NODE and made the copy; sets COPY.
start_copying() {
    local name=$1 mode=$2; shift 2
    local lobby; lobby=$(readlink -f config/lobby.json5)
    GESTURED_DEBUG_PANEL_COPY=$mode RUN_CONFIG=$lobby start_gestured "$name" "$@"
    wait_for "$W/$name.err" "reading the touchscreen .*path=$NODE$" || return 1
    wait_for "$W/$name.err" "virtual panel created copy=/dev/input/event" || return 1
    COPY=$(grep -o 'virtual panel created copy=/dev/input/event[0-9]*' "$W/$name.err" | tail -n 1 | cut -d= -f2)
    [ -e "$COPY" ] || { log "the copy $COPY has no node"; return 1; }
    udev_property "$COPY" GESTURED_PANEL_COPY=1 || return 1
}

# start_libinput OUT [--device NODE]: libinput debug-events into OUT, until DEVICE_ADDED.
start_libinput() {
    local out=$1; shift
    libinput debug-events "$@" > "$out" 2>&1 &
    HELPER_PIDS+=("$!")
    LIPID=$!
    wait_for "$out" DEVICE_ADDED
}

# frame_times NODE OUT: a reader of NODE on CLOCK_MONOTONIC writing the time of every frame
# (SYN_REPORT), in µs, one a line; "ready" first, once the node is open.
frame_times() {
    "$PYTHON" -u -c '
import fcntl, struct, sys
fd = open(sys.argv[1], "rb", buffering=0)
fcntl.ioctl(fd, 0x400445a0, struct.pack("i", 1))   # EVIOCSCLOCKID, CLOCK_MONOTONIC
print("ready", flush=True)
while True:
    data = fd.read(24 * 64)
    for i in range(0, len(data), 24):
        sec, usec, type_, code, value = struct.unpack("qqHHi", data[i:i + 24])
        if type_ == 0 and code == 0:
            print(sec * 1000000 + usec, flush=True)
' "$1" > "$2" 2>&1 &
    HELPER_PIDS+=("$!")
    wait_for "$2" '^ready'
}

# The copy declares what the panel declares (identity, axes, ranges, resolutions,
# INPUT_PROP_DIRECT, the keys), plus ABS_MT_TOOL_TYPE; udev calls it a touchscreen and no
# mouse, gives it the panel's calibration, output and libinput fuzz, and no stable name;
# gestured devices marks it; libinput sees a touchscreen of the panel's size.
test_panel_copy_is_the_panel_for_udev_and_libinput() {
    routing_panel "$W/routing.desc" || return 1
    install_package_rule
    echo 'SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="gestured routing test panel", ENV{GESTURED_PANEL_COPY}!="1", ENV{LIBINPUT_CALIBRATION_MATRIX}="0 -1 1 1 0 0", ENV{WL_OUTPUT}="HDMI-A-1"' \
        > /etc/udev/rules.d/99-gestured-routing-test.rules
    udevadm control --reload
    make_device "$W/routing.desc" || return 1
    local dev=$DEVPID panel=$NODE
    udev_property "$panel" 'WL_OUTPUT=HDMI-A-1' || return 1
    udev_property "$panel" 'LIBINPUT_FUZZ_00=8' || return 1
    start_copying copy pass-through || return 1
    evemu-describe "$panel" > "$W/copy.panel.describe" 2>&1
    evemu-describe "$COPY" > "$W/copy.copy.describe" 2>&1
    udevadm info -q property "$panel" | sort > "$W/copy.panel.udev"
    udevadm info -q property "$COPY" | sort > "$W/copy.copy.udev"
    "$G" devices > "$W/copy.devices" 2>&1
    libinput list-devices > "$W/copy.list-devices" 2>&1
    local link; link=$(readlink -f /dev/input/touchscreen 2>/dev/null)
    stop_gestured || return 1
    [ ! -e "$COPY" ] || { log "the copy $COPY is still there after gestured stopped"; return 1; }
    remove_device "$dev"; remove_package_rule
    local ok=0
    # (No process substitution: the guest has no /dev/fd.)
    same() {
        grep -E "$1" "$W/copy.panel.describe" > "$W/copy.want"
        grep -E "$1" "$W/copy.copy.describe" | grep -vE "${2:-^$}" > "$W/copy.got"
        cmp -s "$W/copy.want" "$W/copy.got" \
            || { log "evemu-describe differs on $1 (< panel, > copy):"; diff "$W/copy.want" "$W/copy.got" | sed 's/^/    /'; ok=1; }
    }
    same '^(N|I|P):'; same '^B: 01'; same '^A:' '^A: 37 '
    grep -qx 'A: 37 0 15 0 0 0' "$W/copy.copy.describe" || { log "the copy does not declare ABS_MT_TOOL_TYPE 0…15"; ok=1; }
    grep -q '^# *Event code 330 (BTN_TOUCH)' "$W/copy.copy.describe" && ! grep -q 'BTN_LEFT' "$W/copy.copy.describe" \
        || { log "the copy's keys are not BTN_TOUCH alone"; ok=1; }
    grep -qx 'ID_INPUT_TOUCHSCREEN=1' "$W/copy.copy.udev" && ! grep -q '^ID_INPUT_MOUSE=' "$W/copy.copy.udev" \
        || { log "udev does not call the copy a touchscreen only:"; sed 's/^/    /' "$W/copy.copy.udev"; ok=1; }
    for p in LIBINPUT_CALIBRATION_MATRIX WL_OUTPUT LIBINPUT_FUZZ_00 LIBINPUT_FUZZ_01 LIBINPUT_FUZZ_35 LIBINPUT_FUZZ_36 \
             ID_INPUT_WIDTH_MM ID_INPUT_HEIGHT_MM; do
        local want; want=$(grep "^$p=" "$W/copy.panel.udev")
        [ -n "$want" ] && grep -qxF "$want" "$W/copy.copy.udev" \
            || { log "the copy does not have the panel's ${want:-$p (the panel has none)}"; ok=1; }
    done
    [ "$link" = "$panel" ] || { log "/dev/input/touchscreen is $link, not the panel $panel"; ok=1; }
    device_block "$W/copy.devices" "$COPY" > "$W/copy.block"
    grep -q "^  gestured's copy: yes" "$W/copy.block" && grep -q "^  auto: no (gestured's virtual panel" "$W/copy.block" \
        && device_block "$W/copy.devices" "$panel" | grep -q '^  auto: yes' \
        || { log "gestured devices does not mark the copy:"; sed 's/^/    /' "$W/copy.block"; ok=1; }
    # libinput: both touchscreens, the same size.
    local lp lc
    lp=$(awk -v n="$panel" '/^Device:/ { block = "" } { block = block $0 "\n" } /^Kernel:/ { k = $2 } /^$/ { if (k == n) print block; k = "" }' "$W/copy.list-devices" | grep -E '^(Size|Capabilities):')
    lc=$(awk -v n="$COPY" '/^Device:/ { block = "" } { block = block $0 "\n" } /^Kernel:/ { k = $2 } /^$/ { if (k == n) print block; k = "" }' "$W/copy.list-devices" | grep -E '^(Size|Capabilities):')
    [ -n "$lc" ] && [ "$lp" = "$lc" ] && echo "$lc" | grep -q 'Capabilities: *touch' \
        || { log "libinput list-devices: panel '$lp', copy '$lc'"; ok=1; }
    [ $ok -eq 0 ] || return 1
    log "copy $COPY of $panel: $(grep -E '^(N|I):' "$W/copy.copy.describe" | tr '\n' ' ')"
    log "udev on the copy: $(grep -E '^(ID_INPUT_TOUCHSCREEN|LIBINPUT_CALIBRATION_MATRIX|WL_OUTPUT|LIBINPUT_FUZZ_00|GESTURED_PANEL_COPY)=' "$W/copy.copy.udev" | tr '\n' ' ')"
    log "libinput, copy: $(echo "$lc" | tr '\n' ' ')"
}

# Frames written to the copy reach libinput as touches; the hop from the panel's kernel time to
# the copy's is measured (docs/routing.md, "Times").
test_panel_copy_forwards_frames_to_libinput() {
    local r=$OWN/four-finger-drag.evemu
    routing_panel "$W/fwd.desc" || return 1
    install_package_rule
    make_device "$W/fwd.desc" || return 1
    local dev=$DEVPID
    udev_property "$NODE" ID_INPUT_TOUCHSCREEN=1 || return 1
    start_copying fwd pass-through || return 1
    start_libinput "$W/fwd.libinput" --device "$COPY" || return 1
    local CAPTURE_NODE=$NODE
    NODE=$COPY start_capture fwd-copy || return 1
    NODE=$CAPTURE_NODE
    evemu-play "$NODE" < "$r" || return 1
    wait_for "$W/fwd.libinput" TOUCH_UP 4
    # Every frame played reached the copy (the capture's own guards: as many frames, no SYN_DROPPED).
    stop_capture "$r" || return 1
    settle; stop_gestured || return 1
    remove_device "$dev"; remove_package_rule
    local downs ups
    downs=$(grep -c 'TOUCH_DOWN' "$W/fwd.libinput"); ups=$(grep -c 'TOUCH_UP' "$W/fwd.libinput")
    [ "$downs" -eq 4 ] && [ "$ups" -eq 4 ] \
        || { log "libinput on the copy: $downs TOUCH_DOWN, $ups TOUCH_UP (4 each played)"
             sed 's/^/    /' "$W/fwd.libinput" | head -n 20; return 1; }
    log "libinput on the copy: $downs TOUCH_DOWN, $ups TOUCH_UP, $(grep -c TOUCH_MOTION "$W/fwd.libinput") TOUCH_MOTION"
}

# The hop, measured: one finger moving one unit a frame for HOP_FRAMES frames (10 ms apart), so
# that every frame is a touch delivery gestured stamps with the panel's kernel time; each frame's
# time on the copy (CLOCK_MONOTONIC, read by an independent reader) minus its time on the panel.
test_panel_copy_hop() {
    local n=${HOP_FRAMES:-300}
    routing_panel "$W/hop.desc" || return 1
    install_package_rule
    make_device "$W/hop.desc" || return 1
    local dev=$DEVPID
    udev_property "$NODE" ID_INPUT_TOUCHSCREEN=1 || return 1
    start_copying hop pass-through || return 1
    frame_times "$COPY" "$W/hop.copy-times" || return 1
    # (Codes in decimal: mawk reads no hex.)
    awk -v n="$n" 'function ev(t, type, code, value) { printf "E: %d.%06d %04x %04x %d\n", t / 1000000, t % 1000000, type, code, value }
        BEGIN { ev(0, 3, 57, 9); ev(0, 3, 53, 9000); ev(0, 3, 54, 5000); ev(0, 1, 330, 1); ev(0, 0, 0, 0)
                for (i = 1; i < n - 1; i++) { ev(i * 10000, 3, 53, 9000 + i); ev(i * 10000, 0, 0, 0) }
                ev((n - 1) * 10000, 3, 57, -1); ev((n - 1) * 10000, 1, 330, 0); ev((n - 1) * 10000, 0, 0, 0) }' \
        > "$W/hop.events"
    evemu-play "$NODE" < "$W/hop.events" || return 1
    poll has_lines "$W/hop.copy-times" '^[0-9]' "$n"
    wait_for "$W/hop.jsonl" '"phase":"ended"' || return 1
    stop_gestured || return 1
    remove_device "$dev"; remove_package_rule
    grep -o '"type":"touches","seq":[0-9]*,"time":[0-9]*' "$W/hop.jsonl" | sed 's/.*"time"://' | uniq > "$W/hop.panel-times"
    grep '^[0-9]' "$W/hop.copy-times" > "$W/hop.copy-frames"
    [ "$(wc -l < "$W/hop.panel-times")" -eq "$n" ] && [ "$(wc -l < "$W/hop.copy-frames")" -eq "$n" ] \
        || { log "$(wc -l < "$W/hop.panel-times") frames delivered by gestured, $(wc -l < "$W/hop.copy-frames") on the copy, $n played"; return 1; }
    paste "$W/hop.panel-times" "$W/hop.copy-frames" | awk '{ print $2 - $1 }' | sort -n > "$W/hop.us"
    awk '$1 < 0 { bad++ } END { exit bad > 0 }' "$W/hop.us" || { log "a frame reached the copy before the panel"; return 1; }
    # Linux 6.5 and later take the written times (uinput_inject_events): every frame on the copy
    # carries the panel's own time.
    if printf '%s\n' "6.5" "$(uname -r | cut -d. -f1,2)" | sort -CV; then
        awk '$1 != 0 { bad++ } END { exit bad > 0 }' "$W/hop.us" \
            || { log "kernel $(uname -r) takes injected times, but $(awk '$1 != 0' "$W/hop.us" | wc -l) frames on the copy differ from the panel's"; return 1; }
    fi
    log "hop, the panel's kernel time to the copy's, $n frames, µs: $(awk '{ a[NR] = $1 } END { printf "min %d p50 %d p99 %d max %d", a[1], a[int(NR * 0.5 + 0.5)], a[int(NR * 0.99 + 0.5)], a[NR] }' "$W/hop.us") (kernel $(uname -r))"
}

# A touch whose tool type becomes MT_TOOL_PALM, then lifts, on the copy: libinput's cancel
# (what a late claim does, docs/routing.md). What libinput prints is kept in the log.
test_panel_copy_palm_cancels_the_touch() {
    routing_panel "$W/palm.desc" tooltype || return 1
    install_package_rule
    make_device "$W/palm.desc" || return 1
    local dev=$DEVPID
    udev_property "$NODE" ID_INPUT_TOUCHSCREEN=1 || return 1
    start_copying palm pass-through || return 1
    start_libinput "$W/palm.libinput" --device "$COPY" || return 1
    T=0.000000
    { ev 3 0x2f 0; ev 3 0x39 300; ev 3 0x37 0; ev 3 0x35 5000; ev 3 0x36 4000; ev 3 0 5000; ev 3 1 4000; ev 1 0x14a 1; syn
      T=0.020000; ev 3 0x35 5400; ev 3 0 5400; syn
      T=0.040000; ev 3 0x37 2; syn
      T=0.060000; ev 3 0x39 -1; ev 1 0x14a 0; syn; } > "$W/palm.events"
    evemu-play "$NODE" < "$W/palm.events" || return 1
    wait_for "$W/palm.libinput" 'TOUCH_CANCEL' || return 1
    settle; stop_gestured || return 1
    remove_device "$dev"; remove_package_rule
    grep -E 'TOUCH_' "$W/palm.libinput" | sed 's/^/    /'
    [ "$(grep -c TOUCH_DOWN "$W/palm.libinput")" -eq 1 ] && [ "$(grep -c TOUCH_CANCEL "$W/palm.libinput")" -eq 1 ] \
        && ! grep -q TOUCH_UP "$W/palm.libinput" || { log "expected one TOUCH_DOWN, one TOUCH_CANCEL and no TOUCH_UP"; return 1; }
}

# kill -9 of gestured holding the grab and the copy with four fingers down on it: the kernel
# removes the copy and releases the grab; libinput (the whole seat, as a compositor) is left
# with no finger down, and the next touch on the panel reaches it directly.
test_panel_copy_kill9_returns_the_panel() {
    local r=$OWN/four-finger-drag.evemu
    routing_panel "$W/k9.desc" || return 1
    install_package_rule
    awk '/^E:/ { print; if ($3 == "0000" && $4 == "0000") { if (++frames == 12) exit } }' "$r" > "$W/k9.half.events"
    make_device "$W/k9.desc" || return 1
    local dev=$DEVPID panel=$NODE
    udev_property "$panel" ID_INPUT_TOUCHSCREEN=1 || return 1
    start_libinput "$W/k9.libinput" || return 1
    start_copying k9 pass-through || return 1
    local copy=$COPY cn pn; cn=$(basename "$copy"); pn=$(basename "$panel")
    wait_for "$W/k9.libinput" "^[- ]*$cn .*DEVICE_ADDED" || return 1
    evemu-play "$panel" < "$W/k9.half.events" || return 1
    wait_for "$W/k9.libinput" "^[- ]*$cn .*TOUCH_DOWN" 4 || return 1
    kill -KILL "$GPID"; wait "$GPID" 2>/dev/null; GPID=
    wait_for "$W/k9.libinput" "^[- ]*$cn .*DEVICE_REMOVED" || return 1
    [ ! -e "$copy" ] || { log "the copy $copy outlived gestured"; return 1; }
    local before; before=$(wc -l < "$W/k9.libinput")
    # The panel again: every finger lifted, then taps elsewhere. (The kernel drops a value
    # equal to the one it holds for the slot, and libinput did not see the grabbed stream: a
    # touch replayed at the very positions of the grabbed one reached libinput with axes
    # missing, at 0.00; real fingers seldom repeat a value exactly.)
    T=0.000000
    { for s in 0 1 2 3; do ev 3 0x2f $s; ev 3 0x39 -1; done; ev 3 0x2f 0; ev 1 0x14a 0; syn; } > "$W/k9.lift.events"
    evemu-play "$panel" < "$W/k9.lift.events" || return 1
    evemu-play "$panel" < "$OWN/one-finger-taps.evemu" || return 1
    wait_for "$W/k9.libinput" "^[- ]*$pn .*TOUCH_UP" 8 || return 1
    kill "$LIPID" 2>/dev/null
    remove_device "$dev"; remove_package_rule
    log "what libinput printed for the copy from the kill on:"
    awk -v c="$cn" '$0 ~ "^-?"c" " || $0 ~ "^ *"c" "' "$W/k9.libinput" | grep -v 'TOUCH_MOTION\|TOUCH_FRAME' | tail -n 12 | sed 's/^/    /'
    local downs ups cancels
    downs=$(grep -cE "^[- ]*$cn .*TOUCH_DOWN" "$W/k9.libinput"); ups=$(grep -cE "^[- ]*$cn .*TOUCH_UP" "$W/k9.libinput")
    cancels=$(grep -cE "^[- ]*$cn .*TOUCH_CANCEL" "$W/k9.libinput")
    log "on the copy: $downs TOUCH_DOWN, $ups TOUCH_UP, $cancels TOUCH_CANCEL, then DEVICE_REMOVED"
    # libinput ends the touches of a removed device with a cancel each: no finger stays down.
    [ "$downs" -eq 4 ] && [ "$ups" -eq 0 ] && [ "$cancels" -eq 4 ] \
        || { log "expected 4 TOUCH_DOWN, no TOUCH_UP and 4 TOUCH_CANCEL on the copy"; return 1; }
    local pd pu; pd=$(tail -n +"$before" "$W/k9.libinput" | grep -cE "^[- ]*$pn .*TOUCH_DOWN"); pu=$(tail -n +"$before" "$W/k9.libinput" | grep -cE "^[- ]*$pn .*TOUCH_UP")
    log "on the panel after the kill: $pd TOUCH_DOWN, $pu TOUCH_UP"
    [ "$pd" -eq 8 ] && [ "$pu" -eq 8 ] || { log "the panel's 8 taps did not reach libinput after the kill"; return 1; }
}

# Unplugging the panel removes the copy; plugging it in again makes a new one.
test_panel_copy_follows_replug() {
    routing_panel "$W/replug.desc" || return 1
    install_package_rule
    make_device "$W/replug.desc" || return 1
    start_copying replug pass-through || return 1
    local first=$COPY
    remove_device "$DEVPID"
    wait_for "$W/replug.err" "virtual panel removed copy=$first reason=.the panel is gone" || return 1
    poll test ! -e "$first" || { log "the copy $first outlived its panel"; return 1; }
    make_device "$W/replug.desc" || return 1
    wait_for "$W/replug.err" "virtual panel created copy=/dev/input/event" 2 || return 1
    local second; second=$(grep -o 'virtual panel created copy=/dev/input/event[0-9]*' "$W/replug.err" | tail -n 1 | cut -d= -f2)
    [ -e "$second" ] || { log "the new copy $second has no node"; return 1; }
    grep -q "reading the touchscreen .*path=$NODE$" "$W/replug.err" || { log "gestured did not read the new panel $NODE"; return 1; }
    ! grep -q "reading the touchscreen .*path=$first$\|reading the touchscreen .*path=$second$" "$W/replug.err" \
        || { log "gestured read its own copy"; return 1; }
    stop_gestured || return 1; remove_device "$DEVPID"; remove_package_rule
    log "copy $first removed with its panel; $second made for the panel plugged in again"
}

# No /dev/uinput: gestured says why and how to fix it, and serves its clients all the same.
test_panel_copy_without_uinput() {
    make_device "$HERE/touchscreen.desc" || return 1
    local dev=$DEVPID
    mv /dev/uinput /dev/uinput.hidden
    GESTURED_DEBUG_PANEL_COPY=pass-through RUN_CONFIG=$(readlink -f config/lobby.json5) start_gestured nouinput --device "$NODE"
    wait_for "$W/nouinput.err" "reading the touchscreen .*path=$NODE$"; local rc=$?
    mv /dev/uinput.hidden /dev/uinput
    [ $rc -eq 0 ] || return 1
    wait_for "$W/nouinput.err" "no virtual panel: touches are not forwarded" || return 1
    T=0.000000
    { ev 3 0x2f 0; ev 3 0x39 5; ev 3 0x35 500; ev 3 0x36 300; ev 1 0x14a 1; syn; T=0.05; ev 3 0x39 -1; ev 1 0x14a 0; syn; } \
        > "$W/nouinput.events"
    evemu-play "$NODE" < "$W/nouinput.events" || return 1
    wait_for "$W/nouinput.jsonl" '"phase":"ended"' || return 1
    stop_gestured || return 1; remove_device "$dev"
    grep 'no virtual panel' "$W/nouinput.err" | sed 's/^/    /'
    grep -q 'There is no /dev/uinput: load the uinput module' "$W/nouinput.err" || { log "the message does not say how to fix it"; return 1; }
}

# /dev/uinput not writable by the user gestured runs as (root's alone, as without the package's
# rule): the message names the rule and the group, and the touches are served.
test_panel_copy_uinput_not_writable() {
    make_device "$HERE/touchscreen.desc" || return 1
    local dev=$DEVPID
    # The panel readable and grabbable by nobody (after udev gave the node its mode); /dev/uinput
    # stays root's.
    udev_property "$NODE" ID_INPUT_TOUCHSCREEN=1 || return 1
    chmod 0666 "$NODE"
    setpriv --reuid=65534 --regid=65534 --clear-groups env GESTURED_DEBUG_PANEL_COPY=pass-through \
        "$G" run --config "$(readlink -f config/lobby.json5)" --device "$NODE" --socket "/tmp/gestured-uinput.$$.sock" \
        --stdout > "$W/uinput-denied.jsonl" 2> "$W/uinput-denied.err" &
    GPID=$!
    wait_for "$W/uinput-denied.err" "no virtual panel: touches are not forwarded" || return 1
    T=0.000000
    { ev 3 0x2f 0; ev 3 0x39 5; ev 3 0x35 500; ev 3 0x36 300; ev 1 0x14a 1; syn; T=0.05; ev 3 0x39 -1; ev 1 0x14a 0; syn; } \
        > "$W/uinput-denied.events"
    evemu-play "$NODE" < "$W/uinput-denied.events" || return 1
    wait_for "$W/uinput-denied.jsonl" '"phase":"ended"' || return 1
    stop_gestured || return 1; remove_device "$dev"
    grep 'no virtual panel' "$W/uinput-denied.err" | sed 's/^/    /'
    grep -q 'open failed on /dev/uinput: Permission denied (errno 13)' "$W/uinput-denied.err" \
        && grep -q 'gestured-uinput group' "$W/uinput-denied.err" \
        && grep -q '70-gestured-touchscreen.rules' "$W/uinput-denied.err" \
        || { log "the message does not name errno, the node, the group and the rule"; return 1; }
}

# --- routing end to end (issue 26) -----------------------------------------------------------
# `gestured run` with a configuration that has `routing`: it grabs the panel and writes what it
# forwards to the copy. The panel is played through its own uinput descriptor
# (uinput-panel.py play), which stamps every frame with the recording's time after the start
# (kept by Linux 6.5 and later) and logs when it wrote each frame; the copy is read by
# evemu-record (the values) and uinput-panel.py read (the kernel's absolute times, and when
# they became readable), and by libinput.
UPANEL=$HERE/uinput-panel.py
# The hop docs/routing.md measured on Linux 6.1 (its "Times" table: 215,855 µs at most, alone
# on a loaded host), rounded up: on a kernel that stamps the write, a frame reaches the copy
# within this of the panel's write, plus the hold for a held touch's frames.
HOP_BOUND_US=${HOP_BOUND_US:-250000}

takes_times() { printf '%s\n' "6.5" "$(uname -r | cut -d. -f1,2)" | sort -CV; }   # Linux >= 6.5

# fresh_player_files NAME: no $W/NAME.go, .go.N or .played left by an earlier test of the same
# name (test_routing_hold's panel and the two-panel unplug test's are both "hold"): a stale go
# file starts the new panel playing before its reader is open, and a stale played log says
# "played" before it has.
fresh_player_files() {
    rm -f "$W/$1.go" "$W/$1.go".* "$W/$1.played"
}

# start_routed NAME CONFIG RECORDING [EVENTS...]: the package's udev rule installed, a uinput
# panel made from RECORDING (uinput-panel.py play: it plays RECORDING once $W/NAME.go exists,
# then each EVENTS file once $W/NAME.go.2, .3 … exists, logging to $W/NAME.played), and
# `gestured run --config CONFIG` reading it and holding its copy. Sets PANEL, PLAYER, COPY, and
# keeps `libinput list-devices` in $W/NAME.list-devices.
start_routed() {
    local name=$1 config=$2; shift 2
    install_package_rule
    fresh_player_files "$name"
    "$PYTHON" -u "$UPANEL" play "$1" "$W/$name.go" "$W/$name.played" "${@:2}" > "$W/$name.panel.out" 2>&1 &
    PLAYER=$!; DEVICE_PIDS+=("$PLAYER")
    poll node_in "$W/$name.panel.out" || { log "no uinput panel: $(cat "$W/$name.panel.out")"; return 1; }
    PANEL=$NODE
    udev_property "$PANEL" ID_INPUT_TOUCHSCREEN=1 || return 1
    RUN_CONFIG=$config start_gestured "$name"
    wait_for "$W/$name.err" "reading the touchscreen .*path=$PANEL$" || return 1
    wait_for "$W/$name.err" "virtual panel created copy=/dev/input/event" || return 1
    COPY=$(grep -o 'virtual panel created copy=/dev/input/event[0-9]*' "$W/$name.err" | tail -n 1 | cut -d= -f2)
    udev_property "$COPY" GESTURED_PANEL_COPY=1 || return 1
    libinput list-devices > "$W/$name.list-devices" 2>&1
}

# routed_play NAME CONFIG RECORDING HOLD_US: RECORDING played on a uinput panel under
# `gestured run --config CONFIG`; the copy recorded while it plays and compared with the dry
# run (`gestured replay --panel`): the same description, the same events with the same values
# in the same frames, and times: on Linux >= 6.5 each frame's time on the copy is exactly the
# panel's time of the same frame (the start plus its recording time); on older kernels it is
# no earlier than that, and at most HOP_BOUND_US (+ HOLD_US, the configuration's longest
# hold, for a held frame) after the panel's frame was written. Leaves $W/NAME.* (the dry run's
# JSON Lines, the copy's events, libinput's view of the copy) for the caller's checks.
routed_play() {
    local name=$1 config=$2 rec=$3 hold=$4
    "$G" replay --config "$config" --panel "$W/$name.dry.evemu" "$rec" > "$W/$name.dry.jsonl" 2> "$W/$name.dry.err" \
        || { log "the dry run failed: $(cat "$W/$name.dry.err")"; return 1; }
    start_routed "$name" "$config" "$rec" || return 1
    start_libinput "$W/$name.libinput" --device "$COPY" || return 1
    evemu-record "$COPY" "$W/$name.copy.evemu" 2> "$W/$name.copy.err" &
    local recorder=$!; HELPER_PIDS+=("$recorder")
    wait_for "$W/$name.copy.evemu" '^# EVEMU' || return 1
    "$PYTHON" -u "$UPANEL" read "$COPY" "$W/$name.copy.times" &
    HELPER_PIDS+=("$!")
    wait_for "$W/$name.copy.times" '^ready' || return 1
    touch "$W/$name.go"
    wait_for "$W/$name.played" '^played' || return 1
    local want; want=$(frames_in "$W/$name.dry.evemu")
    [ "$want" -gt 0 ] || { log "the dry run forwards nothing: the comparison would prove nothing"; return 1; }
    poll holds_frames "$W/$name.copy.evemu" "$want"
    settle
    stop_gestured || return 1
    kill "$recorder" 2>/dev/null; wait "$recorder" 2>/dev/null
    log "the copy got $(frames_in "$W/$name.copy.evemu") frames; the dry run $want (of $(frames_in "$rec") played)"
    # The description: what the copy declares == the dry run's header.
    grep -E '^(N|I|P|B|A):' "$W/$name.dry.evemu" > "$W/$name.dry.desc"
    grep -E '^(N|I|P|B|A):' "$W/$name.copy.evemu" > "$W/$name.copy.desc"
    diff -u "$W/$name.dry.desc" "$W/$name.copy.desc" > "$W/$name.desc.diff" \
        || { log "the copy's description differs from the dry run's (- dry run, + copy):"; head -n 20 "$W/$name.desc.diff" | sed 's/^/    /'; return 1; }
    # The events: the same, in the same frames, values identical.
    awk '$1 == "E:" { print $3, $4, $5 }' "$W/$name.dry.evemu" > "$W/$name.dry.values"
    awk '$1 == "E:" { print $3, $4, $5 }' "$W/$name.copy.evemu" > "$W/$name.copy.values"
    diff -u "$W/$name.dry.values" "$W/$name.copy.values" > "$W/$name.values.diff" \
        || { log "the copy's events differ from the dry run's (- dry run, + copy):"; head -n 30 "$W/$name.values.diff" | sed 's/^/    /'; return 1; }
    # The times, frame by frame: the dry run's recording time; the copy's absolute time and when
    # it became readable; the panel's start and when it wrote the frame of that recording time.
    awk '$1 == "E:" && $3 == "0000" && $4 == "0000" { split($2, t, "."); print t[1] * 1000000 + t[2] }' "$W/$name.dry.evemu" > "$W/$name.dry.frames"
    awk '$1 == "E:" && $3 == "0000" && $4 == "0000" { split($2, t, "."); print t[1] * 1000000 + t[2], $6 }' "$W/$name.copy.times" > "$W/$name.copy.frames"
    [ "$(wc -l < "$W/$name.copy.frames")" -eq "$want" ] \
        || { log "the time reader got $(wc -l < "$W/$name.copy.frames") frames on the copy, the dry run has $want"; return 1; }
    # NAME.hop: per frame, the recording time, the copy's time minus the panel's time of that
    # frame (start + recording time), minus when the panel wrote it, and when it became readable
    # on the copy minus when the panel wrote it (µs).
    paste -d' ' "$W/$name.dry.frames" "$W/$name.copy.frames" | awk -v played="$W/$name.played" '
        BEGIN { while ((getline line < played) > 0) { split(line, f, " ")
                    if (f[1] == "start") { if (!start) start = f[2] } else if (f[1] != "played") wrote[f[1]] = f[2] } }
        { if (!($1 in wrote)) { print "no panel frame at " $1 > "/dev/stderr"; exit 1 }
          print $1, $2 - (start + $1), $2 - wrote[$1], $3 - wrote[$1] }' > "$W/$name.hop" || return 1
    if takes_times; then
        awk '$2 != 0 { bad++ } END { exit bad > 0 }' "$W/$name.hop" \
            || { log "Linux $(uname -r) keeps written times, but $(awk '$2 != 0' "$W/$name.hop" | wc -l) frames on the copy do not carry the panel's time:"
                 awk '$2 != 0' "$W/$name.hop" | head -n 5 | sed 's/^/    /'; return 1; }
        log "every one of the copy's $want frames carries exactly the panel's time of that frame (Linux $(uname -r))"
    else
        awk -v bound="$HOP_BOUND_US" -v hold="$hold" '$2 < 0 || $3 > bound + hold { bad++ } END { exit bad > 0 }' "$W/$name.hop" \
            || { log "frames on the copy earlier than the panel's, or later than $HOP_BOUND_US µs (+ the hold, $hold µs) after its write:"
                 awk -v bound="$HOP_BOUND_US" -v hold="$hold" '$2 < 0 || $3 > bound + hold' "$W/$name.hop" | head -n 5 | sed 's/^/    /'; return 1; }
        log "the copy's frame times minus the panel's writes, µs (Linux $(uname -r) stamps the write): $(cut -d' ' -f3 "$W/$name.hop" | sort -n | awk '{ a[NR] = $1 } END { printf "min %d p50 %d p99 %d max %d", a[1], a[int(NR * 0.5 + 0.5)], a[int(NR * 0.99 + 0.5)], a[NR] }')"
    fi
    kill "$LIPID" 2>/dev/null
}

# ids_on EVEMU: how many touches (new ABS_MT_TRACKING_IDs) an evemu recording holds.
ids_on() { awk '$1 == "E:" && $3 == "0003" && $4 == "0039" && $5 + 0 >= 0 { n++ } END { print n + 0 }' "$1"; }

# The routing golden's session (claimed, forwarded, held then forwarded by time, by lift and by
# distance, held then claimed by a second finger, three forwarded fingers claimed late) played
# live: the copy == the dry run; libinput calls the copy a touchscreen of the panel's size and
# sees the forwarded touches; the late claim cancels every forwarded finger with no TOUCH_UP.
test_routing_copy_equals_dry_run() {
    local name=route
    routed_play "$name" "$(readlink -f Tests/Fixtures/replay/routing-kiosk.json5)" "$FIXTURES/routing-session.evemu" 150000 || return 1
    remove_package_rule
    local lp lc
    lp=$(awk -v n="$PANEL" '/^Device:/ { block = "" } { block = block $0 "\n" } /^Kernel:/ { k = $2 } /^$/ { if (k == n) print block; k = "" }' "$W/$name.list-devices" | grep -E '^(Size|Capabilities):')
    lc=$(awk -v n="$COPY" '/^Device:/ { block = "" } { block = block $0 "\n" } /^Kernel:/ { k = $2 } /^$/ { if (k == n) print block; k = "" }' "$W/$name.list-devices" | grep -E '^(Size|Capabilities):')
    [ -n "$lc" ] && [ "$lp" = "$lc" ] && echo "$lc" | grep -qE 'Capabilities: *touch *$' \
        || { log "libinput list-devices: panel '$lp', copy '$lc' (want the same size, touch only)"; return 1; }
    log "libinput, panel and copy: $(echo "$lc" | tr -s ' ' | tr '\n' ' ')"
    # The dry run forwards 7 touches (a drag, three held map touches, three fingers claimed late).
    local forwarded; forwarded=$(ids_on "$W/$name.dry.evemu")
    [ "$forwarded" -eq 7 ] || { log "the dry run forwards $forwarded touches, the session 7"; return 1; }
    grep -E 'TOUCH_(DOWN|UP|CANCEL)' "$W/$name.libinput" | sed 's/^/    /'
    local downs ups cancels
    downs=$(grep -c TOUCH_DOWN "$W/$name.libinput"); ups=$(grep -c TOUCH_UP "$W/$name.libinput")
    cancels=$(grep -c TOUCH_CANCEL "$W/$name.libinput")
    # The last three downs are the late-claimed fingers: they end in a cancel, never an up.
    local tail_events; tail_events=$(grep -oE 'TOUCH_(DOWN|UP|CANCEL)' "$W/$name.libinput" | tail -n 6 | tr '\n' ' ')
    [ "$downs" -eq 7 ] && [ "$ups" -eq 4 ] && [ "$cancels" -eq 3 ] \
        && [ "$tail_events" = "TOUCH_DOWN TOUCH_DOWN TOUCH_DOWN TOUCH_CANCEL TOUCH_CANCEL TOUCH_CANCEL " ] \
        || { log "libinput on the copy: $downs TOUCH_DOWN, $ups TOUCH_UP, $cancels TOUCH_CANCEL, ending '$tail_events'" \
                 "(want 7, 4, 3: the three late-claimed fingers cancelled, not lifted)"; return 1; }
    log "libinput on the copy: 7 TOUCH_DOWN, 4 TOUCH_UP, the late claim's 3 fingers TOUCH_CANCEL"
}

# Hold and decide on a { hold: 0.15, fingers: 3 } page: a three-finger gesture never reaches the
# copy; a one-finger touch reaches it once the hold ran out (not before: when it became
# readable), every frame in order with its original time (checked by routed_play).
test_routing_hold_and_decide() {
    local name=hold
    routed_play "$name" "$(readlink -f Tests/Fixtures/replay/routing-hold.json5)" "$FIXTURES/routing-hold.evemu" 150000 || return 1
    remove_package_rule
    local forwarded; forwarded=$(ids_on "$W/$name.copy.evemu")
    [ "$forwarded" -eq 1 ] || { log "$forwarded touches reached the copy: want the one-finger touch alone"; return 1; }
    # A claimed touch's deliveries carry no route (docs/events.md): a finger of the three is
    # delivered held, then, once claimed, with none (as the dry run: the others wait unseen).
    local claimed; claimed=$(python3 -c '
import json, sys
held, claimed = set(), set()
for line in open(sys.argv[1]):
    event = json.loads(line)
    for touch in event.get("touches", []) if event.get("type") == "touches" else []:
        if touch.get("route") == "held": held.add(touch["id"])
        elif "route" not in touch and touch["id"] in held: claimed.add(touch["id"])
print(len(claimed))' "$W/$name.jsonl")
    [ "$claimed" -ge 1 ] || { log "gestured claimed none of the three fingers"; return 1; }
    # The one-finger touch landed at 0.67 s of the recording (after the three fingers
    # and the 400 ms wait): its first frame on the copy became readable at least the hold after
    # the panel wrote it.
    local first; first=$(head -n 1 "$W/$name.hop")
    echo "$first" | awk '{ exit !($4 >= 150000) }' \
        || { log "the held touch reached the copy $(echo "$first" | cut -d' ' -f4) µs after the panel wrote its first frame: before the hold ran out"; return 1; }
    [ "$(grep -c TOUCH_DOWN "$W/$name.libinput")" -eq 1 ] && [ "$(grep -c TOUCH_UP "$W/$name.libinput")" -eq 1 ] \
        || { log "libinput on the copy: want one TOUCH_DOWN and one TOUCH_UP:"; grep TOUCH_ "$W/$name.libinput" | head | sed 's/^/    /'; return 1; }
    log "three fingers claimed, none on the copy; the one finger reached it $(echo "$first" | cut -d' ' -f4) µs after its first frame was written (hold 150000 µs)"
}

# lines_after FILE LINE PATTERN COUNT: FILE has COUNT lines matching PATTERN from line LINE on.
lines_after() { [ "$(tail -n +"$2" "$1" | grep -cE -- "$3")" -ge "$4" ]; }

# on_copy LIBINPUT NODE WHAT: how many WHAT (TOUCH_DOWN …) libinput printed for the device NODE.
on_copy() { grep -cE "^[- ]*$(basename "$2") .*$3" "$1"; }

# fingers_down EVENTS SLOT:ID:X:Y...: one frame putting each finger down (evemu E: lines at $T).
fingers_down() {
    local f; for f in "$@"; do IFS=: read -r slot id x y <<< "$f"
        ev 3 0x2f "$slot"; ev 3 0x39 "$id"; ev 3 0x35 "$x"; ev 3 0x36 "$y"; done
    ev 1 0x14a 1; syn
}

# kill -9 of gestured while three forwarded fingers are down on its copy: libinput (the whole
# seat, as a compositor reads it) cancels all three on the copy as it goes, no TOUCH_UP; the
# panel's next touches, no longer grabbed, reach libinput directly.
test_routing_kill9_mid_touch() {
    local name=rk9 config; config=$(readlink -f Tests/Fixtures/replay/routing-forward-all.json5)
    T=0.000000
    { cat "$OWN/panel.desc"; fingers_down 0:10:3000:3000 1:11:6000:3000 2:12:9000:3000
      T=0.020000; ev 3 0x2f 0; ev 3 0x35 3100; ev 3 0x2f 1; ev 3 0x35 6100; ev 3 0x2f 2; ev 3 0x35 9100; syn; } > "$W/$name.evemu"
    # Afterwards, on the panel: every finger lifted (libinput never saw them), then eight taps.
    { for s in 0 1 2; do ev 3 0x2f $s; ev 3 0x39 -1; done; ev 1 0x14a 0; syn
      grep '^E:' "$OWN/one-finger-taps.evemu" | awk '{ split($2, t, "."); $2 = sprintf("%d.%06d", t[1] + 1, t[2]); print }'; } > "$W/$name.after.evemu"
    start_libinput "$W/$name.libinput" || return 1
    start_routed "$name" "$config" "$W/$name.evemu" "$W/$name.after.evemu" || return 1
    local copy=$COPY
    wait_for "$W/$name.libinput" "^[- ]*$(basename "$copy") .*DEVICE_ADDED" || return 1
    touch "$W/$name.go"
    wait_for "$W/$name.libinput" "^[- ]*$(basename "$copy") .*TOUCH_DOWN" 3 || return 1
    kill -KILL "$GPID"; wait "$GPID" 2>/dev/null; GPID=
    wait_for "$W/$name.libinput" "^[- ]*$(basename "$copy") .*DEVICE_REMOVED" || return 1
    [ ! -e "$copy" ] || { log "the copy $copy outlived gestured"; return 1; }
    local before; before=$(wc -l < "$W/$name.libinput")
    touch "$W/$name.go.2"
    wait_for "$W/$name.libinput" "^[- ]*$(basename "$PANEL") .*TOUCH_UP" 8 || return 1
    kill "$LIPID" 2>/dev/null; remove_package_rule
    local downs ups cancels
    downs=$(on_copy "$W/$name.libinput" "$copy" TOUCH_DOWN); ups=$(on_copy "$W/$name.libinput" "$copy" TOUCH_UP)
    cancels=$(on_copy "$W/$name.libinput" "$copy" TOUCH_CANCEL)
    [ "$downs" -eq 3 ] && [ "$ups" -eq 0 ] && [ "$cancels" -eq 3 ] \
        || { log "on the copy: $downs TOUCH_DOWN, $ups TOUCH_UP, $cancels TOUCH_CANCEL (want 3, 0, 3)"; return 1; }
    tail -n +"$before" "$W/$name.libinput" > "$W/$name.after.libinput"
    local pd pu; pd=$(on_copy "$W/$name.after.libinput" "$PANEL" TOUCH_DOWN); pu=$(on_copy "$W/$name.after.libinput" "$PANEL" TOUCH_UP)
    [ "$pd" -eq 8 ] && [ "$pu" -eq 8 ] || { log "after the kill, libinput saw $pd TOUCH_DOWN, $pu TOUCH_UP of the panel's 8 taps"; return 1; }
    log "kill -9 with 3 forwarded fingers down: the copy's 3 TOUCH_CANCEL, no TOUCH_UP, DEVICE_REMOVED; then the panel's 8 taps reached libinput"
}

# Unplugging the panel with a forwarded finger down ends that finger on the copy and removes
# the copy; the panel plugged in again gets a new copy, which forwards.
test_routing_replug_recreates_the_copy() {
    local name=rrp config; config=$(readlink -f Tests/Fixtures/replay/routing-forward-all.json5)
    T=0.000000
    { cat "$OWN/panel.desc"; fingers_down 0:20:4000:4000; T=0.020000; ev 3 0x35 4100; syn; } > "$W/$name.evemu"
    { cat "$OWN/panel.desc"; fingers_down 0:30:5000:5000; T=0.050000; ev 3 0x39 -1; ev 1 0x14a 0; syn; } > "$W/$name.2.evemu"
    start_libinput "$W/$name.libinput" || return 1
    start_routed "$name" "$config" "$W/$name.evemu" || return 1
    local first=$COPY
    wait_for "$W/$name.libinput" "^[- ]*$(basename "$first") .*DEVICE_ADDED" || return 1
    touch "$W/$name.go"
    wait_for "$W/$name.libinput" "^[- ]*$(basename "$first") .*TOUCH_DOWN" || return 1
    remove_device "$PLAYER"
    wait_for "$W/$name.err" "virtual panel removed copy=$first reason=.the panel is gone" || return 1
    wait_for "$W/$name.libinput" "^[- ]*$(basename "$first") .*DEVICE_REMOVED" || return 1
    # The kernel hands the numbers on: the new panel and copy may take the old ones, so what
    # follows is read after this line.
    local mark; mark=$(( $(wc -l < "$W/$name.libinput") + 1 ))
    rm -f "$W/$name.go2" "$W/$name.played2"
    "$PYTHON" -u "$UPANEL" play "$W/$name.2.evemu" "$W/$name.go2" "$W/$name.played2" > "$W/$name.panel2.out" 2>&1 &
    DEVICE_PIDS+=("$!")
    poll node_in "$W/$name.panel2.out" || { log "no second uinput panel: $(cat "$W/$name.panel2.out")"; return 1; }
    wait_for "$W/$name.err" "reading the touchscreen .*path=$NODE$" || return 1
    wait_for "$W/$name.err" "virtual panel created copy=/dev/input/event" 2 || return 1
    local second; second=$(grep -o 'virtual panel created copy=/dev/input/event[0-9]*' "$W/$name.err" | tail -n 1 | cut -d= -f2)
    [ -e "$second" ] || { log "the new copy $second has no node"; return 1; }
    poll lines_after "$W/$name.libinput" "$mark" "^[- ]*$(basename "$second") .*DEVICE_ADDED" 1 || { log "libinput never added $second"; return 1; }
    touch "$W/$name.go2"
    poll lines_after "$W/$name.libinput" "$mark" "^[- ]*$(basename "$second") .*TOUCH_UP" 1 || { log "the tap on the new panel never reached libinput through $second"; return 1; }
    stop_gestured || return 1
    kill "$LIPID" 2>/dev/null; remove_package_rule
    head -n "$((mark - 1))" "$W/$name.libinput" > "$W/$name.first.libinput"
    tail -n +"$mark" "$W/$name.libinput" > "$W/$name.second.libinput"
    local d1 u1 c1 d2 u2
    d1=$(on_copy "$W/$name.first.libinput" "$first" TOUCH_DOWN); u1=$(on_copy "$W/$name.first.libinput" "$first" TOUCH_UP)
    c1=$(on_copy "$W/$name.first.libinput" "$first" TOUCH_CANCEL)
    d2=$(on_copy "$W/$name.second.libinput" "$second" TOUCH_DOWN); u2=$(on_copy "$W/$name.second.libinput" "$second" TOUCH_UP)
    # gestured lifts the forwarded finger on the copy before it removes it: a TOUCH_UP, not
    # the cancel libinput gives the touches of a device that vanishes.
    [ "$d1" -eq 1 ] && [ "$u1" -eq 1 ] && [ "$c1" -eq 0 ] && [ "$d2" -eq 1 ] && [ "$u2" -eq 1 ] \
        || { log "libinput: first copy $d1 down, $u1 up, $c1 cancelled (want 1, 1, 0); second copy $d2 down, $u2 up (want 1, 1)"; return 1; }
    log "unplugged with a finger down: TOUCH_UP on $first, then DEVICE_REMOVED; replugged: $second made, a tap reached libinput through it"
}

# SYN_DROPPED on a routed panel: with gestured stopped (SIGSTOP), a flood overflows its buffer
# while finger 200 lifts and 201 lands in its slot and 300 lands in a new one; finger 100 stays
# down. After SIGCONT the resync lifts 200 on the copy (before anything else is played), 100
# stays down, 201 and 300 begin; at the end no finger is down on the copy.
test_routing_syn_dropped_lifts_vanished_fingers() {
    local name=rsd config; config=$(readlink -f Tests/Fixtures/replay/routing-forward-all.json5)
    T=0.000000
    { cat "$OWN/panel.desc"; fingers_down 0:100:3000:3000 1:200:9000:3000; } > "$W/$name.evemu"
    { ev 3 0x2f 0; for i in $(seq 1500); do ev 3 0x35 $((3000 + (i % 2) * 40)); syn; done
      ev 3 0x2f 1; ev 3 0x39 -1; syn; ev 3 0x39 201; ev 3 0x35 12000; ev 3 0x36 6000; syn
      ev 3 0x2f 2; ev 3 0x39 300; ev 3 0x35 15000; ev 3 0x36 8000; syn; } > "$W/$name.flood.evemu"
    { for s in 0 1 2; do ev 3 0x2f $s; ev 3 0x39 -1; done; ev 1 0x14a 0; syn; } > "$W/$name.lift.evemu"
    start_routed "$name" "$config" "$W/$name.evemu" "$W/$name.flood.evemu" "$W/$name.lift.evemu" || return 1
    start_libinput "$W/$name.libinput" --device "$COPY" || return 1
    touch "$W/$name.go"
    wait_for "$W/$name.libinput" TOUCH_DOWN 2 || return 1
    kill -STOP "$GPID"
    touch "$W/$name.go.2"
    wait_for "$W/$name.played" '^played' 2; local rc=$?
    kill -CONT "$GPID"
    [ $rc -eq 0 ] || return 1
    wait_for "$W/$name.jsonl" '"action":"resynchronised"' || return 1
    wait_for "$W/$name.libinput" TOUCH_DOWN 4 || return 1
    sleep 0.5   # anything else the resync wrote
    cp "$W/$name.libinput" "$W/$name.resync.libinput"
    touch "$W/$name.go.3"
    wait_for "$W/$name.libinput" TOUCH_UP 4 || return 1
    settle; stop_gestured || return 1
    kill "$LIPID" 2>/dev/null; remove_package_rule
    grep -E 'TOUCH_(DOWN|UP|CANCEL)' "$W/$name.libinput" | sed 's/^/    /'
    local ups; ups=$(grep -cE 'TOUCH_(UP|CANCEL)' "$W/$name.resync.libinput")
    [ "$ups" -eq 1 ] && grep -qE 'TOUCH_(UP|CANCEL) .*	1 \(1\)' "$W/$name.resync.libinput" \
        || { log "after the resync, before the lift: $ups fingers ended on the copy (want one: 200, in slot 1)"; return 1; }
    [ "$(grep -c TOUCH_DOWN "$W/$name.libinput")" -eq 4 ] && [ "$(grep -cE 'TOUCH_(UP|CANCEL)' "$W/$name.libinput")" -eq 4 ] \
        || { log "want 4 fingers down and 4 ended on the copy"; return 1; }
    log "SYN_DROPPED: the vanished finger lifted on the copy at the resync, the survivor stayed down, two new fingers began; none left down"
}

# shellcheck source=map-tests.sh
. "$HERE/map-tests.sh"
# shellcheck source=two-panel-tests.sh
. "$HERE/two-panel-tests.sh"
# shellcheck source=calibrate-tests.sh
. "$HERE/calibrate-tests.sh"

run_test() {
    local start end
    if [[ $1 == test_corpus_* ]] && [ "$HAVE_CORPUS" = 0 ]; then
        if [ "${CI:-}" = true ] || [ "${CI:-}" = 1 ]; then
            echo "FAIL $1: CI=true but $CORPUS_NOTE"
            FAILURES=$((FAILURES + 1))
        else
            SKIPS=$((SKIPS + 1))
        fi
        return
    fi
    echo "== $1"
    start=$(now)
    if "$1"; then result=PASS; PASSES=$((PASSES + 1)); else result=FAIL; FAILURES=$((FAILURES + 1)); fi
    end=$(now)
    # Whatever a failed test left behind must not disturb the next one.
    [ -n "$GPID" ] && kill -0 "$GPID" 2>/dev/null && { kill -CONT "$GPID"; kill -KILL "$GPID"; wait "$GPID" 2>/dev/null; }
    for pid in "${DEVICE_PIDS[@]}" "${HELPER_PIDS[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
    DEVICE_PIDS=(); HELPER_PIDS=(); GPID=
    awk -v r="$result" -v t="$1" -v s="$start" -v e="$end" 'BEGIN { printf "%s %s (%.1f s)\n", r, t, e - s }'
}

echo "kernel $(uname -r); gestured $("$G" --version)"
without_grab "$SHIPPED_CONFIG" "$CONFIG" \
    || { echo "FAIL: $SHIPPED_CONFIG could not be copied without its grab to $CONFIG"; echo "kernel: 0 passed, 1 failed"; exit 1; }
TESTS="$*"
[ -n "${TESTS// }" ] || TESTS=${KERNEL_TESTS:-test_four_finger_drag test_one_finger_taps_through_symlink test_lobby_session
    test_protocol_a_through_mtdev test_unplug_mid_gesture test_syn_dropped
    test_touchpad_beside_touchscreen test_record_and_replay test_socket_subscriber_equals_replay
    test_grab_takes_the_panel test_unreadable_device_message
    test_udev_runs_in_the_guest test_ntrig_like_touchscreen_with_udev test_misdescribed_panel test_udev_calibration
    test_corpus_four_finger_drag test_corpus_one_finger_taps test_corpus_single_slot_quanta
    test_corpus_protocol_a_through_mtdev test_corpus_touchpad_beside_touchscreen
    test_panel_copy_is_the_panel_for_udev_and_libinput test_panel_copy_forwards_frames_to_libinput test_panel_copy_hop
    test_panel_copy_palm_cancels_the_touch test_panel_copy_kill9_returns_the_panel test_panel_copy_follows_replug
    test_panel_copy_without_uinput test_panel_copy_uinput_not_writable
    test_routing_copy_equals_dry_run test_routing_hold_and_decide test_routing_kill9_mid_touch
    test_routing_replug_recreates_the_copy test_routing_syn_dropped_lifts_vanished_fingers
    test_map_binds_two_panels test_two_panels_at_once test_two_panels_unplug_and_replug
    test_calibrate}
for t in $TESTS; do run_test "$t"; done
# The outputs are kept in the host directory shared as VM_RW_DIR, when there is one (without
# the sockets a test left behind: 9p cannot create them).
find "$W" -type s -delete
[ -s /job/rwdir ] && cp -r "$W"/. "$(cat /job/rwdir)"/ && echo "kernel tests: outputs in $(cat /job/rwdir)"
[ "$SKIPS" -eq 0 ] || echo "kernel: $SKIPS corpus tests skipped ($CORPUS_NOTE)"
# The plain closing line CI reads, as swift test prints its own.
echo "kernel: $PASSES passed, $FAILURES failed"
exit $FAILURES
