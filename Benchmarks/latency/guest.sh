# Runs inside the QEMU guest as root, started by scripts/latency.sh (through vm-run.sh, which
# runs it with sh). $1: the settings file that script wrote (OUT, GESTURED, CONFIG, CLIENT,
# SHIM, WARM, RECORDINGS, CONSUMERS). For each recording: a uinput panel from its description,
# then for each consumer alone (gestured with the latency client on its socket; libinput
# debug-events piped into the latency client; evdev, the floor: the client reading the event
# node itself): start, a warm-up play of the first WARM seconds, a pause,
# the whole recording, the drain, a graceful stop. The client's per-line files, the start of
# each measured play and the consumer's CPU during it go to OUT (a host directory).
[ -n "${BASH_VERSION:-}" ] || exec /bin/bash "$0" "$@"
set -u
. "$1"
W=/run/latency; mkdir -p "$W"      # guest tmpfs: consumer output never crosses 9p
LOG=$OUT/guest.log
. "$(dirname "$0")/guest-lib.sh"
monotonic_us() { python3 -c 'import time; print(time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000)'; }

/lib/systemd/systemd-udevd --daemon >/dev/null 2>&1 || { log "ERROR: systemd-udevd did not start"; exit 3; }
log "$(nproc) vCPU, kernel $(uname -r), clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"

fail=0
for entry in $RECORDINGS; do
  name=${entry%%=*} rec=${entry#*=}
  cp "$rec" "$W/$name.evemu"
  evemu-device "$W/$name.evemu" > "$W/evemu-device.out" 2>&1 & EVD=$!
  for i in $(seq 100); do grep -q /dev/input "$W/evemu-device.out" && break; zzz 0.1; done
  NODE=$(grep -o '/dev/input/event[0-9]*' "$W/evemu-device.out" | head -n1)
  [ -n "$NODE" ] || { log "ERROR: evemu-device made no device for $name: $(cat "$W/evemu-device.out")"; exit 3; }
  for i in $(seq 100); do udevadm info -q property "$NODE" 2>/dev/null | grep -q '^ID_INPUT_TOUCHSCREEN=1' && break; zzz 0.1; done
  # events that lift every slot, so each play starts from the same kernel state (time 0 only:
  # evemu-play sleeps "forever" when time goes back, so they are never appended to a play)
  slots=$(awk '/^A: 2f /{ print $4 + 1; exit }' "$W/$name.evemu"); slots=${slots:-0}
  : > "$W/reset.evemu"
  for ((s = 0; s < slots; s++)); do printf 'E: 0.000000 0003 002f %d\nE: 0.000000 0003 0039 -1\n' $s >> "$W/reset.evemu"; done
  printf 'E: 0.000000 0001 014a 0\nE: 0.000000 0000 0000 0\n' >> "$W/reset.evemu"
  awk -v w="$WARM" '/^E:/{ if (n++ == 0) t0 = $2; if ($2 - t0 > w) exit; print }' "$W/$name.evemu" > "$W/warm.evemu"
  evemu-play "$NODE" < "$W/reset.evemu"
  log "$name: $NODE ($(head -n1 "$W/evemu-device.out" | sed 's/: \/dev.*//'))"

  for consumer in $CONSUMERS; do
    rm -f "$W/ready" "$W/li.times" "$W/li.pipe" "$W/g.sock"
    out=$OUT/$name.$consumer.tsv
    case $consumer in
      gestured)
        "$GESTURED" run --config "$CONFIG" --device "$NODE" --socket "$W/g.sock" > "$W/gestured.out" 2> "$W/gestured.err" & P=$!
        python3 "$CLIENT" socket "$W/g.sock" "$out" --ready "$W/ready" 2> "$W/client.err" & C=$!
        signal=TERM ;;
      libinput)
        mkfifo "$W/li.pipe"
        python3 "$CLIENT" pipe "$W/li.times" "$out" --ready "$W/ready" < "$W/li.pipe" 2> "$W/client.err" & C=$!
        LD_PRELOAD=$SHIM LATENCY_TOUCH_TIMES=$W/li.times libinput debug-events --device "$NODE" \
          > "$W/li.pipe" 2> "$W/libinput.err" & P=$!
        signal=INT ;;
      evdev)
        python3 "$CLIENT" evdev "$NODE" "$out" --ready "$W/ready" 2> "$W/client.err" & P=$!
        C=$P signal=TERM ;;
    esac
    if ! wait_open "$P" "$NODE"; then
      log "ERROR: $consumer did not open $NODE: $(head -c 300 "$W/$consumer.err" "$W/client.err" 2>/dev/null)"; fail=1
      stop "$P" KILL; [ "$C" = "$P" ] || stop "$C" KILL; continue
    fi
    for i in $(seq 300); do [ -e "$W/ready" ] && break; zzz 0.1; done
    [ -e "$W/ready" ] || { log "ERROR: the latency client is not ready: $(cat "$W/client.err")"; fail=1; }
    zzz 1.5
    evemu-play "$NODE" < "$W/warm.evemu"; evemu-play "$NODE" < "$W/reset.evemu"
    drain "$P"; zzz 1
    mark=$(monotonic_us)
    cpu0=$(run_ns "$P")
    t0=${EPOCHREALTIME/./}
    evemu-play "$NODE" < "$W/$name.evemu"
    t1=${EPOCHREALTIME/./}
    drain "$P"
    cpu1=$(run_ns "$P")
    stop "$P" "$signal"; crc=$?
    [ "$C" = "$P" ] || { wait "$C"; crc=$?; }
    evemu-play "$NODE" < "$W/reset.evemu"
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$consumer" "$mark" $(( (cpu1 - cpu0) / 1000 )) $(( (t1 - t0) / 1000 )) >> "$OUT/plays.tsv"
    log "$name $consumer: play $(( (t1 - t0) / 1000 )) ms, consumer CPU $(( (cpu1 - cpu0) / 1000000 )) ms; $(tail -n1 "$W/client.err")"
    if [ $crc != 0 ] || [ ! -s "$out" ]; then
      log "ERROR: no latencies for $consumer (client exit $crc): $(tail -n3 "$W/client.err") / $(tail -n3 "$W/$consumer.err" 2>/dev/null)"; fail=1
    fi
  done
  kill "$EVD" 2>/dev/null; wait "$EVD" 2>/dev/null
done
exit $fail
