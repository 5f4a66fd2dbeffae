#!/usr/bin/env bash
# Regenerates the golden transcripts (Tests/Golden/recordings.txt says which): every listed
# recording replayed with --trace through every sample configuration, written to
# Tests/Golden/<recording>/<configuration>.jsonl. GoldenTranscriptTests compares replays with
# these files byte for byte, so a behaviour change shows up as a readable diff in review:
# run this after a deliberate change and commit the diff with the reason.
#
# The external real-recording corpus is read from $GESTURED_RECORDINGS (default
# ../shared/recordings); without it only the repository's own recordings are regenerated.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
corpus=${GESTURED_RECORDINGS:-../shared/recordings}
swift build --product gestured >&2
gestured=$(swift build --show-bin-path)/gestured
written=0 skipped=0
while read -r source recording rest; do
    case "$source" in ''|'#'*) continue ;; esac
    events='' force='' only='' panel=''
    for word in $rest; do
        case "$word" in
            force) force=--force ;;
            panel) panel=yes ;;
            config=*) only=${word#config=} ;;
            *) events=$word ;;
        esac
    done
    case "$source" in
        corpus) dir=$corpus ;;
        repo) dir=. ;;
        *) echo "golden: unknown source '$source' in Tests/Golden/recordings.txt" >&2; exit 1 ;;
    esac
    if [ ! -f "$dir/$recording" ]; then
        echo "golden: $dir/$recording is absent; its transcripts are left as they are" >&2
        skipped=$((skipped + 1))
        continue
    fi
    name=$(basename "$recording")
    mkdir -p "Tests/Golden/$name"
    configs=${only:-$(ls config/*.json5)}
    for config in $configs; do
        out="Tests/Golden/$name/$(basename "$config" .json5).jsonl"
        # With `panel`: the virtual panel's stream too, as an evemu recording (docs/routing.md).
        panelArgs=()
        if [ -n "$panel" ]; then panelArgs=(--panel "Tests/Golden/$name/$(basename "$config" .json5).panel.evemu"); fi
        "$gestured" replay --trace $force "${panelArgs[@]}" --config "$config" "$dir/$recording" ${events:+"$dir/$events"} > "$out"
        written=$((written + 1))
    done
done < Tests/Golden/recordings.txt
# Several screens: one recording per screen, merged by time (ScreenReplayTests).
mkdir -p Tests/Golden/screens
"$gestured" replay --trace --config Tests/Fixtures/screens/two-screens.json5 \
    --screen lobby=config/recordings/lobby-session.evemu --screen gallery=config/recordings/one-finger-taps.evemu \
    > Tests/Golden/screens/two-screens.jsonl
written=$((written + 1))
# The contacts stream of a two-finger pinch (ContactsReplayTests).
mkdir -p Tests/Golden/contacts
"$gestured" replay --contacts --config config/map.json5 config/recordings/map-session.evemu \
    > Tests/Golden/contacts/map-session.jsonl
written=$((written + 1))
echo "golden: $written transcripts written, $skipped recordings absent" >&2
