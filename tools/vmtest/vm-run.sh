#!/bin/bash
# Usage: vm-run.sh SCRIPT [ARGS...]
# Boots Debian's kernel under QEMU (software emulation: the host's /dev/kvm cannot run a stock
# kernel), runs "bash SCRIPT ARGS" as root in the guest, in the current directory, with the
# host's files visible read-only (writes land in a throwaway tmpfs overlay) and /dev/uinput
# present. The guest console goes to stdout; the exit status is the script's, or 125 when the
# guest gave none (crash, timeout).
# Env: VM_CACHE (default: .vm-cache beside this script), VM_MEM (512M), VM_CPUS (2),
#      VM_TIMEOUT (seconds, 300), VM_RW_DIR (host dir writable in the guest at the same path),
#      VM_APPEND (extra kernel args). no_timer_check is always given: on a loaded host the
#      emulated timer can fail the kernel's IO-APIC check ("IO-APIC + timer doesn't work", a panic).
set -euo pipefail
HERE=$(dirname "$(readlink -f "$0")")
CACHE=${VM_CACHE:-$HERE/.vm-cache}
[ -f "$CACHE/initramfs.cpio.gz" ] || sh "$HERE/vm-setup.sh" "$CACHE" >&2
JOB=$(mktemp -d); trap 'rm -rf "$JOB"' EXIT
script=$(readlink -f "$1"); shift
{ printf 'export PATH=%q HOME=/root\n' "$PATH"
  printf 'exec /bin/bash %q' "$script"; [ $# -eq 0 ] || printf ' %q' "$@"; echo; } > "$JOB/cmd.sh"
pwd > "$JOB/cwd"
RW=()
if [ -n "${VM_RW_DIR:-}" ]; then
  d=$(readlink -f "$VM_RW_DIR"); echo "$d" > "$JOB/rwdir"
  RW=(-virtfs "local,path=$d,mount_tag=rwdir,security_model=none")
fi
set +e
# Always under timeout: after a KVM-style internal error QEMU pauses instead of exiting.
timeout -k 10 "${VM_TIMEOUT:-300}" qemu-system-x86_64 \
  -accel tcg,thread=multi -cpu max -smp "${VM_CPUS:-2}" -m "${VM_MEM:-512M}" \
  -display none -vga none -serial stdio -monitor none -nic none -no-reboot \
  -kernel "$CACHE/vmlinux" -initrd "$CACHE/initramfs.cpio.gz" \
  -append "console=ttyS0 quiet loglevel=3 panic=-1 no_timer_check ${VM_APPEND:-}" \
  -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
  -virtfs "local,path=$JOB,mount_tag=job,security_model=none" \
  "${RW[@]}" < /dev/null
qrc=$?
set -e
[ -f "$JOB/status" ] && exit "$(cat "$JOB/status")"
echo "vm-run: guest gave no exit status (qemu exit $qrc)" >&2
exit 125
