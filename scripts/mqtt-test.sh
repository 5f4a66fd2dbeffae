#!/usr/bin/env bash
# gestured-mqtt against a real Mosquitto (docs/fleet.md, "Tests"): Debian's mosquitto on a
# loopback port with a password file and TLS from a CA made at run time, gestured replaying
# config/recordings/lobby-session.evemu through --socket, the sidecar between them, and
# mosquitto_sub and node-exporter's textfile collector checking what arrives
# (scripts/mqtt_test.py lists the checks). About a minute, of which the broker outage is
# GESTURED_MQTT_OUTAGE_SECONDS (default 30). The access-rule check runs the second sidecar as
# nobody (setpriv), so it needs root; scripts/test.sh runs this after the Swift suite.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
scripts/setup-deps.sh
swift build --product gestured
swift build --product gestured-mqtt
exec python3 scripts/mqtt_test.py "$(swift build --show-bin-path)"
