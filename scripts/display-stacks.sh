#!/usr/bin/env bash
# What the display stacks make of a late claim, measured (issue 26; docs/routing.md, "What a
# late claim becomes"): in the kernel-test VM (tools/vmtest/), gestured forwards a session's
# touches to its virtual panel and takes some back late (tools/displaystacks/late-claim.*), and
# X (Xorg with xf86-input-libinput: `xinput test-xi2 --root`, then Chromium) and cage (wlroots:
# Chromium on Wayland, its wl_touch events) read the copy. Prints, per episode of the session,
# what libinput, X's clients, cage's client and the page saw.
#
# Usage: scripts/display-stacks.sh [RUN...]   RUN: x-xi2 x-chromium cage-chromium (default: all)
# Env: DISPLAY_STACKS_OUT (default /tmp/display-stacks): where the runs' logs are kept.
# A measurement, not part of CI or scripts/test.sh. Installs the stacks on the host with apt-get
# (the guest runs the host's binaries over 9p, as tools/vmtest/vm-setup.sh does), so it needs
# root. Takes 10 to 20 minutes on a busy 2-core host (software emulation; Chromium's start is
# most of it), plus the packages the first time.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
start=$(date +%s)
scripts/setup-deps.sh
sh tools/vmtest/vm-setup.sh
# What the guest needs beside the kernel tests' packages: X with the dummy video driver and
# xf86-input-libinput, xinput; cage (it refuses to start without Xwayland), seatd for its
# libinput backend's seat; Chromium for the page.
PKGS="xserver-xorg-core xserver-xorg-input-libinput xserver-xorg-video-dummy xinput cage xwayland seatd chromium fonts-dejavu-core"
if [ "$(dpkg-query -W -f='${Status}\n' $PKGS 2>/dev/null | grep -c '^install ok installed$')" -ne "$(echo $PKGS | wc -w)" ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q --no-install-recommends $PKGS
fi
swift build --product gestured
swift build --product gestured-synth
BIN=$(swift build --show-bin-path)
OUT=${DISPLAY_STACKS_OUT:-/tmp/display-stacks}
mkdir -p "$OUT"
"$BIN/gestured-synth" -o "$OUT/late-claim.evemu" tools/displaystacks/late-claim.touches
[ $# -gt 0 ] || set -- x-xi2 x-chromium cage-chromium
{ echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "kernel: $(cat tools/vmtest/.vm-cache/kver)"
  dpkg-query -W -f='${Package} ${Version}\n' libinput10 xserver-xorg-core xserver-xorg-input-libinput cage libwlroots10 chromium seatd
} > "$OUT/versions.txt"
set +e
VM_MEM=${VM_MEM:-5G} VM_TIMEOUT=${VM_TIMEOUT:-2400} VM_RW_DIR=$OUT \
    tools/vmtest/vm-run.sh tools/displaystacks/in-guest.sh "$OUT" "$@"
status=$?
set -e
/usr/bin/python3 tools/displaystacks/summarise.py "$OUT" "$@"
echo "display-stacks: $(( $(date +%s) - start )) s in all; logs in $OUT"
exit $status
