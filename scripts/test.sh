#!/usr/bin/env bash
# Sets up and runs every test of gestured: the Swift test suite (unit, integration, command
# line, socket and service tests), then the real-kernel tests of the live input path in a
# virtual machine (scripts/kernel-tests.sh, about 2 minutes more).
#
# GESTURED_SKIP_KERNEL_TESTS=1 runs the Swift suite only; arguments go to `swift test`
# (e.g. --filter ReplayRecordingsTests). Without arguments, every fuzz target also runs for
# GESTURED_FUZZ_SECONDS (default 30) over its seed corpus (docs/fuzzing.md);
# GESTURED_FUZZ_SECONDS=0 skips that.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
scripts/setup-deps.sh
swift build --build-tests
swift test --skip-build "$@"
if [ "${GESTURED_FUZZ_SECONDS:-30}" != 0 ] && [ $# -eq 0 ]; then
    scripts/fuzz.sh all "${GESTURED_FUZZ_SECONDS:-30}"
fi
if [ "${GESTURED_SKIP_KERNEL_TESTS:-0}" != 1 ] && [ $# -eq 0 ]; then
    scripts/kernel-tests.sh
fi
