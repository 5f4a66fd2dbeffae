# Issue 29's two-panel kernel tests, sourced by kernel-tests.sh: they run in the test VM.
#
# Two uinput panels made from one description (two-panels/panel.desc: the same vendor and
# product, 0eef:c000), each created with a phys of its own (uinput-panel.py play --phys), and
# `gestured run` on two-panels/two-panels.json5: a screen "counter" (1920 x 1080) and a screen
# "clerk" (1280 x 800), each with its own layout, each bound to its panel by vendor, product
# and phys. The panels play the gesture scripts beside the configuration (made into
# recordings with `gestured synth` in the guest), and each is read beside gestured by
# uinput-panel.py read: every event with the kernel's absolute time (CLOCK_MONOTONIC, as
# gestured reads it). Those captures become recordings on ONE timeline (every time counted
# from the same instant), so `gestured replay --screen counter=… --screen clerk=…`, merged by
# time, must give the live transcript: every event with its time, velocities and touch ids
# (normalise()), each screen's own order, the two screens' events in time order
# (compare_merged(): live interleaves them as it reads the panels).

TWO=$HERE/two-panels
TWO_CONFIG=$TWO/two-panels.json5
COUNTER_PHYS=usb-0000:00:14.0-3/input0
CLERK_PHYS=usb-0000:00:14.0-4/input0

# twin_panel NAME PHYS RECORDING [EVENTS...]: a panel made from RECORDING's description with
# PHYS, playing RECORDING once $W/NAME.go exists, then each EVENTS file once $W/NAME.go.2, .3 …
# exists (logged in $W/NAME.played); once udev calls it a touchscreen. Sets NODE and PLAYER.
twin_panel() {
    local name=$1 phys=$2; shift 2
    : > "$W/$name.panel.out"
    fresh_player_files "$name"
    "$PYTHON" -u "$UPANEL" play --phys "$phys" "$1" "$W/$name.go" "$W/$name.played" "${@:2}" > "$W/$name.panel.out" 2>&1 &
    PLAYER=$!; DEVICE_PIDS+=("$PLAYER")
    poll node_in "$W/$name.panel.out" || { log "no uinput panel $name: $(cat "$W/$name.panel.out")"; return 1; }
    udev_property "$NODE" ID_INPUT_TOUCHSCREEN=1
}

# start_reader NAME NODE: uinput-panel.py read of NODE into $W/NAME.read (from its "ready" on,
# the kernel queues every event for it), and NODE's description (evemu-describe, with the fuzz
# udev keeps, as gestured reads it) into $W/NAME.desc.
start_reader() {
    "$PYTHON" -u "$UPANEL" read "$2" "$W/$1.read" &
    HELPER_PIDS+=("$!")
    wait_for "$W/$1.read" '^ready' || return 1
    evemu-describe "$2" > "$W/$1.desc" 2> "$W/$1.desc.err" || { log "evemu-describe $2: $(cat "$W/$1.desc.err")"; return 1; }
    restore_udev_fuzz "$2" "$W/$1.desc"
}

# captured NAME PLAYED...: until $W/NAME.read holds as many frames as the PLAYED recordings
# together (WAIT_SECONDS at most); fails when it holds fewer, or a SYN_DROPPED (the reader lost
# events): a capture that is not what gestured read proves nothing.
captured() {
    local name=$1 want=0 file have; shift
    for file in "$@"; do want=$((want + $(frames_in "$file"))); done
    poll holds_frames "$W/$name.read" "$want"
    have=$(frames_in "$W/$name.read")
    ! grep -q '^E: [0-9.]* 0000 0003 ' "$W/$name.read" \
        || { log "the kernel dropped events for the $name reader (SYN_DROPPED)"; return 1; }
    [ "$have" -eq "$want" ] && [ "$want" -gt 0 ] \
        || { log "the $name reader holds $have frames, the panel played $want (its file begins: $(head -c 300 "$W/$name.read" | tr '\n' '|'); readers alive: $(for p in "${HELPER_PIDS[@]}"; do kill -0 "$p" 2>/dev/null && printf '%s ' "$p"; done))"; return 1; }
}

first_event_us() {   # first_event_us FILE: the time of FILE's first E: line, in µs
    awk '$1 == "E:" { split($2, t, "."); printf "%.0f\n", t[1] * 1000000 + t[2]; exit }' "$1"
}

# as_recording NAME ORIGIN [UNTIL]: $W/NAME.evemu, the recording of what the kernel delivered on
# NAME's panel: its description, then its events with their times counted from ORIGIN (µs of
# CLOCK_MONOTONIC; the same ORIGIN for every panel of a run puts their recordings on one
# timeline). With UNTIL (µs, the same clock), an empty frame then ends its input there: the
# panel's removal, at which live cancels its touches.
as_recording() {
    { cat "$W/$1.desc"
      awk -v o="$2" -v until="${3:-}" '
        function stamp(us) { return sprintf("%d.%06d", int(us / 1000000), us % 1000000) }
        $1 == "E:" { split($2, t, "."); print "E:", stamp(t[1] * 1000000 + t[2] - o), $3, $4, $5 }
        END { if (until != "") print "E:", stamp(until - o), "0000", "0000", "0000" }' "$W/$1.read"
    } > "$W/$1.evemu"
}

# one_timeline NAME...: each NAME's $W/NAME.evemu, all counted from the earliest first event.
one_timeline() {
    local name origin=
    for name in "$@"; do
        local first; first=$(first_event_us "$W/$name.read")
        [ -n "$first" ] || { log "$name's reader got no event"; return 1; }
        if [ -z "$origin" ] || [ "$first" -lt "$origin" ]; then origin=$first; fi
    done
    for name in "$@"; do as_recording "$name" "$origin"; done
}

# bound_to RUN SCREEN NODE: gestured run RUN reads NODE for SCREEN (its log line names both;
# a basic regular expression, as wait_for's grep takes).
bound_to() {
    wait_for "$W/$1.err" "reading the touchscreen .*path=$3 .*screen=$2$" || return 1
}

# screen_status SOCKET OUT: the `status` request's answer, as JSON, into OUT.
screen_status() {
    "$PYTHON" - "$1" > "$2" <<'PYTHON' || { log "no status from $1"; return 1; }
import json, sys
sys.path.insert(0, "examples/python")
from gestured_client import GesturedClient
with GesturedClient(sys.argv[1]) as client:
    print(json.dumps(client.status()))
PYTHON
}

# status_paths STATUS: "id=path" of each screen of a status answer, in the configuration's order.
status_paths() {
    "$PYTHON" -c 'import json, sys
print(" ".join("%s=%s" % (s["id"], s["path"]) for s in json.load(open(sys.argv[1]))["screens"]))' "$1"
}

# wait_screen_frames SOCKET SCREEN COUNT: until the gestured serving SOCKET has processed COUNT
# touch frames of SCREEN's panel (status, screens[].frames; WAIT_SECONDS at most).
wait_screen_frames() {
    "$PYTHON" - "$1" "$2" "$3" "$WAIT_SECONDS" <<'PYTHON' || { log "gestured did not report $3 frames of screen $2"; return 1; }
import sys, time
sys.path.insert(0, "examples/python")
from gestured_client import GesturedClient
with GesturedClient(sys.argv[1]) as client:
    deadline = time.monotonic() + int(sys.argv[4])
    while True:
        screens = {s["id"]: s for s in client.status()["screens"]}
        if screens[sys.argv[2]]["frames"] >= int(sys.argv[3]):
            break
        if time.monotonic() > deadline:
            sys.exit(1)
        time.sleep(0.02)
PYTHON
}

# one_seq JSONL: every line has a `seq`, 1 more than the line before's, from 1 (--stdout prints
# every event: no gap).
one_seq() {
    awk '{ if (!match($0, /"seq":[0-9]+/)) { print "line " NR " has no seq"; exit 1 }
           seq = substr($0, RSTART + 6, RLENGTH - 6) + 0
           if (seq != NR) { print "line " NR " has seq " seq; exit 1 } }' "$1" > "$1.seq" \
        || { log "not one seq over the daemon: $(cat "$1.seq")"; return 1; }
}

# every_line_screened JSONL: every event names its screen, one of the two.
every_line_screened() {
    local bad; bad=$(grep -vcE '^\{"type":"[a-zA-Z]+","seq":[0-9]+,"time":-?[0-9]+,"screen":"(counter|clerk)"' "$1")
    [ "$bad" -eq 0 ] || { log "$bad events do not name the counter or the clerk screen:"
                          grep -vE '"screen":"(counter|clerk)"' "$1" | head -n 3 | sed 's/^/    /'; return 1; }
}

# in_time_order NORMALISED SCREEN...: NORMALISED's events ordered by time, the SCREENs' events
# at one instant in the order given (the configuration's, as the merged replay breaks ties),
# each screen's own events kept in their order.
in_time_order() {
    local file=$1; shift
    awk -v screens="$*" '
        BEGIN { n = split(screens, list, " "); for (i = 1; i <= n; i++) rank["\"screen\":\"" list[i] "\""] = i }
        { match($0, /"time":-?[0-9]+/); time = substr($0, RSTART + 7, RLENGTH - 7)
          r = match($0, /"screen":"[^"]*"/) ? rank[substr($0, RSTART, RLENGTH)] + 0 : 0
          printf "%s\t%d\t%d\t%s\n", time, r, NR, $0 }' "$file" \
        | sort -t "$(printf '\t')" -k1,1n -k2,2n -k3,3n | cut -f4-
}

# out_of_order NORMALISED: how many of its events come after a later one (of another screen:
# each screen's own times never go back), and by how much at most (µs).
out_of_order() {
    awk '{ match($0, /"time":-?[0-9]+/); time = substr($0, RSTART + 7, RLENGTH - 7) + 0
           if (NR > 1 && time < latest) { n++; if (latest - time > lag) lag = latest - time }
           if (NR == 1 || time > latest) latest = time }
         END { printf "%d %d\n", n, lag }' "$1"
}

# compare_merged LIVE REPLAY SCREEN...: a run of several screens equals the merged replay of
# their panels' recordings: every event of every screen, its time, velocities and touch ids
# (normalise()), each screen's own order, and the screens' events put in time order (ties in
# the SCREENs' order, as the merged replay does). Live writes each screen's events as it reads
# that screen's panel: when the loop is late it reads one panel's frames in a batch, then the
# other's, so its own interleaving of the screens can differ from the time order (logged, and
# described in tools/vmtest/README.md); the time order is what the merged replay gives.
compare_merged() {
    local live=$1 replay=$2; shift 2
    normalise "$live" > "$live.norm"; normalise "$replay" > "$replay.norm"
    local began; began=$(grep -c '"phase":"began"' "$replay.norm")
    [ "$began" -gt 0 ] || { log "the replay has no touches: the comparison would prove nothing"; return 1; }
    in_time_order "$live.norm" "$@" > "$live.timed"; in_time_order "$replay.norm" "$@" > "$replay.timed"
    cmp -s "$replay.norm" "$replay.timed" || { log "the merged replay is not in time order"; return 1; }
    if ! diff -u "$replay.timed" "$live.timed" > "$live.diff"; then
        log "live output differs from the merged replay of what the kernel delivered (- replay, + live, both in time order):"
        head -n 40 "$live.diff" | sed 's/^/    /'
        return 1
    fi
    local order; order=$(out_of_order "$live.norm")
    log "live == merged replay, times and velocities included: $(wc -l < "$live.norm") events, $began touch deliveries began," \
        "$(grep -c '"type":"gesture"' "$live.norm") gesture events; live wrote ${order% *} of them after a later event of" \
        "the other screen (at most ${order#* } µs later)"
}

# screen_only JSONL SCREEN OUT: SCREEN's events without their screen member: what a daemon of
# that panel alone would have written (seq aside, which normalise drops).
screen_only() { grep -F "\"screen\":\"$2\"," "$1" | sed "s/\"screen\":\"$2\",//" > "$3"; }

# alone_equals SCREEN LIVE RECORDING: SCREEN's events in LIVE (a two-panel run) equal the replay
# of its panel's RECORDING with the configuration of that screen alone (two-panels/SCREEN-only).
alone_equals() {
    screen_only "$2" "$1" "$2.$1-only"
    "$G" replay --config "$TWO/$1-only.json5" --trace "$3" > "$2.$1-alone.replay.jsonl" || { log "replay of $3 failed"; return 1; }
    compare "$2.$1-only" "$2.$1-alone.replay.jsonl" || { log "the $1 screen's events are not what its panel alone gives"; return 1; }
}

# Both panels touched at once: each screen's events name it, with one seq over the daemon (the
# panels' frames overlap in the kernel's time); each panel is bound by its phys (the log, `status`, `gestured
# devices --config`); live equals the merged replay of both panels' recordings; each screen's
# events equal what that panel alone gives.
test_two_panels_at_once() {
    local name=twin counter clerk
    "$G" synth -o "$W/counter.played.evemu" "$TWO/counter.touches" && "$G" synth -o "$W/clerk.played.evemu" "$TWO/clerk.touches" \
        || { log "gestured synth failed"; return 1; }
    twin_panel counter "$COUNTER_PHYS" "$W/counter.played.evemu" || return 1; counter=$NODE
    twin_panel clerk "$CLERK_PHYS" "$W/clerk.played.evemu" || return 1; clerk=$NODE
    start_reader counter "$counter" && start_reader clerk "$clerk" || return 1
    "$G" devices --config "$TWO_CONFIG" > "$W/$name.devices" 2>&1 || { log "gestured devices failed"; return 1; }
    grep -qE "^screen counter: $counter \"gestured vmtest twin panel\"" "$W/$name.devices" \
        && grep -qE "^screen clerk: $clerk \"gestured vmtest twin panel\"" "$W/$name.devices" \
        || { log "gestured devices --config does not give each screen its panel:"; grep '^screen ' "$W/$name.devices" | sed 's/^/    /'; return 1; }
    RUN_CONFIG=$TWO_CONFIG start_gestured "$name" --trace
    bound_to "$name" counter "$counter" && bound_to "$name" clerk "$clerk" || return 1
    touch "$W/counter.go" "$W/clerk.go"
    wait_for "$W/counter.played" '^played' && wait_for "$W/clerk.played" '^played' || return 1
    captured counter "$W/counter.played.evemu" && captured clerk "$W/clerk.played.evemu" || return 1
    wait_screen_frames "$W/$name.sock" counter "$(frames_in "$W/counter.played.evemu")" \
        && wait_screen_frames "$W/$name.sock" clerk "$(frames_in "$W/clerk.played.evemu")" || return 1
    screen_status "$W/$name.sock" "$W/$name.status.json" || return 1
    settle; stop_gestured || return 1
    [ "$(status_paths "$W/$name.status.json")" = "counter=$counter clerk=$clerk" ] \
        || { log "status: $(status_paths "$W/$name.status.json") (want counter=$counter clerk=$clerk)"; return 1; }
    one_seq "$W/$name.jsonl" && every_line_screened "$W/$name.jsonl" || return 1
    # At once: the kernel's times of the two panels' frames overlap.
    local overlap; overlap=$(awk '$1 == "E:" { split($2, t, "."); us = t[1] * 1000000 + t[2]
            if (!(FILENAME in first)) first[FILENAME] = us; last[FILENAME] = us }
        END { a = ARGV[1]; b = ARGV[2]; from = first[a] > first[b] ? first[a] : first[b]
              to = last[a] < last[b] ? last[a] : last[b]; printf "%.0f\n", (to - from) / 1000 }' "$W/counter.read" "$W/clerk.read")
    [ "$overlap" -gt 0 ] || { log "the panels' frames do not overlap in time ($overlap ms): they were not touched at once"; return 1; }
    one_timeline counter clerk || return 1
    "$G" replay --config "$TWO_CONFIG" --trace --screen counter="$W/counter.evemu" --screen clerk="$W/clerk.evemu" \
        > "$W/$name.replay.jsonl" 2> "$W/$name.replay.err" || { log "the merged replay failed: $(cat "$W/$name.replay.err")"; return 1; }
    compare_merged "$W/$name.jsonl" "$W/$name.replay.jsonl" counter clerk || return 1
    alone_equals counter "$W/$name.jsonl" "$W/counter.evemu" && alone_equals clerk "$W/$name.jsonl" "$W/clerk.evemu" || return 1
    grep -q '"screen":"counter","view":"pay","event":"touchUpInside"' "$W/$name.jsonl" \
        && grep -q '"screen":"counter","recognizer":"basketMenu","kind":"longPress","view":"basket","state":"began"' "$W/$name.jsonl" \
        && grep -q '"screen":"clerk","view":"confirm","event":"touchUpInside"' "$W/$name.jsonl" \
        && grep -q '"screen":"clerk","recognizer":"ordersZoom","kind":"pinch","view":"orders","state":"began"' "$W/$name.jsonl" \
        || { log "a screen's gestures did not land in its own layout"; return 1; }
    log "counter = $counter, clerk = $clerk (by phys); $(wc -l < "$W/$name.jsonl") events, seq 1 to $(wc -l < "$W/$name.jsonl"); the panels' frames overlapped for $overlap ms"
}

# split_at RECORDING US FIRST SECOND: RECORDING's description and its events before US into
# FIRST; its events from US on into SECOND, their times counted from US (uinput-panel.py play
# plays SECOND from its own start, once told to).
split_at() {
    grep -v '^E:' "$1" > "$3"
    awk -v at="$2" '$1 == "E:" { split($2, t, "."); if (t[1] * 1000000 + t[2] < at) print }' "$1" >> "$3"
    awk -v at="$2" '$1 == "E:" { split($2, t, "."); us = t[1] * 1000000 + t[2] - at
                                 if (us >= 0) printf "E: %d.%06d %s %s %s\n", int(us / 1000000), us % 1000000, $3, $4, $5 }' "$1" > "$4"
}

# screen_frames STATUS SCREEN: the touch frames SCREEN's pipeline has processed, in a status answer.
screen_frames() {
    "$PYTHON" -c 'import json, sys
print([s for s in json.load(open(sys.argv[1]))["screens"] if s["id"] == sys.argv[2]][0]["frames"])' "$1" "$2"
}

# The counter's panel unplugged with two fingers down while the clerk's finger is down and
# panning: the counter's touches end cancelled at the removal, the clerk's pan goes on after it
# and ends as it would alone (its events before and after equal the replay of its panel alone),
# and the whole stream equals the merged replay (the counter's recording ending at the
# removal). Then both unplugged and plugged in again in the other order, so that their event
# nodes swap: each goes back to its own screen (by phys: the log, `status`, `gestured devices
# --config`, and the events of a session on both, equal to their merged replay); one seq runs
# through it all.
test_two_panels_unplug_and_replug() {
    local name=replug counter clerk
    "$G" synth -o "$W/hold.played.evemu" "$TWO/counter-hold.touches" \
        && "$G" synth -o "$W/across.full.evemu" "$TWO/clerk-across.touches" \
        && "$G" synth -o "$W/counter2.played.evemu" "$TWO/counter.touches" \
        && "$G" synth -o "$W/clerk2.played.evemu" "$TWO/clerk.touches" || { log "gestured synth failed"; return 1; }
    split_at "$W/across.full.evemu" 250000 "$W/across.played.evemu" "$W/across.after.evemu"
    twin_panel hold "$COUNTER_PHYS" "$W/hold.played.evemu" || return 1; counter=$NODE; local hold_player=$PLAYER
    twin_panel across "$CLERK_PHYS" "$W/across.played.evemu" "$W/across.after.evemu" || return 1; clerk=$NODE
    local across_player=$PLAYER
    start_reader hold "$counter" && start_reader across "$clerk" || return 1
    RUN_CONFIG=$TWO_CONFIG start_gestured "$name" --trace
    bound_to "$name" counter "$counter" && bound_to "$name" clerk "$clerk" || return 1
    touch "$W/hold.go" "$W/across.go"
    wait_for "$W/hold.played" '^played' && wait_for "$W/across.played" '^played' || return 1
    captured hold "$W/hold.played.evemu" && captured across "$W/across.played.evemu" || return 1
    wait_screen_frames "$W/$name.sock" counter "$(frames_in "$W/hold.played.evemu")" \
        && wait_screen_frames "$W/$name.sock" clerk "$(frames_in "$W/across.played.evemu")" || return 1
    # Unplugged mid-touch: the counter's two fingers and the clerk's one are down.
    remove_device "$hold_player"
    wait_for "$W/$name.jsonl" '"screen":"counter","action":"removed"' || return 1
    kill -0 "$GPID" 2>/dev/null || { log "gestured died when the counter's panel was removed"; return 1; }
    touch "$W/across.go.2"
    wait_for "$W/across.played" '^played' 2 || return 1
    captured across "$W/across.played.evemu" "$W/across.after.evemu" || return 1
    wait_screen_frames "$W/$name.sock" clerk "$(frames_in "$W/across.full.evemu")" || return 1
    settle
    local unplugged; unplugged=$(wc -l < "$W/$name.jsonl")
    head -n "$unplugged" "$W/$name.jsonl" > "$W/unplugged.jsonl"
    local removed; removed=$(grep -F '"screen":"counter","action":"removed"' "$W/unplugged.jsonl" | grep -o '"time":[0-9]*' | cut -d: -f2)
    local origin hold_first; origin=$(first_event_us "$W/across.read"); hold_first=$(first_event_us "$W/hold.read")
    [ "$hold_first" -lt "$origin" ] && origin=$hold_first
    as_recording hold "$origin" "$removed"; as_recording across "$origin"
    "$G" replay --config "$TWO_CONFIG" --trace --screen counter="$W/hold.evemu" --screen clerk="$W/across.evemu" \
        > "$W/unplugged.replay.jsonl" 2> "$W/unplugged.replay.err" || { log "the merged replay failed: $(cat "$W/unplugged.replay.err")"; return 1; }
    compare_merged "$W/unplugged.jsonl" "$W/unplugged.replay.jsonl" counter clerk || return 1
    alone_equals clerk "$W/unplugged.jsonl" "$W/across.evemu" || return 1
    # The counter's pan and its finger still down end cancelled at the removal (its first finger
    # was cancelled in the view when the pan began); the clerk's pan goes on after the removal
    # and ends; no gesture or touch of the clerk is cancelled by it.
    local at; at=$(grep -nF '"screen":"counter","action":"removed"' "$W/unplugged.jsonl" | cut -d: -f1)
    grep -F "\"time\":$removed,\"screen\":\"counter\"" "$W/unplugged.jsonl" | grep -q '"recognizer":"basketPan","kind":"pan","view":"basket","state":"cancelled"' \
        && grep -F "\"time\":$removed,\"screen\":\"counter\"" "$W/unplugged.jsonl" | grep -q '"type":"touches".*"phase":"cancelled"' \
        && ! grep -F '"screen":"counter"' "$W/unplugged.jsonl" | grep -q '"phase":"ended"' \
        || { log "the counter's pan and touch did not end cancelled at the removal ($removed)"; return 1; }
    tail -n +"$at" "$W/unplugged.jsonl" | grep -q '"screen":"clerk","recognizer":"ordersPan","kind":"pan","view":"orders","state":"changed"' \
        && tail -n +"$at" "$W/unplugged.jsonl" | grep -q '"screen":"clerk","recognizer":"ordersPan","kind":"pan","view":"orders","state":"ended"' \
        && ! grep -F "\"time\":$removed,\"screen\":\"clerk\"" "$W/unplugged.jsonl" | grep -q . \
        && ! grep -F '"screen":"clerk"' "$W/unplugged.jsonl" | grep -q '"state":"cancelled"' \
        && grep -q '"screen":"clerk","view":"confirm","event":"touchUpInside"' "$W/unplugged.jsonl" \
        || { log "the clerk's pan did not go on after the removal and end, or its tap did not land"; return 1; }
    log "unplugged mid-touch: the counter's fingers cancelled at the removal; the clerk's pan went on and ended, as its panel alone gives"

    # Both unplugged, then plugged in again in the other order: the kernel gives the lowest free
    # event numbers, so the clerk's panel takes the counter's old node and the counter's the clerk's.
    remove_device "$across_player"
    wait_for "$W/$name.jsonl" '"screen":"clerk","action":"removed"' || return 1
    twin_panel clerk2 "$CLERK_PHYS" "$W/clerk2.played.evemu" || return 1; local clerk2=$NODE
    twin_panel counter2 "$COUNTER_PHYS" "$W/counter2.played.evemu" || return 1; local counter2=$NODE
    [ "$clerk2" = "$counter" ] && [ "$counter2" = "$clerk" ] \
        || { log "the nodes did not swap: counter $counter then $counter2, clerk $clerk then $clerk2"; return 1; }
    start_reader counter2 "$counter2" && start_reader clerk2 "$clerk2" || return 1
    bound_to "$name" counter "$counter2" && bound_to "$name" clerk "$clerk2" || return 1
    "$G" devices --config "$TWO_CONFIG" > "$W/$name.devices" 2>&1 || { log "gestured devices failed"; return 1; }
    grep -qE "^screen counter: $counter2 \"gestured vmtest twin panel\"" "$W/$name.devices" \
        && grep -qE "^screen clerk: $clerk2 \"gestured vmtest twin panel\"" "$W/$name.devices" \
        || { log "gestured devices --config after the swap:"; grep '^screen ' "$W/$name.devices" | sed 's/^/    /'; return 1; }
    screen_status "$W/$name.sock" "$W/$name.status.json" || return 1
    [ "$(status_paths "$W/$name.status.json")" = "counter=$counter2 clerk=$clerk2" ] \
        || { log "status after the swap: $(status_paths "$W/$name.status.json") (want counter=$counter2 clerk=$clerk2)"; return 1; }
    local before_counter before_clerk
    before_counter=$(screen_frames "$W/$name.status.json" counter); before_clerk=$(screen_frames "$W/$name.status.json" clerk)
    local replugged; replugged=$(wc -l < "$W/$name.jsonl")
    touch "$W/counter2.go" "$W/clerk2.go"
    wait_for "$W/counter2.played" '^played' && wait_for "$W/clerk2.played" '^played' || return 1
    captured counter2 "$W/counter2.played.evemu" && captured clerk2 "$W/clerk2.played.evemu" || return 1
    wait_screen_frames "$W/$name.sock" counter $((before_counter + $(frames_in "$W/counter2.played.evemu"))) \
        && wait_screen_frames "$W/$name.sock" clerk $((before_clerk + $(frames_in "$W/clerk2.played.evemu"))) || return 1
    settle; stop_gestured || return 1
    # Between the two sessions, only the panels going and coming.
    sed -n "$((unplugged + 1)),${replugged}p" "$W/$name.jsonl" > "$W/between.jsonl"
    ! grep -qv '"type":"device"' "$W/between.jsonl" || { log "events other than the panels' between the sessions:"; grep -v '"type":"device"' "$W/between.jsonl" | head -n 3 | sed 's/^/    /'; return 1; }
    [ "$(grep -c '"action":"added"' "$W/between.jsonl")" -eq 2 ] || { log "not both panels added back"; return 1; }
    tail -n +"$((replugged + 1))" "$W/$name.jsonl" > "$W/replugged.jsonl"
    one_timeline counter2 clerk2 || return 1
    "$G" replay --config "$TWO_CONFIG" --trace --screen counter="$W/counter2.evemu" --screen clerk="$W/clerk2.evemu" \
        > "$W/replugged.replay.jsonl" 2> "$W/replugged.replay.err" || { log "the merged replay failed: $(cat "$W/replugged.replay.err")"; return 1; }
    compare_merged "$W/replugged.jsonl" "$W/replugged.replay.jsonl" counter clerk || return 1
    grep -q '"screen":"counter","view":"pay","event":"touchUpInside"' "$W/replugged.jsonl" \
        && grep -q '"screen":"clerk","view":"confirm","event":"touchUpInside"' "$W/replugged.jsonl" \
        || { log "after the swap a screen's touches did not land in its own layout"; return 1; }
    one_seq "$W/$name.jsonl" && every_line_screened "$W/$name.jsonl" || return 1
    log "replugged in the other order: counter $counter -> $counter2, clerk $clerk -> $clerk2, each on its own screen; one seq over $(wc -l < "$W/$name.jsonl") events"
}
