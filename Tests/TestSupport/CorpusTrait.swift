import Testing

extension Trait where Self == ConditionTrait {
    /// For suites over the external recording corpus: they run when it is there, and under CI
    /// even when it is not (they fail); otherwise they are skipped with `RecordingCorpus.skipNote`.
    public static var needsCorpus: Self {
        .enabled(if: RecordingCorpus.testsRun, Comment(rawValue: RecordingCorpus.skipNote))
    }
}
