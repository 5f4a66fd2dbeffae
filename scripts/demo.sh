#!/usr/bin/env bash
# Sets up, builds, and replays the project's lobby session (config/recordings/lobby-session.evemu:
# taps on buttons, a swipe, carousel pans, a long press …) through the lobby kiosk configuration,
# printing the resolved events as JSON Lines. Arguments go to `gestured replay`; a recording
# given last replaces the lobby session, and --config replaces the lobby configuration, e.g.:
#   scripts/demo.sh --trace config/recordings/one-finger-taps.evemu
#   scripts/demo.sh --config config/map.json5 config/recordings/map-session.evemu
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
scripts/setup-deps.sh
swift build -c release --product gestured >&2
config=(--config config/lobby.json5)
recording=(config/recordings/lobby-session.evemu)
for argument in "$@"; do
    case $argument in --config | --config=*) config=() ;; esac
done
# The last argument is a recording unless it is an option or the value of --config.
if (($#)) && [[ ${!#} != -* ]]; then
    before=""
    (($# >= 2)) && before=${*: -2:1}
    [ "$before" = --config ] || recording=()
fi
exec .build/release/gestured replay "${config[@]}" "$@" "${recording[@]}"
