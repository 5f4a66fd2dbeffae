#!/bin/sh
# One-time (cacheable) setup for the boot test. Usage: boot-setup.sh CACHE_DIR
#  - CACHE_DIR/rootfs: a Debian 12 root file system, debootstrap --variant=minbase with systemd,
#    udev, the input libraries gestured links, evemu-tools and python3, the kiosk browser's
#    packages, and Mosquitto (broker and clients: libmosquitto1, which gestured-mqtt links,
#    comes with them) and prometheus-node-exporter for the MQTT check (about 980 MB). Kept
#    outside the clone, rebuilt when missing, incomplete or made for another package list. The guest only ever sees it read-only.
#  - CACHE_DIR/initramfs.cpio.gz: the kernel-test VM's initramfs (tools/vmtest/vm-setup.sh:
#    busybox, 9p, overlay, evdev and uinput modules of Debian's kernel) with boot-init as its
#    init, which hands over to systemd.
# Debian's kernel itself is tools/vmtest's (.vm-cache/vmlinux), set up here when missing.
set -eu
HERE=$(dirname "$(readlink -f "$0")")
CACHE=$1
VMCACHE=${VM_CACHE:-$HERE/../vmtest/.vm-cache}
PACKAGES=systemd,systemd-sysv,udev,libevdev2,libmtdev1,evemu-tools,python3,dbus,libinput-tools,cage,seatd,libseat1,chromium,dbus-user-session,fonts-dejavu-core,xwayland,mosquitto,mosquitto-clients,prometheus-node-exporter
export DEBIAN_FRONTEND=noninteractive
need=""
for p in debootstrap qemu-system-x86 cpio; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need="$need $p"
done
if [ -n "$need" ]; then
  apt-get update -q
  apt-get install -y -q --no-install-recommends $need
fi
VM_CACHE=$VMCACHE sh "$HERE/../vmtest/vm-setup.sh" "$VMCACHE" >&2
mkdir -p "$CACHE"

if [ "$(cat "$CACHE/rootfs.done" 2>/dev/null)" != "bookworm minbase $PACKAGES" ]; then
  rm -rf "$CACHE/rootfs" "$CACHE/rootfs.done"
  # The mirror apt uses on this machine, else Debian's.
  mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)
  [ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $3 ~ /^bookworm$/ { print $2; exit }' /etc/apt/sources.list 2>/dev/null)
  echo "boot-setup: debootstrap bookworm into $CACHE/rootfs from ${mirror:-the default mirror}" >&2
  # The packages downloaded are kept in CACHE/debs: a changed list fetches only what is new.
  mkdir -p "$CACHE/debs"
  debootstrap --variant=minbase --cache-dir="$(cd "$CACHE/debs" && pwd)" --include="$PACKAGES" bookworm "$CACHE/rootfs" ${mirror:-} > "$CACHE/debootstrap.log" 2>&1 \
    || { tail -n 20 "$CACHE/debootstrap.log" >&2; exit 1; }
  echo gestured-boot-test > "$CACHE/rootfs/etc/hostname"
  rm -rf "$CACHE/rootfs/var/cache/apt/archives/"*.deb
  echo "bookworm minbase $PACKAGES" > "$CACHE/rootfs.done"
  echo "boot-setup: root file system ready ($(du -sh "$CACHE/rootfs" | cut -f1))" >&2
fi

# Nothing else in the guest (every run, so an older cache gets them too): no serial login
# prompt on the test's console, no apt timers; binfmt_misc needs autofs4, which the
# initramfs does not load; there is no ext4 to scrub.
for unit in serial-getty@ttyS0.service getty@tty1.service apt-daily.timer apt-daily-upgrade.timer \
            proc-sys-fs-binfmt_misc.automount e2scrub_reap.service e2scrub_all.timer; do
  ln -sfn /dev/null "$CACHE/rootfs/etc/systemd/system/$unit"
done

if [ ! -f "$CACHE/initramfs.cpio.gz" ] || [ "$HERE/boot-init" -nt "$CACHE/initramfs.cpio.gz" ] \
   || [ "$VMCACHE/initramfs.cpio.gz" -nt "$CACHE/initramfs.cpio.gz" ]; then
  T=$(mktemp -d)
  (cd "$T" && gzip -dc "$VMCACHE/initramfs.cpio.gz" | cpio -id --quiet)
  install -m 755 "$HERE/boot-init" "$T/init"
  (cd "$T" && find . | cpio -o -H newc --quiet | gzip -1) > "$CACHE/initramfs.cpio.gz.new"
  mv "$CACHE/initramfs.cpio.gz.new" "$CACHE/initramfs.cpio.gz"
  rm -rf "$T"
fi
