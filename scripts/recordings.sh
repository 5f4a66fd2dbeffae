#!/usr/bin/env bash
# Regenerates the project's own recordings from their gesture scripts with gestured-synth
# (tools/synth/README.md): every config/recordings/*.touches, Tests/Fixtures/recordings/
# *.touches and tools/boottest/*.touches (the boot test's browser check) gives the .evemu
# beside it. With --check, writes nothing and exits 1 if a committed recording differs from
# what its script renders (the test suite checks the same).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
scripts/setup-deps.sh
swift build --product gestured-synth >&2
exec "$(swift build --show-bin-path)/gestured-synth" "$@" config/recordings/*.touches Tests/Fixtures/recordings/*.touches tools/boottest/*.touches
