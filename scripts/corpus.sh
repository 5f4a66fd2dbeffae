# Sourced by the scripts that use the external corpus of real touchscreen recordings (other
# people's panels, not part of the repository), from the package root: sets and exports
# GESTURED_RECORDINGS to $GESTURED_RECORDINGS when given, else to the first shared/recordings
# found beside the package root or one of its parent directories (a git worktree sits deeper),
# as the Swift tests' RecordingCorpus does; empty when there is none.
if [ -z "${GESTURED_RECORDINGS:-}" ]; then
    corpus_directory=$(pwd)
    while [ "$corpus_directory" != / ]; do
        corpus_directory=$(dirname "$corpus_directory")
        if [ -d "$corpus_directory/shared/recordings" ]; then
            GESTURED_RECORDINGS=$corpus_directory/shared/recordings
            break
        fi
    done
    unset corpus_directory
fi
export GESTURED_RECORDINGS=${GESTURED_RECORDINGS:-}
