#!/usr/bin/env bash
# Sets up and runs every test of gestured: the Swift test suite (unit, integration, command
# line, socket and service tests), then the real-kernel tests of the live input path in a
# virtual machine (scripts/kernel-tests.sh, about 2 minutes more), then the boot test: the
# Debian package built and proven on Debian 12 under real systemd (scripts/boot-test.sh).
#
# GESTURED_SKIP_KERNEL_TESTS=1 skips the kernel tests, GESTURED_SKIP_BOOT_TEST=1 the boot
# test (except under CI=true: CI always proves the package); arguments go to `swift test` and run the Swift
# suite only (e.g. --filter ReplayRecordingsTests).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
scripts/setup-deps.sh
swift build --build-tests
swift test --skip-build "$@"
[ $# -eq 0 ] || exit 0
status=0
if [ "${GESTURED_SKIP_KERNEL_TESTS:-0}" != 1 ]; then
    scripts/kernel-tests.sh || status=1
fi
if [ "${GESTURED_SKIP_BOOT_TEST:-0}" != 1 ] || [ "${CI:-}" = true ]; then
    scripts/boot-test.sh || status=1
fi
exit $status
