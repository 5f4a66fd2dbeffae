# gestured map's kernel test (issue 29), sourced by kernel-tests.sh: runs in the test VM.
#
# Two uinput panels made from one description (the same vendor and product, no ID_PATH, no
# serial: udev gives a virtual device neither), told apart only by the phys each was created
# with (map-panel.py). `gestured map --screens left,right` prompts on stderr; the script
# touches the SECOND panel for "left", touches it again for "right" (bound already: ignored
# with a message), then the FIRST. The fragment must bind left to the second panel's phys and
# right to the first's, and the udev rule, installed in the guest, must give each node its
# GESTURED_SCREEN. A third panel with the phys of gestured's own virtual copy is left out.
# Then a map where one panel is unplugged mid-map and screens stay unbound (reported, the
# bound screen kept, exit status 1), and one stopped by SIGINT (nothing written).

# map_panel NAME PHYS: a panel playing $W/map-tap.evemu each time $W/NAME.go.N appears; sets NODE.
map_panel() {
    "$PYTHON" "$HERE/map-panel.py" "$W/map-tap.evemu" "$2" "$W/$1.go" > "$W/$1.out" 2>&1 &
    DEVICE_PIDS+=("$!")
    MAP_PID=$!
    wait_for "$W/$1.out" "^node /dev/input/event" || return 1
    NODE=$(sed -n 's/^node //p' "$W/$1.out")
    poll test -e "$NODE" || { log "$1: no node $NODE"; return 1; }
}

# map_device_of FRAGMENT SCREEN: the `device:` line of SCREEN's entry in FRAGMENT.
map_device_of() {
    awk -v id="    id: \"$2\"," '$0 == id { found = 1; next } found && /^    device: / { print; exit } /^  },/ { found = 0 }' "$1"
}

# map_by_path FIRST SECOND FIRST_PHYS SECOND_PHYS: a test rule gives each panel an ID_PATH;
# `gestured map` must bind screen a to FIRST and b to SECOND by it, and its rule must match it.
# Leaves its rules installed (the caller removes them).
map_by_path() {
    local first=$1 second=$2 mpid ok=1
    printf 'SUBSYSTEM=="input", KERNEL=="event*", ATTRS{phys}=="%s", ENV{ID_PATH}="pci-0000:00:14.0-usb-0:%s:1.0"\n' \
        "$3" 1 "$4" 2 > /etc/udev/rules.d/59-gestured-map-test.rules
    udevadm control --reload; udevadm trigger --action=change --subsystem-match=input; udevadm settle
    udev_property "$first" ID_PATH=pci-0000:00:14.0-usb-0:1:1.0 && udev_property "$second" ID_PATH=pci-0000:00:14.0-usb-0:2:1.0 \
        || return 1
    "$G" map --screens a,b --timeout 25 --udev-rule "$W/61-by-path.rules" > "$W/map-path.json5" 2> "$W/map-path.err" &
    mpid=$!
    wait_for "$W/map-path.err" '^gestured map: touch screen "a"' || return 1
    : > "$W/map-first.go.2"
    wait_for "$W/map-path.err" '^gestured map: touch screen "b"' || return 1
    : > "$W/map-second.go.3"
    wait "$mpid" || { log "gestured map exited $?:"; sed 's/^/    /' "$W/map-path.err"; return 1; }
    [ "$(map_device_of "$W/map-path.json5" a)" = '    device: { idPath: "pci-0000:00:14.0-usb-0:1:1.0" },' ] \
        && [ "$(map_device_of "$W/map-path.json5" b)" = '    device: { idPath: "pci-0000:00:14.0-usb-0:2:1.0" },' ] \
        && grep -qF '2 panels share 1d6b:0001; ID_PATH (the port each is plugged into) tells them apart' "$W/map-path.json5" \
        && grep -qF 'ENV{ID_PATH}=="pci-0000:00:14.0-usb-0:2:1.0", ENV{GESTURED_SCREEN}="b"' "$W/61-by-path.rules" \
        || { log "not bound by ID_PATH:"; sed 's/^/    /' "$W/map-path.json5" "$W/61-by-path.rules"; return 1; }
    cp "$W/61-by-path.rules" /etc/udev/rules.d/
    udevadm control --reload; udevadm trigger --action=change --subsystem-match=input; udevadm settle
    udev_property "$first" GESTURED_SCREEN=a || ok=0
    udev_property "$second" GESTURED_SCREEN=b || ok=0
    [ "$ok" = 1 ]
}

test_map_binds_two_panels() {
    { cat "$HERE/touchscreen.desc"; printf '%s\n' 'E: 0.000000 0003 002f 0000' 'E: 0.000000 0003 0039 0001' \
        'E: 0.000000 0003 0035 0500' 'E: 0.000000 0003 0036 0400' 'E: 0.000000 0001 014a 0001' 'E: 0.000000 0000 0000 0000' \
        'E: 0.050000 0003 0039 -001' 'E: 0.050000 0001 014a 0000' 'E: 0.050000 0000 0000 0000'; } > "$W/map-tap.evemu"
    local first_phys=usb-0000:00:14.0-1/input0 second_phys=usb-0000:00:14.0-2/input0 first second first_pid
    map_panel map-first "$first_phys" || return 1; first=$NODE; first_pid=$MAP_PID
    map_panel map-second "$second_phys" || return 1; second=$NODE
    # gestured's own virtual panel (its phys prefix, PanelCopy.physPrefix), which map never binds.
    map_panel map-copy gestured-copy/map-test || return 1
    local copy=$NODE
    udevadm settle
    # Another reader of the second panel (the desktop): without --grab, map leaves it its events.
    "$PYTHON" "$HERE/uinput-panel.py" read "$second" "$W/map-desktop.read" &
    HELPER_PIDS+=("$!")
    local reader=$!
    wait_for "$W/map-desktop.read" '^ready' || return 1
    "$G" map --screens left,right --timeout 25 --output "$W/map.json5" --udev-rule "$W/61-gestured-screens.rules" \
        > "$W/map.stdout" 2> "$W/map.err" &
    local mpid=$!
    wait_for "$W/map.err" '^gestured map: touch screen "left" (1 of 2)' || return 1
    grep -qxF "gestured map: 2 touch panels (gestured's 1 virtual copy left out):" "$W/map.err" && ! grep -qF "$copy" "$W/map.err" \
        || { log "gestured's copy is listed, or the panels are not counted:"; sed 's/^/    /' "$W/map.err"; return 1; }
    grep -qF "  $first \"gestured vmtest touchscreen\" 1d6b:0001, ID_PATH none, serial none, phys \"$first_phys\"" "$W/map.err" \
        && grep -qF "  $second \"gestured vmtest touchscreen\" 1d6b:0001, ID_PATH none, serial none, phys \"$second_phys\"" \
            "$W/map.err" || { log "the panels are not listed as expected:"; sed 's/^/    /' "$W/map.err"; return 1; }
    : > "$W/map-second.go.1"
    wait_for "$W/map.err" '^gestured map: touch screen "right" (2 of 2)' || return 1
    : > "$W/map-second.go.2"
    wait_for "$W/map.err" "^gestured map: $second is bound to screen \"left\" already; touch screen \"right\"" || return 1
    : > "$W/map-first.go.1"
    wait "$mpid" || { log "gestured map exited $?:"; sed 's/^/    /' "$W/map.err"; return 1; }
    [ ! -s "$W/map.stdout" ] || { log "the fragment went to stdout as well as --output"; return 1; }
    wait_for "$W/map-desktop.read" '^E: .* 0003 0039 0001 ' 2 || { log "map without --grab kept the touches from another reader"; return 1; }
    kill "$reader"
    local left right
    left=$(map_device_of "$W/map.json5" left); right=$(map_device_of "$W/map.json5" right)
    [ "$left" = "    device: { vendor: \"1d6b\", product: \"0001\", phys: \"$second_phys\" }," ] \
        && [ "$right" = "    device: { vendor: \"1d6b\", product: \"0001\", phys: \"$first_phys\" }," ] \
        || { log "the fragment binds the wrong panels:"; sed 's/^/    /' "$W/map.json5"; return 1; }
    grep -qF "2 panels share 1d6b:0001; it has no ID_PATH and no serial (a uinput or virtual panel has only phys), and its phys with vendor and product tells it apart" "$W/map.json5" \
        || { log "the fragment does not say why phys"; return 1; }
    # The rule, installed: each node gets its screen's GESTURED_SCREEN from udev.
    mkdir -p /etc/udev/rules.d
    cp "$W/61-gestured-screens.rules" /etc/udev/rules.d/
    udevadm control --reload
    udevadm trigger --action=change --subsystem-match=input
    udevadm settle
    local ok=1
    udev_property "$second" GESTURED_SCREEN=left || ok=0
    udev_property "$first" GESTURED_SCREEN=right || ok=0
    rm -f /etc/udev/rules.d/61-gestured-screens.rules; udevadm control --reload
    udevadm trigger --action=change --subsystem-match=input; udevadm settle
    [ "$ok" = 1 ] || { sed 's/^/    /' "$W/61-gestured-screens.rules"; return 1; }
    log "left = $second ($second_phys), right = $first ($first_phys), by the fragment and by udev's rule"

    # With an ID_PATH each (given by a test rule, as path_id gives USB panels theirs), the port
    # tells them apart, and the rule matches it. The rules are removed whatever the outcome:
    # the panels are virtual again for what follows, and for the tests after this one.
    map_by_path "$first" "$second" "$first_phys" "$second_phys"
    local by_path=$?
    rm -f /etc/udev/rules.d/61-by-path.rules /etc/udev/rules.d/59-gestured-map-test.rules
    udevadm control --reload; udevadm trigger --action=change --subsystem-match=input; udevadm settle
    [ "$by_path" = 0 ] || return 1
    log "with an ID_PATH each: bound by ID_PATH, in the fragment and by udev's rule"

    # --grab: the other reader gets nothing of the touch map takes.
    "$PYTHON" "$HERE/uinput-panel.py" read "$second" "$W/map-grabbed.read" &
    HELPER_PIDS+=("$!")
    reader=$!
    wait_for "$W/map-grabbed.read" '^ready' || return 1
    "$G" map --screens g --grab > "$W/map-grab.json5" 2> "$W/map-grab.err" &
    mpid=$!
    wait_for "$W/map-grab.err" '^gestured map: touch screen "g"' || return 1
    : > "$W/map-second.go.4"
    wait "$mpid" || { log "gestured map --grab exited $?:"; sed 's/^/    /' "$W/map-grab.err"; return 1; }
    grep -qF "phys: \"$second_phys\"" "$W/map-grab.json5" || { log "--grab did not bind the panel"; return 1; }
    wait_for "$W/map-second.out" '^played 4' || return 1
    kill "$reader"
    ! grep -q '^E:' "$W/map-grabbed.read" || { log "--grab left the touch to another reader:"; head "$W/map-grabbed.read"; return 1; }
    log "without --grab another reader gets the touches; with --grab it gets none"

    # The first panel unplugged mid-map, a screen never touched, and one with no free panel
    # left (not waited for): all reported, the touched screen kept in what is written, status 1.
    "$G" map --screens one,two,three --timeout 2 --output "$W/map-partial.json5" > /dev/null 2> "$W/map-partial.err" &
    mpid=$!
    wait_for "$W/map-partial.err" '^gestured map: touch screen "one"' || return 1
    : > "$W/map-second.go.5"
    wait_for "$W/map-partial.err" '^gestured map: touch screen "two"' || return 1
    remove_device "$first_pid"
    wait_for "$W/map-partial.err" "^gestured map: $first was removed; it can no longer be bound" || return 1
    local status=0; wait "$mpid" || status=$?
    [ "$status" = 1 ] || { log "gestured map exited $status with screens left unbound"; return 1; }
    grep -qF 'gestured map: screen "two" not bound: no panel was touched within 2 s' "$W/map-partial.err" \
        && grep -qF 'gestured map: screen "three" not bound: every panel still plugged in is bound to an earlier screen' "$W/map-partial.err" \
        || { log "the untouched screens are not reported:"; sed 's/^/    /' "$W/map-partial.err"; return 1; }
    [ "$(map_device_of "$W/map-partial.json5" one)" = "    device: { vendor: \"1d6b\", product: \"0001\", phys: \"$second_phys\" }," ] \
        || { log "the touched screen was not kept:"; sed 's/^/    /' "$W/map-partial.json5"; return 1; }
    ! grep -qF 'touch screen "three"' "$W/map-partial.err" || { log "screen three was waited for with no free panel left"; return 1; }
    log "an unplug mid-map, an untouched screen and one with no free panel left reported; screen one kept; status 1"

    # Ctrl-C while waiting: nothing is written, not even a temporary file.
    mkdir -p "$W/map-stopped"
    "$G" map --screens one --output "$W/map-stopped/screens.json5" --udev-rule "$W/map-stopped/61-s.rules" \
        > /dev/null 2> "$W/map-stopped.err" &
    mpid=$!
    wait_for "$W/map-stopped.err" '^gestured map: touch screen "one"' || return 1
    kill -INT "$mpid"
    status=0; wait "$mpid" || status=$?
    [ "$status" = 1 ] && grep -qxF "gestured map: stopped before every screen was touched; nothing was written" "$W/map-stopped.err" \
        && [ -z "$(ls -A "$W/map-stopped")" ] \
        || { log "SIGINT: status $status, files: $(ls -A "$W/map-stopped")"; sed 's/^/    /' "$W/map-stopped.err"; return 1; }
    log "SIGINT while waiting: status 1, nothing written"
}
