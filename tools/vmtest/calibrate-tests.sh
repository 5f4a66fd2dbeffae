# gestured calibrate's kernel test (issue 31), sourced by kernel-tests.sh: runs in the test VM.
#
# A uinput panel (the project's own, config/recordings/panel.desc) that needs a known matrix:
# `gestured synth` writes taps on the five targets of --points 5 through that matrix (so the
# panel reports them where a panel needing it would), with a double tap and a wild touch among
# them. `gestured calibrate --device NODE --page PORT` runs live while evemu-play plays them; the
# page must serve the current target while it waits; the rule it writes must hold the matrix
# within the stated error, and once installed, udev must give the node the matrix and
# `gestured devices` must show it as udev's.

test_calibrate() {
    local desc=$OWN/panel.desc truth="1.02 0.015 -0.01 -0.012 0.98 0.02" port=47311 cpid
    {
        echo "screen 1920 1080 calibration $truth"
        local tap
        for tap in "240 135" "242 136" "1680 400" "1680 135" "240 945" "1680 945" "960 540"; do
            printf 'down 1 %s\nwait 60ms\nup 1\nwait 700ms\n' "$tap"
        done
    } > "$W/calibrate.touches"
    "$G" synth "$W/calibrate.touches" -o "$W/calibrate.evemu" || return 1
    # The page is served on 127.0.0.1: the guest starts with its loopback interface down.
    ip link set lo up 2>/dev/null || busybox ip link set lo up || { log "cannot bring up the loopback interface"; return 1; }
    make_device "$desc" || return 1
    local dev=$DEVPID node=$NODE
    "$G" calibrate --device "$node" --size 1920x1080 --points 5 --page "$port" --timeout 60 \
        --write-rule "$W/62-gestured-calibration.rules" > "$W/calibrate.out" 2> "$W/calibrate.err" &
    cpid=$!
    HELPER_PIDS+=("$cpid")
    wait_for "$W/calibrate.err" '^gestured calibrate: touch target 1 of 5 at (240, 135) px$' || return 1
    # The page, as a kiosk browser asks for it.
    "$PYTHON" - "$port" > "$W/calibrate.page" <<'EOF' || { log "the page did not answer"; return 1; }
import sys, urllib.request
base = "http://127.0.0.1:%s" % sys.argv[1]
page = urllib.request.urlopen(base + "/").read().decode()
assert 'fetch("/target"' in page, page[:200]
print(urllib.request.urlopen(base + "/target").read().decode())
EOF
    grep -qxF '{"state":"target","index":0,"count":5,"u":0.125,"v":0.125}' "$W/calibrate.page" \
        || { log "the page's target: $(cat "$W/calibrate.page")"; return 1; }
    evemu-play "$node" < "$W/calibrate.evemu" || return 1
    wait "$cpid" || { log "gestured calibrate exited $?:"; sed 's/^/    /' "$W/calibrate.err"; return 1; }
    grep -q '^gestured calibrate: ignored: a double tap on target 1' "$W/calibrate.err" \
        && grep -q '^gestured calibrate: target 2: misclick refused' "$W/calibrate.err" \
        && grep -q '^  RMS: ' "$W/calibrate.err" \
        || { log "no double tap, misclick or RMS:"; sed 's/^/    /' "$W/calibrate.err"; return 1; }
    local fitted
    fitted=$(sed -n 's/.*ENV{LIBINPUT_CALIBRATION_MATRIX}="\([^"]*\)".*/\1/p' "$W/62-gestured-calibration.rules")
    awk -v got="$fitted" -v want="$truth" 'BEGIN { n = split(got, g, " "); split(want, w, " ");
        if (n != 6) exit 1; for (i = 1; i <= 6; i++) if ((g[i] - w[i]) ^ 2 > 0.002 ^ 2) exit 1 }' \
        || { log "fitted [$fitted], want [$truth] within 0.002"; return 1; }
    log "fitted [$fitted] for [$truth]; $(grep '^  RMS: ' "$W/calibrate.err")"
    # Installed, the rule gives the node the matrix, and gestured reads it back from udev.
    mkdir -p /etc/udev/rules.d
    cp "$W/62-gestured-calibration.rules" /etc/udev/rules.d/
    udevadm control --reload; udevadm trigger --action=change --subsystem-match=input; udevadm settle
    local ok=1
    udev_property "$node" "LIBINPUT_CALIBRATION_MATRIX=$fitted" || ok=0
    "$G" devices > "$W/calibrate.devices"
    device_block "$W/calibrate.devices" "$node" | grep -q "from udev's LIBINPUT_CALIBRATION_MATRIX" \
        || { log "gestured devices does not show udev's matrix:"; device_block "$W/calibrate.devices" "$node"; ok=0; }
    rm -f /etc/udev/rules.d/62-gestured-calibration.rules
    udevadm control --reload; udevadm trigger --action=change --subsystem-match=input; udevadm settle
    remove_device "$dev"
    [ "$ok" = 1 ]
}
