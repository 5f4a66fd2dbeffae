#!/usr/bin/env bash
# Sets up and runs every test of gestured.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
scripts/setup-deps.sh
swift build --build-tests
swift test --skip-build "$@"
