#!/usr/bin/env bash
# Real-kernel tests of the live input path: boots Debian's kernel in a QEMU VM (software
# emulation; see tools/vmtest/README.md), creates virtual touchscreens through /dev/uinput
# from the recordings' descriptions (the project's own, config/recordings, and the external
# corpus of real recordings when GESTURED_RECORDINGS has it), plays the recordings into them,
# and checks `gestured run --stdout` (and a socket subscriber of
# `gestured run`, with READY=1 on a stand-in NOTIFY_SOCKET) against `gestured replay` of what the
# kernel delivered (evemu-record of the node while it plays: its timestamps are the ones the live
# daemon saw, however late a loaded machine played), plus unplug, SYN_DROPPED, a touchpad beside
# the touchscreen, the grab, `gestured devices`, `gestured record`, the permission message, and
# with systemd-udevd running in the guest: udev's classification of
# an N-Trig-like digitiser, a misdescribed panel configured with device.type and device.axes,
# and a udev rule's LIBINPUT_CALIBRATION_MATRIX; the virtual panel, and routing end to end (the copy
# against `gestured replay --panel`, libinput on it, hold and decide, kill -9, replug, SYN_DROPPED)
# (tools/vmtest/kernel-tests.sh has the details).
#
# Usage: scripts/kernel-tests.sh [TEST...]   (default: all; names are the test_* functions)
# The test_corpus_* tests need the corpus (GESTURED_RECORDINGS, default shared/recordings
# beside the repository): without it they are skipped, reported in one line; with CI=true
# they fail.
# Installs its Debian packages with apt-get (qemu-system-x86, busybox-static, evemu-tools, udev …)
# and downloads, without installing, Debian's current kernel package into
# tools/vmtest/.vm-cache. Needs root for apt-get, as CI runs. Exit status: the number of
# failed tests (125 when the VM gave no status).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
start=$(date +%s.%N)
scripts/setup-deps.sh
sh tools/vmtest/vm-setup.sh
# Build on the host at full speed; the guest runs the binary through the read-only 9p root.
swift build --product gestured
built=$(date +%s.%N)
# The corpus is found on the host (the guest sees the host's files at the same paths).
source scripts/corpus.sh
export CI=${CI:-}
set +e
VM_ENV="GESTURED_RECORDINGS CI" VM_TIMEOUT=${VM_TIMEOUT:-2400} tools/vmtest/vm-run.sh tools/vmtest/kernel-tests.sh "$@"
status=$?
set -e
end=$(date +%s.%N)
awk -v s="$start" -v b="$built" -v e="$end" \
    'BEGIN { printf "kernel tests: %.0f s in total (setup and build %.0f s, VM %.0f s)\n", e - s, b - s, e - b }'
exit $status
