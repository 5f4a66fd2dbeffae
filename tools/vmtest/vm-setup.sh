#!/bin/sh
# One-time (cacheable) setup for vm-run.sh. Usage: vm-setup.sh [CACHE_DIR]
# Installs the host tools, fetches Debian's current amd64 kernel package WITHOUT installing
# it, and builds CACHE/vmlinux (uncompressed, PVH-bootable: skips ~3 s of xz decompression
# under software emulation) and CACHE/initramfs.cpio.gz (busybox + vm-init + the modules
# below). About 5 s when the packages are installed; a no-op when the cache is complete.
set -eu
HERE=$(dirname "$(readlink -f "$0")")
CACHE=$(readlink -f "${1:-$HERE/.vm-cache}")
MODULES="virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci
         netfs fscache 9pnet 9pnet_virtio 9p overlay evdev uinput"
export DEBIAN_FRONTEND=noninteractive
# The guest runs the host's binaries: evemu-tools drives uinput, libevdev/libmtdev are what
# gestured links, and udev's systemd-udevd classifies the virtual devices and applies rules
# (vm-init starts it), as on a kiosk; libinput-tools (with libinput's udev rules) checks what
# a compositor makes of the virtual panel.
PKGS="qemu-system-x86 busybox-static cpio xz-utils zstd libevdev-dev libmtdev-dev evemu-tools udev libinput-tools"
if dpkg-query -W -f='${Status}\n' $PKGS 2>/dev/null | grep -qv '^install ok installed$' \
   || [ "$(dpkg-query -W -f='${Status}\n' $PKGS 2>/dev/null | wc -l)" -ne "$(echo $PKGS | wc -w)" ]; then
  apt-get update -q
  apt-get install -y -q --no-install-recommends $PKGS
fi
if [ -f "$CACHE/initramfs.cpio.gz" ] && [ -f "$CACHE/vmlinux" ]; then
  # A cache built with another vm-init gets this one: the modules are unpacked from the cached
  # initramfs, so the kernel package is not fetched again.
  if ! cmp -s "$HERE/vm-init" "$CACHE/vm-init"; then
    T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
    (cd "$T" && gzip -dc "$CACHE/initramfs.cpio.gz" | cpio -id --quiet)
    install -m 755 "$HERE/vm-init" "$T/init"
    (cd "$T" && find . | cpio -o -H newc --quiet | gzip -1) > "$CACHE/initramfs.cpio.gz"
    cp "$HERE/vm-init" "$CACHE/vm-init"
    echo "vm-setup: initramfs of $CACHE updated to this vm-init"
  fi
  exit 0
fi
mkdir -p "$CACHE"; T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
# VM_KERNEL=backports: bookworm-backports' kernel instead of Debian 12's own (6.5 and later let
# uinput take the events' times: docs/routing.md, "Times"), through apt lists of its own in the
# cache, so the host's apt configuration is left as it is. Use another VM_CACHE for it.
APT_OPTIONS=
if [ "${VM_KERNEL:-}" = backports ]; then
  A="$CACHE/apt"; mkdir -p "$A/lists/partial" "$A/cache"
  echo "deb http://deb.debian.org/debian bookworm-backports main" > "$A/sources.list"
  APT_OPTIONS="-o Dir::Etc::SourceList=$A/sources.list -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists=$A/lists -o Dir::Cache=$A/cache"
fi
apt-get $APT_OPTIONS update -q >/dev/null   # fresh lists, so the kernel .deb named below still exists
PKG=$(apt-cache $APT_OPTIONS depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
(cd "$T" && apt-get $APT_OPTIONS download -q -o APT::Sandbox::User=root "$PKG" >/dev/null)
dpkg-deb --fsys-tarfile "$T"/"$PKG"_*.deb | tar -x -C "$T" --wildcards './boot/vmlinuz-*' './lib/modules/*'
KVER=$(ls "$T/lib/modules" | head -n1)
VMLINUZ="$T/boot/vmlinuz-$KVER"
off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$VMLINUZ" | head -n1 | cut -d: -f1)
if [ -n "$off" ]; then
  tail -c +$((off + 1)) "$VMLINUZ" | xz -dc --single-stream > "$CACHE/vmlinux"
else
  # Later kernels (bookworm-backports' 6.12) are ZSTD: the first frame is the kernel, and zstd
  # fails on the setup code's tail after it, which is not ours to check.
  off=$(LC_ALL=C grep -obUaP '\x28\xb5\x2f\xfd' "$VMLINUZ" | head -n1 | cut -d: -f1)
  tail -c +$((off + 1)) "$VMLINUZ" | zstd -dcq > "$CACHE/vmlinux" 2>/dev/null || true
  head -c 4 "$CACHE/vmlinux" | grep -q ELF || { echo "vm-setup: no kernel found in $VMLINUZ" >&2; exit 1; }
fi
cp "$VMLINUZ" "$CACHE/vmlinuz"
R="$T/initramfs"; mkdir -p "$R/bin" "$R/modules"
cp /bin/busybox "$R/bin/busybox"
install -m 755 "$HERE/vm-init" "$R/init"
for m in $MODULES; do
  f=$(find "$T/lib/modules/$KVER/kernel" -name "$m.ko*" | head -n1)
  # Built into a later kernel (6.12's virtio): nothing to load.
  [ -n "$f" ] || ! grep -q "/$m\.ko\$" "$T/lib/modules/$KVER/modules.builtin" || continue
  # fscache became part of netfs (6.12).
  [ -n "$f" ] || [ "$m" != fscache ] || continue
  [ -n "$f" ] || { echo "vm-setup: module $m missing in $KVER" >&2; exit 1; }
  case $f in
    *.xz)  xz -dc "$f" > "$R/modules/$m.ko" ;;
    *.zst) zstd -dcq "$f" > "$R/modules/$m.ko" ;;
    *)     cp "$f" "$R/modules/$m.ko" ;;
  esac
  echo "$m" >> "$R/modules/order"
done
(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1) > "$CACHE/initramfs.cpio.gz"
cp "$HERE/vm-init" "$CACHE/vm-init"
echo "$KVER" > "$CACHE/kver"
echo "vm-setup: kernel $KVER ready in $CACHE"
