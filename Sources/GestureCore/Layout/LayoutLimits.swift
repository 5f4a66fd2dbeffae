/// The allowed range of every number in a layout and in the configuration's settings, and the
/// size limits of a layout, in one place (docs/limits.md lists them all). The validator checks
/// them for layouts read from files, sent by clients (`layout.set`, `view.update`) and built in
/// code alike, so a value it accepts can never make the engine trap or allocate without bound.
public enum LayoutLimits {
    /// Durations (`maxDuration`, `maxInterval`, `minimumDuration`, `tapInterval`), in seconds.
    /// An hour is far beyond any gesture, and far inside the microsecond timeline (an `Int64`
    /// traps converting durations of about 9.2e12 s: issue 12).
    public static let seconds: ClosedRange<Double> = 0...3600

    /// Coordinates and sizes in points: frames, outsets, distances and slops. A million points
    /// is a hundred 8K screens side by side; the bound keeps sums of nested frames finite and
    /// exact enough, whatever a client sends.
    public static let points = 1_000_000.0

    /// Distances and slops (`maxMovement`, `slop`, `edgeWidth`, `trackingSlop`, …), in points.
    public static let distance: ClosedRange<Double> = 0...points

    /// Distances given in millimetres of the panel (`{ mm: 3 }` in the configuration's
    /// `gestures`): up to ten metres, larger than any touch table.
    public static let millimetres: ClosedRange<Double> = 0...10_000

    /// Velocities (`minimumVelocity`), in points per second: a million is a finger crossing a
    /// large screen in a millisecond, never reached.
    public static let velocity: ClosedRange<Double> = 0...1_000_000

    /// Angles (`minimumRotation`), in radians: up to one full turn.
    public static let radians: ClosedRange<Double> = 0...(2 * Double.pi)

    /// Ratios (`minimumScaleChange`): up to 10, a pinch that grows the distance elevenfold.
    public static let ratio: ClosedRange<Double> = 0...10

    /// `taps`: UIKit takes any number, but more than ten taps in a row is no gesture a person
    /// makes on purpose (a hidden "service menu" tap sequence is rarely more than seven).
    public static let taps: ClosedRange<Int> = 1...10

    /// A long press's `taps` (UIKit's `numberOfTapsRequired`): 0, its default, is a plain
    /// press; up to the ten a tap may take.
    public static let longPressTaps: ClosedRange<Int> = 0...10

    /// `touches`, `minimumTouches`, `maximumTouches`: the fingers of two hands, which is what
    /// touch panels report at most in practice (most report 10, large tables 20). Recognizers
    /// keep per-touch state, so the count must be bounded (touches: 1e9 allocated 48 GB).
    public static let touches: ClosedRange<Int> = 1...20

    /// `alpha`.
    public static let alpha: ClosedRange<Double> = 0...1

    /// Each coefficient of `screen.calibration`: libinput's matrices for real panels stay
    /// within ±2; a hundred leaves room for any correction that still hits the screen.
    public static let calibrationCoefficient: ClosedRange<Double> = -100...100

    /// Views in one layout. Real kiosk layouts have tens to hundreds; ten thousand bounds the
    /// cost of validating, compiling and hit-testing a layout a client sends.
    public static let maximumViews = 10_000

    /// Recognizers in one layout (and so the nodes of the failure-requirement graph).
    public static let maximumRecognizers = 10_000

    /// Entries of one `requireToFail` or `simultaneousWith` list.
    public static let maximumReferences = 1_000

    /// How deeply views may nest. A 64-level layout is deeper than any screen needs; the JSON
    /// parser's own nesting limit (128 levels, two per view) stops files and requests a little
    /// earlier (62 levels with recognizers).
    public static let maximumDepth = 64

    /// Problems listed for one layout or configuration; the rest are counted. Enough to fix a
    /// file in a few rounds, and a bound on the work and the size of a reply.
    public static let maximumProblems = 100

    /// "Did you mean" searches compare names letter by letter; this bounds the work one
    /// validation may spend on them (letters compared, cells of edit-distance tables, 32 per
    /// candidate for its copy), so 10,000 unknown names among 10,000 recognizers cost
    /// milliseconds, not minutes (issue 12), while a layout of a hundred recognizers still gets
    /// a suggestion for each of its mistakes.
    public static let suggestionBudget = 1_000_000

    /// `describe(range)`: "from 0 to 3600".
    public static func describe(_ range: ClosedRange<Double>) -> String {
        "from \(LayoutValidator.describe(range.lowerBound)) to \(LayoutValidator.describe(range.upperBound))"
    }
}
