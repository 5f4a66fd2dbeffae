#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer (swiftc -sanitize=fuzzer): scripts/fuzz.sh TARGET
# [SECONDS] builds the target and runs it for SECONDS (default 60) over its seed corpus in
# Fuzz/corpus/TARGET, keeping new inputs in .build/fuzz/corpus/TARGET; `scripts/fuzz.sh all
# SECONDS` runs every target in turn (CI does this with a short budget). A crash leaves its
# input in .build/fuzz/crashes/TARGET and exits non-zero: add it as a regression test.
# docs/fuzzing.md has the long run and what to do with a finding.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"

# Each target: NAME=FUNCTION, a static function of FuzzTargets (Sources/FuzzTargets) that takes
# UnsafeBufferPointer<UInt8>. A new target is one line here.
targets=(
    configuration=configuration    # JSON5 configuration text -> validated, compiled, run
    request=request                # one socket line -> request, reply, layout applied
    evemu=evemu                    # an evemu recording -> streamed, replayed with tracing
    libinput-record=libinputRecord # a libinput record YAML file -> streamed, replayed
    evtest=evtest                  # evtest output -> streamed, replayed
    getevent=getevent              # Android getevent -t output -> streamed, replayed
    gate=gate                      # one page message without the token -> the bridge's gate vs the daemon's parser
)

usage() {
    echo "usage: scripts/fuzz.sh TARGET|all [SECONDS] [libFuzzer options…]" >&2
    echo "targets: ${targets[*]%%=*}" >&2
    exit 2
}
[ $# -ge 1 ] || usage
name=$1
seconds=${2:-60}
shift $(( $# >= 2 ? 2 : 1 ))

scratch=.build/fuzz
# Instrumented modules live in their own build directory, so fuzzing never invalidates the
# normal debug and release builds. -sanitize=fuzzer adds libFuzzer's coverage counters and
# comparison hooks; libFuzzer's main comes in at the link below.
build_modules() {
    swift build -c release --scratch-path "$scratch/build" --target FuzzTargets \
        -Xswiftc -sanitize=fuzzer -Xswiftc -g >&2
}

link_target() {
    local target=$1 function=$2 release="$scratch/build/release"
    mkdir -p "$scratch/bin"
    cat > "$scratch/bin/$target.swift" <<EOF
import FuzzTargets
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTargets.$function(UnsafeBufferPointer(start: data, count: size))
    return 0
}
EOF
    # The objects of FuzzTargets and of the modules it uses (not the executable's main).
    local objects=()
    for module in FuzzTargets GestureRuntime Recordings EvdevInput GestureServer GestureConfig GestureCore \
        GestureSystem SystemPackage CSystem Logging; do
        objects+=("$release/$module.build/"*.o)
    done
    # CLinux (system headers), CLibevdev, CMtdev and swift-system's CSystem are module maps
    # that the modules' interfaces mention; the replay's protocol A converter is libmtdev.
    # Linked by lld, as Package.swift links every program of the package (docs/decisions.md).
    swiftc -sanitize=fuzzer -parse-as-library -O -g -use-ld=lld -I "$release/Modules" -I "$release" \
        -Xcc -fmodule-map-file=Sources/CLinux/module.modulemap \
        -Xcc -fmodule-map-file=Sources/CLibevdev/module.modulemap \
        -Xcc -fmodule-map-file=Sources/CMtdev/module.modulemap \
        $(pkg-config --cflags-only-I libevdev | sed 's/-I/-Xcc -I/g') \
        -Xcc -fmodule-map-file="$scratch/build/checkouts/swift-system/Sources/CSystem/include/module.modulemap" \
        "$scratch/bin/$target.swift" "${objects[@]}" -lm -levdev -lmtdev -o "$scratch/bin/$target" >&2
}

run_target() {
    local target=$1 function=""
    shift
    for entry in "${targets[@]}"; do
        [ "${entry%%=*}" = "$target" ] && function=${entry#*=}
    done
    [ -n "$function" ] || usage
    link_target "$target" "$function"
    local corpus="$scratch/corpus/$target" crashes="$scratch/crashes/$target"
    mkdir -p "$corpus" "$crashes"
    echo "fuzz: $target for ${seconds}s" >&2
    # -timeout: an input that takes 2 s is a stall (issue 12); -rss_limit_mb: one that needs
    # 2 GB is unbounded memory. Both count as findings. SWIFT_BACKTRACE=enable=no: Swift's crash
    # handler would take a trap (fatalError, an overflow) before libFuzzer's, and the input
    # that caused it would not be written to the crashes directory.
    SWIFT_BACKTRACE=enable=no "$scratch/bin/$target" "$corpus" "Fuzz/corpus/$target" -max_total_time="$seconds" -timeout=2 \
        -rss_limit_mb=2048 -max_len=65536 -artifact_prefix="$crashes/" -print_final_stats=1 "$@"
}

build_modules
if [ "$name" = all ]; then
    for entry in "${targets[@]}"; do run_target "${entry%%=*}" "$@"; done
else
    run_target "$name" "$@"
fi
