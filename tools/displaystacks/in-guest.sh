#!/bin/bash
# What each display stack makes of a late claim: runs INSIDE the kernel-test VM
# (tools/vmtest/vm-run.sh; scripts/display-stacks.sh sets it all up), as root, in the package
# root. Usage: in-guest.sh OUT RUN...   RUN: x-xi2, x-chromium, cage-chromium
#
# Each run: a uinput panel made from the session's recording (tools/vmtest/uinput-panel.py),
# `gestured run` with late-claim.json5 (every touch forwarded, three claiming recognizers) reading
# it and writing its virtual panel (the copy), `libinput debug-events` and `evemu-record` on the
# copy, then the display stack reading the copy as a kiosk's would:
#   x-xi2          Xorg (dummy video, xf86-input-libinput from udev) and `xinput test-xi2 --root`
#   x-chromium     the same Xorg and Chromium showing page.html (touch and click events logged)
#   cage-chromium  cage (wlroots: headless output, libinput input, seatd) running Chromium on
#                  Wayland with WAYLAND_DEBUG=client (every wl_touch event it receives)
# Then the session is played; what each observer saw lands in OUT/RUN/, and
# summarise.py prints it per episode. A measurement, not a test: it fails only when a stack or
# observer did not come up, never on what a stack makes of the touches.
set -u
OUT=$(readlink -f "$1"); shift
HERE=$(dirname "$(readlink -f "$0")")
G=$(readlink -f "${GESTURED:-.build/debug/gestured}")
PYTHON=/usr/bin/python3
UPANEL=$(readlink -f tools/vmtest/uinput-panel.py)
CONFIG=$HERE/late-claim.json5
RECORDING=${RECORDING:-$OUT/late-claim.evemu}
# Chromium starts on about:blank; cdp.py writes page.html into its tab.
CDP_PORT=9222
# Chromium with as few processes and background services as it takes to show one page: the
# emulated guest is slow, and a service that crashes there (the network service did) can keep
# the page from loading. No sandbox: the guest's job runs as root.
CHROMIUM_FLAGS="--no-sandbox --disable-gpu --in-process-gpu --no-first-run --no-default-browser-check
    --disable-dev-shm-usage --disable-extensions --disable-background-networking --disable-component-update
    --disable-sync --disable-features=Translate,MediaRouter,OptimizationHints,OnDeviceModelPerformanceParams"
# How long to wait for what should come (a node, a log line, a browser's page), on the clock:
# Chromium takes a minute or more to start under software emulation on a busy host.
WAIT_SECONDS=${WAIT_SECONDS:-600}
export SYSTEMD_IGNORE_CHROOT=1
PIDS=()

log() { echo "display-stacks: $*"; }

# wait_for FILE PATTERN [PID]: until FILE has a line matching PATTERN; fails at once when the
# process PID (the one writing FILE) is gone.
wait_for() {
    local until=$((SECONDS + WAIT_SECONDS))
    until grep -q -- "$2" "$1" 2>/dev/null; do
        if [ "$SECONDS" -ge "$until" ] || { [ -n "${3:-}" ] && ! kill -0 "$3" 2>/dev/null; }; then
            log "no '$2' in $1${3:+ (process $3 $(kill -0 "$3" 2>/dev/null && echo running || echo gone))}:"
            tail -n 20 "$1" 2>&1 | sed 's/^/    /'
            return 1
        fi
        sleep 0.2
    done
}

stop_all() {
    local pid
    for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null; done
    sleep 2
    for pid in "${PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
    PIDS=()
}

# The guest has no network but loopback (DevTools), and a tmpfs /dev/shm (Chromium, Xorg).
ip link set lo up
mkdir -p /dev/shm && mount -t tmpfs tmpfs /dev/shm

# The package's udev rule, as a kiosk has it: it marks the copy and hands it the panel's
# properties (docs/routing.md, "udev properties").
mkdir -p /etc/udev/rules.d /run/gestured
cp systemd/70-gestured-touchscreen.rules /etc/udev/rules.d/
udevadm control --reload

# Sockets and browser profiles live on the guest's tmpfs: OUT is a 9p share of the host's,
# which takes no Unix socket.

# start_routing DIR: the panel and gestured with its copy; sets PANEL, COPY.
start_routing() {
    local d=$1
    "$PYTHON" -u "$UPANEL" play "$RECORDING" "$d/go" "$d/played" > "$d/panel.out" 2>&1 &
    PIDS+=("$!")
    wait_for "$d/panel.out" '^node /dev/input/event' || return 1
    PANEL=$(sed -n 's/^node //p' "$d/panel.out")
    udevadm settle --timeout=60
    "$G" run --config "$CONFIG" --device "$PANEL" --socket /tmp/display-stacks-gestured.sock --stdout > "$d/gestured.jsonl" 2> "$d/gestured.err" &
    PIDS+=("$!")
    wait_for "$d/gestured.err" "virtual panel created copy=/dev/input/event" "$!" || return 1
    COPY=$(grep -o 'virtual panel created copy=/dev/input/event[0-9]*' "$d/gestured.err" | tail -n 1 | cut -d= -f2)
    udevadm settle --timeout=60
    libinput debug-events --device "$COPY" > "$d/libinput.txt" 2>&1 &
    PIDS+=("$!")
    evemu-record "$COPY" "$d/copy.evemu" 2> "$d/copy.err" &
    PIDS+=("$!")
    wait_for "$d/libinput.txt" DEVICE_ADDED && wait_for "$d/copy.evemu" '^# EVEMU'
}

# start_x DIR: Xorg on :0; waits until xf86-input-libinput has added the copy.
start_x() {
    local d=$1
    rm -f /tmp/.X0-lock
    /usr/lib/xorg/Xorg :0 -config "$HERE/xorg.conf" -noreset -nolisten tcp -logfile "$d/Xorg.log" > "$d/Xorg.out" 2>&1 &
    PIDS+=("$!")
    local xorg=$!
    export DISPLAY=:0
    wait_for "$d/Xorg.log" "config/udev: Adding input device .*($COPY)" $xorg || { tail -n 20 "$d/Xorg.out"; return 1; }
    wait_for "$d/Xorg.log" "$(basename "$COPY") .*is tagged by udev as: Touchscreen" $xorg || return 1
    local until=$((SECONDS + WAIT_SECONDS))
    until xinput list > "$d/xinput-list.txt" 2>&1; do
        [ "$SECONDS" -lt "$until" ] || { log "X did not answer xinput list"; return 1; }
        sleep 1
    done
}

# start_chromium DIR: Chromium on X showing page.html; waits until the page is ready.
start_chromium() {
    local d=$1
    chromium $CHROMIUM_FLAGS --user-data-dir=/tmp/display-stacks-profile --remote-debugging-port=$CDP_PORT \
        --window-position=0,0 --window-size=1920,1080 --kiosk about:blank > "$d/chromium.out" 2>&1 &
    PIDS+=("$!")
    "$PYTHON" "$HERE/cdp.py" load $CDP_PORT "$HERE/page.html" "$WAIT_SECONDS"
}

# start_cage DIR: seatd, then cage (as nobody: it refuses to run as root) running Chromium on
# Wayland; waits until the page is ready.
start_cage() {
    local d=$1
    # Not bound to a VT: the guest's console is a serial line (seatd's SEATD_VTBOUND).
    SEATD_VTBOUND=0 seatd -u nobody -g nogroup -l info > "$d/seatd.out" 2>&1 &
    PIDS+=("$!")
    wait_for "$d/seatd.out" 'seatd started' || return 1
    # Its home and runtime directory on the guest's tmpfs: OUT is a 9p share of the host's.
    local home=/tmp/display-stacks-home; rm -rf "$home"; mkdir -p "$home"; chown nobody:nogroup "$home"; chmod 700 "$home"
    env -u DISPLAY HOME="$home" XDG_RUNTIME_DIR="$home" LIBSEAT_BACKEND=seatd \
        WLR_BACKENDS=headless,libinput WLR_RENDERER=pixman WLR_HEADLESS_OUTPUTS=1 \
        WAYLAND_DEBUG=client \
        setpriv --reuid=nobody --regid=nogroup --clear-groups \
        cage -d -- chromium --ozone-platform=wayland $CHROMIUM_FLAGS --user-data-dir="$home/profile" \
        --remote-debugging-port=$CDP_PORT --kiosk about:blank > "$d/cage.out" 2>&1 &
    PIDS+=("$!")
    "$PYTHON" "$HERE/cdp.py" load $CDP_PORT "$HERE/page.html" "$WAIT_SECONDS"
}

# play DIR: the session on the panel, then time for the stack to deliver what is queued
# (Chromium in the slow guest dispatched a click up to 4 s after its touchend).
play() {
    local d=$1
    touch "$d/go"
    wait_for "$d/played" '^played' || return 1
    sleep 10
}

run() {
    local name=$1 d=$OUT/$1 started=$SECONDS
    rm -rf "$d" /tmp/display-stacks-profile; mkdir -p "$d"
    log "$name: starting"
    start_routing "$d" || return 1
    case $name in
        x-xi2)
            start_x "$d" || return 1
            xinput test-xi2 --root > "$d/xi2.txt" 2>&1 &
            PIDS+=("$!")
            sleep 2
            play "$d" || return 1 ;;
        x-chromium)
            start_x "$d" || return 1
            start_chromium "$d" || return 1
            play "$d" || return 1
            "$PYTHON" "$HERE/cdp.py" log $CDP_PORT > "$d/page.jsonl" || return 1 ;;
        cage-chromium)
            start_cage "$d" || return 1
            play "$d" || return 1
            "$PYTHON" "$HERE/cdp.py" log $CDP_PORT > "$d/page.jsonl" || return 1 ;;
        *) log "unknown run $name"; return 1 ;;
    esac
    log "$name: played in $((SECONDS - started)) s"
}

FAILED=0
for name in "$@"; do
    run "$name" || { log "$name: FAILED"; FAILED=$((FAILED + 1)); }
    stop_all
done
rm -f /etc/udev/rules.d/70-gestured-touchscreen.rules
exit "$FAILED"
