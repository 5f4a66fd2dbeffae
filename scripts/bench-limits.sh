#!/usr/bin/env bash
# The engine's cost at the layout limits (issue 25; docs/limits.md § Engine, docs/performance.md):
# layouts of 10,000 recognizers (Benchmarks/limits/make_layout.py) — all on one view, spread
# over a chain of 62 nested views, and on one view with requireToFail and simultaneousWith
# lists — replayed against ten fingers panning (Benchmarks/limits/ten-finger-pan.touches,
# 16.03 s at 100 frames a second). For each: the replay's wall and user time against the
# recording's length, and callgrind's instructions per frame while the fingers move (a one- and
# a two-second pan, the difference over the 100 frames between them). About 10 minutes.
# Usage: scripts/bench-limits.sh [RECOGNIZERS]   (default 10000)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
recognizers=${1:-10000}
need=()
for package in valgrind python3 time; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || need+=("$package")
done
if ((${#need[@]})); then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
swift build -c release --product gestured >/dev/null
swift build -c release --product gestured-synth >/dev/null
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The recording, and a one- and a two-second pan for the instructions per frame.
script=Benchmarks/limits/ten-finger-pan.touches
"$bin/gestured-synth" -o "$work/pan.evemu" "$script" >/dev/null 2>&1
panel=$PWD/config/recordings/panel.desc
for seconds in 1 2; do
    { echo "panel $panel"; echo "screen 1920 1080"
      grep -m1 '^down' "$script"; grep -m1 '^move' "$script" | sed "s/over 5s/over ${seconds}s/"; grep -m1 '^up' "$script"
    } > "$work/pan$seconds.touches"
    "$bin/gestured-synth" -o "$work/pan$seconds.evemu" "$work/pan$seconds.touches" >/dev/null 2>&1
done
duration=$(awk '/^E:/ { t = $2 } END { printf "%.2f", t }' "$work/pan.evemu")

layout() { # name, arguments of make_layout.py
    local name=$1
    shift
    python3 Benchmarks/limits/make_layout.py --recognizers "$recognizers" "$@" > "$work/$name.json"
    printf '{ screen: { width: 1920, height: 1080 }, layout: "%s.json" }\n' "$name" > "$work/$name.json5"
}
layout one-view --shape one-view
layout chain --shape chain
layout references --shape one-view --references 60

instructions() { # config, recording: callgrind's total
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin/gestured" replay --config "$1" "$2" 2>&1 >/dev/null \
        | awk '/Collected :/ { print $4 }'
}

echo "== $recognizers recognizers, ten fingers panning for ${duration} s ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
for name in one-view chain references; do
    config=$work/$name.json5
    /usr/bin/time -f "%e %U %M" -o "$work/time" "$bin/gestured" replay --config "$config" "$work/pan.evemu" >/dev/null
    read -r wall user rss < "$work/time"
    /usr/bin/time -f "%e %U" -o "$work/time" "$bin/gestured" check-config "$config" >/dev/null
    read -r load_wall load_user < "$work/time"
    one=$(instructions "$config" "$work/pan1.evemu")
    two=$(instructions "$config" "$work/pan2.evemu")
    awk -v name="$name" -v wall="$wall" -v user="$user" -v rss="$rss" -v lw="$load_wall" -v lu="$load_user" \
        -v d="$duration" -v one="$one" -v two="$two" 'BEGIN {
        printf "%-10s replay %.2f s wall (%.2f x real time), %.2f s user, %d MB; loading the layout alone %.2f s wall, %.2f s user; %.0f instructions a frame while 10 fingers move\n",
            name, wall, wall / d, user, rss / 1024, lw, lu, (two - one) / 100 }'
done
