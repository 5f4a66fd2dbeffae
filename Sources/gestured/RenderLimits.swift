/// Every bound of `gestured render` in one place (docs/limits.md, "gestured render"): a long
/// recording, or one with many touches, still renders as a picture of bounded size that a
/// browser opens at once, and the renderer's memory does not grow with the recording.
enum RenderLimits {
    /// Touches drawn: the first ones to begin. The rest are counted in a note. Sixty-four is
    /// the most fingers the engine tracks at once, and more paths than a person can tell apart.
    static let touches = 64
    /// Points kept per touch path. Sample `i` of a touch (0 is where it began, one sample per
    /// frame that changed a contact) is kept while `i` is a multiple of the stride; the stride
    /// starts at 1 and doubles each time the kept points reach this number (every second kept
    /// point is dropped then), and the touch's last sample is always drawn. A 60 Hz touch keeps
    /// every sample for about 8.5 s.
    static let pointsPerTouch = 512
    /// Time ticks drawn per touch: one every ``tickInterval``, and when a touch would have more,
    /// the interval doubles (every second tick is dropped), as the points are.
    static let ticksPerTouch = 100
    /// The first tick interval, in microseconds: 100 ms.
    static let tickInterval: Int64 = 100_000
    /// State changes kept per recognizer (a `changed` that follows `began` or `changed` is not
    /// a change of state and is not kept); later ones are counted.
    static let transitionsPerRecognizer = 256
    /// Recognizer lanes in the timeline; recognizers past it are counted in a note. Those that
    /// never left `possible` are listed by name instead of given a lane.
    static let recognizerLanes = 64
    /// Failures listed with their context under the timeline (each is marked in its lane all the same).
    static let failuresListed = 64
    /// Control events drawn; later ones are counted.
    static let controlEvents = 256
    /// Warnings listed (the replay's `warning` events); later ones are counted.
    static let warnings = 16
    /// Views drawn, in the tree's order (back to front); the rest are counted.
    static let views = 1_000
    /// Characters of an id or message drawn as text; longer ones end in "…" (the embedded JSON
    /// keeps them whole).
    static let textCharacters = 48
    /// Characters of a warning kept, in the picture and in the embedded JSON alike.
    static let warningCharacters = 300
    /// Entries one instant keeps for the context of its failures (recognizers that began or
    /// recognized, contacts that changed, failures): more than 64 fingers and the recognizers
    /// of one frame.
    static let instantEntries = 256
    /// Views named in a touch's responder chain (the rest counted): a chain is at most as deep
    /// as the tree, 62 levels.
    static let responders = 64
}
