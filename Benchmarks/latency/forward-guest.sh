# Runs inside the QEMU guest as root, started by scripts/forward-latency.sh (through vm-run.sh,
# which runs it with sh). $1: the settings file that script wrote (OUT, GESTURED, CONFIG,
# PLAYER, READER, WARM, RECORDINGS, CONSUMERS). For each recording: a uinput panel made and
# played by PLAYER (Benchmarks/latency/panel_player.c, through its uinput descriptor, since a
# grabbed panel's event node drops what is written to it); then for each consumer alone:
#   panel         none: READER on the panel itself (how far the player's stamp before each
#                 write is from the kernel's stamp of the frame);
#   gestured      `gestured run --config CONFIG` (routing: forward), which grabs the panel and
#                 writes the touches to its copy;
#   interception  `interception -g NODE | uinput -d NODE` (interception-tools), the same;
# start, wait for the copy, READER on the copy, a warm-up play of the first WARM seconds, a
# reset, the drain, the measured play, the drain, a graceful stop. To OUT (a host directory):
# NAME.CONSUMER.player (the player's stamps), NAME.CONSUMER.copy (the copy's kernel times),
# plays.tsv (name, consumer, consumer CPU in µs over the play, play in ms), guest.log.
[ -n "${BASH_VERSION:-}" ] || exec /bin/bash "$0" "$@"
set -u
. "$1"
W=/run/forward; mkdir -p "$W" /run/gestured   # guest tmpfs: logs never cross 9p while playing
LOG=$OUT/guest.log
. "$(dirname "$0")/guest-lib.sh"
nodes() { local n; for n in /dev/input/event*; do echo "$n"; done; }
new_node() {   # before-list: the first event node not in it (30 s at most)
  local i n
  for ((i = 0; i < 300; i++)); do
    for n in /dev/input/event*; do   # no process substitution: the guest has no /dev/fd
      grep -qxF "$n" "$1" || { echo "$n"; return 0; }
    done
    zzz 0.1
  done
  return 1
}
player() {   # command: to the player, then wait for its "done"
  local answer
  echo "$*" >&"${PLAY[1]}"
  read -r answer <&"${PLAY[0]}"
  [ "$answer" = done ] || { log "ERROR: the player answered '$answer' to '$*'"; exit 3; }
}

/lib/systemd/systemd-udevd --daemon >/dev/null 2>&1 || { log "ERROR: systemd-udevd did not start"; exit 3; }
log "$(nproc) vCPU, kernel $(uname -r), clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"

fail=0
for entry in $RECORDINGS; do
  name=${entry%%=*} rec=${entry#*=}
  cp "$rec" "$W/$name.evemu"
  awk -v w="$WARM" '/^E:/{ if (n++ == 0) t0 = $2; if ($2 - t0 > w) exit; print }' "$W/$name.evemu" > "$W/warm.evemu"
  coproc PLAY { exec "$PLAYER" "$W/$name.evemu" 2> "$W/player.err"; }
  read -r NODE <&"${PLAY[0]}" || NODE=
  [ -n "$NODE" ] || { log "ERROR: the player made no panel for $name: $(cat "$W/player.err")"; exit 3; }
  for i in $(seq 100); do udevadm info -q property "$NODE" 2>/dev/null | grep -q '^ID_INPUT_TOUCHSCREEN=1' && break; zzz 0.1; done
  player reset
  log "$name: $NODE ($(cat /sys/class/input/${NODE##*/}/device/name))"

  for consumer in $CONSUMERS; do
    nodes > "$W/before"
    pids=() signal=TERM
    case $consumer in
      panel) ;;
      gestured)
        "$GESTURED" run --config "$CONFIG" --device "$NODE" --socket "$W/g.sock" > "$W/gestured.out" 2> "$W/gestured.err" & pids=($!) ;;
      interception)
        rm -f "$W/ic.pipe"; mkfifo "$W/ic.pipe"
        uinput -d "$NODE" < "$W/ic.pipe" > "$W/uinput.out" 2> "$W/uinput.err" & pids=($!)
        interception -g "$NODE" > "$W/ic.pipe" 2> "$W/interception.err" & pids=($! "${pids[@]}") ;;
      *) log "ERROR: unknown consumer $consumer (panel, gestured, interception)"; exit 3 ;;
    esac
    copy=$NODE
    if ((${#pids[@]})); then
      if ! wait_open "${pids[0]}" "$NODE" || ! copy=$(new_node "$W/before"); then
        log "ERROR: $consumer did not open $NODE or made no copy: $(head -c 400 "$W"/*.err 2>/dev/null)"; fail=1
        for p in "${pids[@]}"; do stop "$p" KILL; done; continue
      fi
    fi
    "$READER" "$copy" "$W/copy" 2> "$W/reader.err" & R=$!
    wait_open "$R" "$copy" || { log "ERROR: the reader did not open $copy: $(cat "$W/reader.err")"; fail=1; }
    zzz 1.5
    player play "$W/warm.evemu" "$W/warm.player" 1000000; player reset
    ((${#pids[@]})) && drain "${pids[@]}"; zzz 1
    cpu0=$( ((${#pids[@]})) && run_ns "${pids[@]}" || echo 0)
    t0=${EPOCHREALTIME/./}
    player play "$W/$name.evemu" "$W/play.player" 1
    t1=${EPOCHREALTIME/./}
    ((${#pids[@]})) && drain "${pids[@]}"
    cpu1=$( ((${#pids[@]})) && run_ns "${pids[@]}" || echo 0)
    zzz 0.5
    stop "$R" TERM
    for p in "${pids[@]}"; do stop "$p" TERM; done
    player reset
    cp "$W/play.player" "$OUT/$name.$consumer.player"
    cp "$W/copy" "$OUT/$name.$consumer.copy" 2>/dev/null
    printf '%s\t%s\t%s\t%s\n' "$name" "$consumer" $(( (cpu1 - cpu0) / 1000 )) $(( (t1 - t0) / 1000 )) >> "$OUT/plays.tsv"
    log "$name $consumer: copy $copy, play $(( (t1 - t0) / 1000 )) ms, consumer CPU $(( (cpu1 - cpu0) / 1000000 )) ms; $(tail -n1 "$W/reader.err")"
    [ -s "$W/copy" ] || { log "ERROR: no frames on the copy for $consumer: $(tail -n3 "$W"/*.err 2>/dev/null)"; fail=1; }
    rm -f "$W/copy"
  done
  eval "exec ${PLAY[1]}>&-"
  wait "$PLAY_PID" 2>/dev/null
done
exit $fail
