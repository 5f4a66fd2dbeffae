#!/usr/bin/env bash
# The boot test: the Debian package on a booted Debian 12 system under real systemd.
#
# Boots Debian's kernel under QEMU (software emulation, as the kernel tests: tools/vmtest/)
# with a debootstrap'd Debian 12 root file system (cached in GESTURED_BOOT_CACHE, default
# ~/.cache/gestured-boot-vm, outside the clone; built once, about 2 minutes) and systemd as
# PID 1. In it, tools/boottest/in-guest.sh installs the previous package (0.1.0-1's packaging
# around this package's binaries, 0.1.0-0) with the web bridge enabled and a client
# subscribed, upgrades to this .deb with dpkg -i (no Swift toolchain there) and checks that
# every unit that ran runs again and clients reconnect; creates a virtual panel from a
# recording's description (uinput, evemu-device) and
# checks: the udev rule's symlink and group; socket activation; a kiosk user in the gestured
# group subscribed with the Python client while the recording plays receives what
# `gestured replay` prints; the STATUS line in systemctl status; the web bridge, started
# under its own hardened unit, serves gestured.js and a WebSocket session that reaches the
# daemon; a reload with a broken configuration keeps the daemon and logs the error; the
# watchdog restarts a stopped daemon; unplug and replug; `systemctl stop` says bye; routing
# (the unit makes the virtual panel, the panel is grabbed, the touches reach the copy); routing
# seen by libinput and by Chromium in cage (a forwarded element gets DOM touches through the
# copy, a claimed view gestured's gestures, tools/boottest/README.md); the
# hardening really applies; a configuration error that leaves the socket up; the
# systemd-analyze security score; remove (the udev name goes), purge without warnings, and a
# fresh install after which a user "kiosk" can be created. Results come back through a
# writable 9p share.
#
# Usage: scripts/boot-test.sh [DEB]   (default: builds one with scripts/package-deb.sh)
# Env: GESTURED_BOOT_CACHE; GESTURED_BOOT_PREVIOUS, the package to upgrade from (default: made
#      from DEB's binaries and PREVIOUS_COMMIT's packaging below, by
#      tools/boottest/previous-package.sh: the clone needs that commit, not a shallow one);
#      GESTURED_BOOT_RECORDING, an evemu recording (description and
#      events) to play instead of the test's own; GESTURED_BOOT_OUT, a directory that keeps
#      every output (default: a temporary one, removed). Needs root for apt-get and
#      debootstrap, as CI runs. Exit status: the number of failed checks (125: no result).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
start=$(date +%s)
cache=${GESTURED_BOOT_CACHE:-$HOME/.cache/gestured-boot-vm}
sh tools/boottest/boot-setup.sh "$cache"
deb=${1:-}
if [ -z "$deb" ]; then
    deb=$(scripts/package-deb.sh | tail -n 1)
fi
[ -f "$deb" ] || { echo "boot-test: no package at $deb" >&2; exit 125; }

# The package to upgrade from: what kiosks ran before this package, 0.1.0-1. What an upgrade
# exercises is that package's maintainer scripts and units (its prerm and preinst stop units
# the old way) followed by this one's, so tools/boottest/previous-package.sh packs DEB's
# binaries with the packaging of PREVIOUS_COMMIT (debian/, the units, the udev rule, sysusers,
# the sample configuration; read with git archive), labelled 0.1.0-0: no second Swift build,
# debhelper alone (docs/decisions.md, "The previous package in the boot test"). Relabelling this
# tree's own packaging with a lower version would upgrade from this tree's scripts and prove
# nothing about the old ones.
PREVIOUS_COMMIT=c6769d7faaeda903db4687fc652f1276e0bc4726
previous_dir=$(mktemp -d)
trap 'rm -rf "$previous_dir"' EXIT
if [ -n "${GESTURED_BOOT_PREVIOUS:-}" ]; then
    previous=$GESTURED_BOOT_PREVIOUS
    [ -f "$previous" ] || { echo "boot-test: no package at $previous" >&2; exit 125; }
else
    echo "== boot test: the previous package, $PREVIOUS_COMMIT's packaging around $(basename "$deb")'s binaries"
    previous_start=$(date +%s)
    previous=$(tools/boottest/previous-package.sh "$PREVIOUS_COMMIT" 0.1.0-0 "$deb" "$previous_dir" | tail -n 1) \
        || { echo "boot-test: the previous package could not be made (exit $?)" >&2; exit 125; }
    [ -f "$previous" ] || { echo "boot-test: no previous package at '$previous'" >&2; exit 125; }
    echo "boot-test: previous package $(basename "$previous") in $(( $(date +%s) - previous_start )) s"
fi
ready=$(date +%s)

if [ -n "${GESTURED_BOOT_OUT:-}" ]; then
    job=$(mkdir -p "$GESTURED_BOOT_OUT" && cd "$GESTURED_BOOT_OUT" && pwd)
    rm -rf "${job:?}"/*
else
    job=$(mktemp -d)
    trap 'rm -rf "$job" "$previous_dir"' EXIT
fi
chmod 755 "$job"
cp "$deb" tools/boottest/in-guest.sh tools/boottest/normalise.py tools/boottest/web-check.py \
    tools/boottest/boot_websocket.py tools/boottest/devtools.py tools/boottest/browser-check.py \
    tools/boottest/browser-page.html tools/boottest/browser-session.evemu \
    tools/boottest/gestured-boot-test.service "$job/"
mkdir -p "$job/previous"
cp "$previous" "$job/previous/"
# What GET /gestured.js must serve: the minified module the bridge embeds at build time, its
# source map named as the bridge serves it (docs/protocol.md, "The bridge's HTTP side").
sed '$ s|^//# sourceMappingURL=.*$|//# sourceMappingURL=gestured.js.map|' web/dist/gestured.min.js > "$job/gestured.js"

# The recording: the panel's description and the events played into it. By default the
# test's own, on the 10-slot 1920 × 1080 panel of tools/vmtest/touchscreen.desc, made for the
# lobby sample layout (/etc/gestured): a tap on the check-in button, a one-finger pan across
# the carousel, a tap on the welcome dialog's start button.
if [ -n "${GESTURED_BOOT_RECORDING:-}" ]; then
    cp "$GESTURED_BOOT_RECORDING" "$job/recording.evemu"
else
    {
        cat tools/vmtest/touchscreen.desc
        python3 - <<'EOF'
t = 0.0
def frame(*events):
    for kind, code, value in events:
        print("E: %.6f %04x %04x %d" % (t, kind, code, value))
    print("E: %.6f 0000 0000 0" % t)
ABS, KEY = 3, 1
def down(tracking, x, y):
    frame((ABS, 0x2f, 0), (ABS, 0x39, tracking), (ABS, 0x35, x), (ABS, 0x36, y), (KEY, 0x14a, 1), (ABS, 0x00, x), (ABS, 0x01, y))
def move(x, y):
    frame((ABS, 0x35, x), (ABS, 0x36, y), (ABS, 0x00, x), (ABS, 0x01, y))
def up():
    frame((ABS, 0x39, -1), (KEY, 0x14a, 0))
# tap on checkIn (buttonRow [0, 700] + [180, 40, 440, 120]): down, 60 ms, up
down(1, 400, 800); t += 0.06; up(); t += 0.6
# pan on the carousel above the welcome dialog: 700 points right in 30 frames of 16 ms
down(2, 300, 200)
for step in range(1, 31):
    t += 0.016; move(300 + step * 700 // 30, 200 + step % 3)
t += 0.016; up(); t += 0.6
# tap on welcomeStart (welcomeDialog [660, 300] + [60, 240, 220, 80])
down(3, 830, 580); t += 0.07; up()
EOF
    } > "$job/recording.evemu"
fi

echo "== boot test: booting Debian 12 with systemd (QEMU, emulated CPU)"
set +e
timeout -k 10 "${VM_TIMEOUT:-2400}" qemu-system-x86_64 \
    -accel tcg,thread=multi -cpu max -smp "${VM_CPUS:-2}" -m "${VM_MEM:-2G}" \
    -display none -vga none -serial stdio -monitor none -nic none -no-reboot \
    -kernel "${VM_CACHE:-tools/vmtest/.vm-cache}/vmlinux" -initrd "$cache/initramfs.cpio.gz" \
    -append "console=ttyS0 quiet loglevel=3 panic=-1 systemd.show_status=error" \
    -virtfs "local,path=$cache/rootfs,mount_tag=rootfs,security_model=passthrough,readonly=on,multidevs=remap" \
    -virtfs "local,path=$job,mount_tag=job,security_model=none" < /dev/null
qemu=$?
set -e
end=$(date +%s)
echo "== boot test results"
echo "boot test: $((end - start)) s in total (setup and package $((ready - start)) s, VM $((end - ready)) s)"
[ -s "$job/facts.txt" ] && sed 's/^/  /' "$job/facts.txt"
# Last, ending with the plain 'boot: N passed, N failed' line CI reads.
[ -s "$job/results.txt" ] && cat "$job/results.txt"
[ -f "$job/status" ] && exit "$(cat "$job/status")"
echo "boot test: the guest gave no result (qemu exit $qemu)" >&2
[ -f "$job/journal.txt" ] || echo "boot test: no journal either; the console above shows how far it got" >&2
exit 125
