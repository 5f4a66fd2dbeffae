#!/usr/bin/env bash
# Sets up and runs every test of gestured: the Swift test suite (unit, integration, command
# line, socket and service tests), then the real-kernel tests of the live input path in a
# virtual machine (scripts/kernel-tests.sh, 3 to 6 minutes more), then the boot test: the
# Debian package built and proven on Debian 12 under real systemd (scripts/boot-test.sh).
#
# The tests over the external corpus of real recordings read it from GESTURED_RECORDINGS
# (default: shared/recordings beside the repository). Without it they are skipped, reported in
# one line, and everything else runs on the project's own recordings; with CI=true a missing
# corpus fails the run.
#
# Arguments go to `swift test` and run the Swift suite only (e.g. --filter
# ReplayRecordingsTests). Without arguments, every fuzz target also runs for
# GESTURED_FUZZ_SECONDS (default 30) over its seed corpus (docs/fuzzing.md;
# GESTURED_FUZZ_SECONDS=0 skips that), then the soak test (scripts/soak.sh, a replay served for
# GESTURED_SOAK_SECONDS, default 180, to clients that misbehave; 0 skips it);
# GESTURED_SKIP_KERNEL_TESTS=1 skips the kernel tests,
# GESTURED_SKIP_BOOT_TEST=1 the boot test (except under CI=true: CI always proves the package).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
scripts/setup-deps.sh
# The module diagram of docs/architecture.md against the imports and Package.swift.
scripts/check-architecture.sh
swift build --build-tests
# Swift Testing reports each skipped test of a skipped suite; the corpus's skips are summed up
# in one line at the end instead.
swift test --skip-build "$@" 2>&1 | awk '
    /skipped: "no recording corpus at / {
        if (!note) { note = $0; sub(/^.*skipped: "/, "", note); sub(/"$/, "", note) }
        skipped++
        next
    }
    { print; fflush() }
    END { if (skipped) printf "corpus: %d suites and tests skipped (%s)\n", skipped, note }'
[ $# -eq 0 ] || exit 0
status=0
if [ "${GESTURED_FUZZ_SECONDS:-30}" != 0 ]; then
    scripts/fuzz.sh all "${GESTURED_FUZZ_SECONDS:-30}" || status=1
fi
if [ "${GESTURED_SOAK_SECONDS:-180}" != 0 ]; then
    scripts/soak.sh "${GESTURED_SOAK_SECONDS:-180}" || status=1
fi
if [ "${GESTURED_SKIP_KERNEL_TESTS:-0}" != 1 ]; then
    scripts/kernel-tests.sh || status=1
fi
if [ "${GESTURED_SKIP_BOOT_TEST:-0}" != 1 ] || [ "${CI:-}" = true ]; then
    scripts/boot-test.sh || status=1
fi
exit $status
