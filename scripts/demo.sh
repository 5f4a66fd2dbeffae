#!/usr/bin/env bash
# Sets up, builds, and replays a bundled real touchscreen recording (a 4-finger drag on an
# Atmel maXTouch panel) through the bundled lobby layout, printing the resolved events as
# JSON Lines. Arguments replace the default recording, e.g.:
#   scripts/demo.sh --trace ../shared/recordings/hidrec-egalax-7224.2f.evemu
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
scripts/setup-deps.sh
swift build -c release --product gestured >&2
if (($#)); then
    exec .build/release/gestured replay --config config/lobby.json5 "$@"
fi
exec .build/release/gestured replay --config config/lobby.json5 config/recordings/atmel-maxtouch.4-finger-drag-down.evemu
