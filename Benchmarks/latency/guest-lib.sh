# Sourced by Benchmarks/latency/guest.sh and forward-guest.sh inside the QEMU guest (bash), once
# they have set W (the guest's tmpfs work directory) and LOG (the host-side log file): logging,
# sleeping without forking, and waiting on the consumers' processes.
T0=${EPOCHREALTIME/./}
log() { local t=${EPOCHREALTIME/./}; t=$(( (t - T0) / 100000 )); printf '[guest %4d.%ds] %s\n' $((t / 10)) $((t % 10)) "$*" | tee -a "$LOG" >&2; }
mkfifo "$W/.sleep"; exec {SLP}<>"$W/.sleep"
zzz() { read -t "$1" -u "$SLP" _ || :; }          # sleep without forking
# run_ns PID...: the CPU time of every thread of the processes, in ns
run_ns() { local p t ns sum=0; for p in "$@"; do for t in /proc/$p/task/*/schedstat; do read -r ns _ < "$t" && sum=$((sum + ns)); done; done; echo $sum; }
state() { local l; read -r l 2>/dev/null < "/proc/$1/stat" || { echo X; return; }; l=${l##*) }; echo "${l%% *}"; }
wait_open() {   # pid node: until the process holds the node open (or 30 s)
  local p=$1 i f
  for ((i = 0; i < 300; i++)); do
    for f in /proc/$p/fd/*; do [ "$(readlink "$f" 2>/dev/null)" = "$2" ] && return 0; done
    [ -e "/proc/$p/stat" ] || return 1
    zzz 0.1
  done
  return 1
}
drain() {   # pids: until their CPU time stays put for 1 s (60 s at most)
  local prev cur stable=0 i
  prev=$(run_ns "$@")
  for ((i = 0; i < 240 && stable < 4; i++)); do
    zzz 0.25; cur=$(run_ns "$@"); stable=$((stable + 1))
    [ "$cur" = "$prev" ] || { stable=0; prev=$cur; }
  done
}
stop() {   # pid signal: signal, wait up to 10 s, then KILL; returns its exit status
  local i
  kill -"$2" "$1" 2>/dev/null
  for ((i = 0; i < 100; i++)); do [ "$(state "$1")" = Z ] || [ "$(state "$1")" = X ] && break; zzz 0.1; done
  kill -KILL "$1" 2>/dev/null && [ "$(state "$1")" != Z ] && log "WARNING: pid $1 ignored SIG$2; killed"
  wait "$1" 2>/dev/null
}
