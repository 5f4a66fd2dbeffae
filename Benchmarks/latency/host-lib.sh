# Sourced by scripts/latency.sh and scripts/forward-latency.sh (on the host): what both do
# before their guest runs. Needs GESTURED_PEER_TOOLS and GESTURED_RECORDINGS set
# (scripts/peer-tools.sh, scripts/corpus.sh) and CONSUMERS (the consumers to measure).

# choose_recordings TOOL WORK [NAME=RECORDING ...]: fills the array `recordings` with NAME=PATH
# entries: those given, else the synthetic 10-finger stream (make_long.py 60, written into WORK)
# and the corpus's Wacom recording when GESTURED_RECORDINGS has it.
choose_recordings() {
    local tool=$1 work=$2 entry; shift 2
    recordings=()
    if [ $# -eq 0 ]; then
        python3 "$GESTURED_PEER_TOOLS/make_long.py" 60 > "$work/long60.evemu"
        recordings+=("long60=$work/long60.evemu")
        if [ -r "$GESTURED_RECORDINGS/wacom-dth2242-finger.10f.evemu" ]; then
            recordings+=("wacom=$GESTURED_RECORDINGS/wacom-dth2242-finger.10f.evemu")
        else
            echo "$tool: no corpus (GESTURED_RECORDINGS); only the synthetic stream" >&2
        fi
    else
        for entry in "$@"; do recordings+=("${entry%%=*}=$(readlink -f "${entry#*=}")"); done
    fi
}

# guest_timeout: the guest's run time in seconds: per recording and consumer a warm-up, the
# play at 1.5x and 60 s of slack, plus 240 s to boot and set up.
guest_timeout() {
    local entry
    for entry in "${recordings[@]}"; do awk '/^E:/{ if (n++ == 0) t0 = $2; t1 = $2 } END { print t1 - t0 }' "${entry#*=}"; done \
        | awk -v n="$(echo $CONSUMERS | wc -w)" '{ s += n * (5 + 1.5 * $1 + 60) } END { printf "%d", 240 + s }'
}

# icount_runner TOOL RUNNER: writes RUNNER, a private copy of the peer tools' vm-run.sh with
# -icount instead of multi-threaded TCG (as their live_cpu.sh -I does); 1 vCPU: icount cannot
# bring up a second one here.
icount_runner() {
    sed -e "s#^HERE=.*#HERE=$GESTURED_PEER_TOOLS/vm#" \
        -e 's#-accel tcg,thread=multi#-accel tcg -icount shift=0,sleep=on#' "$GESTURED_PEER_TOOLS/vm/vm-run.sh" > "$2"
    grep -q 'icount shift=0' "$2" \
        || { echo "$1: vm-run.sh no longer has '-accel tcg,thread=multi'; cannot derive the icount runner" >&2; exit 2; }
    chmod +x "$2"
}
