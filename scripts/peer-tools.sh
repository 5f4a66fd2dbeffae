# Sourced by the scripts that measure gestured against its peers on a real kernel (bench.sh
# sections 6 and 7, latency.sh), from the package root: sets and exports GESTURED_PEER_TOOLS to
# $GESTURED_PEER_TOOLS when given, else to the first shared/tools found beside the package root
# or one of its parents (the directory of make_long.py, peers/live_cpu.sh and vm/vm-run.sh),
# as scripts/corpus.sh finds the recordings; empty when there is none.
if [ -z "${GESTURED_PEER_TOOLS:-}" ]; then
    peer_directory=$(pwd)
    while [ "$peer_directory" != / ]; do
        peer_directory=$(dirname "$peer_directory")
        if [ -x "$peer_directory/shared/tools/vm/vm-run.sh" ]; then
            GESTURED_PEER_TOOLS=$peer_directory/shared/tools
            break
        fi
    done
    unset peer_directory
fi
export GESTURED_PEER_TOOLS=${GESTURED_PEER_TOOLS:-}
