import Testing
import TestSupport

/// Under CI the corpus tests must run: a missing corpus is a failure there, not a skip.
@Suite("Recording corpus")
struct CorpusPresenceTests {
    @Test func isThereWhereRequired() {
        #expect(RecordingCorpus.isPresent || !RecordingCorpus.isRequired, Comment(rawValue: RecordingCorpus.missingUnderCI))
    }
}
