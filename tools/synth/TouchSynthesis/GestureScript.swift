import GestureCore

/// A parsed gesture script (tools/synth/README.md): the panel it is played on, the screen its
/// points refer to, the frame rate of moves, and its steps in order.
public struct GestureScript: Hashable, Sendable {
    /// The units of a position in the script.
    public enum Units: String, Hashable, Sendable {
        /// Screen points of the script's `screen` (SPEC 2 inverted: calibration, rotation, size).
        case points
        /// Millimetres from the panel's top-left corner along its own axes (needs the axes'
        /// resolution, in units per millimetre).
        case mm
        /// Raw device values, as the panel reports them.
        case device
        /// A web page's CSS pixels, from the top-left corner of its viewport: made screen
        /// points by the script's ``PageMapping`` (`page` lines).
        case css
    }

    /// Where a web page's viewport lies on the screen and how large a CSS pixel is there: a
    /// point is `origin + css × scale` (`scale` = devicePixelRatio × page zoom when screen
    /// points are the display's pixels).
    public struct PageMapping: Hashable, Sendable {
        /// The viewport's top-left corner on the screen, in points.
        public var originX: Double
        public var originY: Double
        /// Screen points per CSS pixel.
        public var scale: Double

        public init(originX: Double = 0, originY: Double = 0, scale: Double = 1) {
            self.originX = originX
            self.originY = originY
            self.scale = scale
        }

        /// The screen point of a CSS pixel position.
        public func point(x: Double, y: Double) -> (x: Double, y: Double) {
            (originX + x * scale, originY + y * scale)
        }

        /// `page scale`: from a page zoomed out to 25 % on a display of ratio 0.2, to zoom
        /// 500 % at ratio 4 (browsers offer 25 % to 500 %).
        public static let scales = 0.05...20.0
        /// `page origin`, in points: the screen's own limit (`screen` sizes go to 100000).
        public static let origins = -100_000.0...100_000.0
        /// `page viewport`, in CSS pixels.
        public static let viewportSizes = 1.0...100_000.0
    }

    /// A position as written, with the units in force on its line.
    public struct Position: Hashable, Sendable {
        public var x: Double
        public var y: Double
        public var units: Units

        public init(x: Double, y: Double, units: Units) {
            self.x = x
            self.y = y
            self.units = units
        }
    }

    /// One finger's change within a frame. Fingers are the script's labels (like the test
    /// scripts' contact numbers), not slots: the synthesizer gives each finger a free slot.
    public enum Change: Hashable, Sendable {
        case down(finger: Int, Position)
        case move(finger: Int, Position)
        case up(finger: Int)

        public var finger: Int {
            switch self {
            case .down(let finger, _), .move(let finger, _), .up(let finger): finger
            }
        }
    }

    /// What one line of the script does.
    public enum Action: Hashable, Sendable {
        /// The changes happen together, in one frame.
        case frame([Change])
        /// The moves glide from where the fingers are, in frames at the script's rate, and
        /// arrive after `microseconds` (`move … over DURATION`).
        case glide([Change], microseconds: Int64)
        /// The next frame comes `microseconds` after the previous one instead of one frame
        /// period after it; consecutive waits add up.
        case wait(microseconds: Int64)
    }

    /// An action with the line it came from, for error messages.
    public struct Step: Hashable, Sendable {
        public var line: Int
        public var action: Action

        public init(line: Int, action: Action) {
            self.line = line
            self.action = action
        }
    }

    /// The panel's evemu description file, as written (relative to the script's directory);
    /// `nil`: gestured's own virtual panel (``SyntheticPanel``).
    public var panel: String?
    /// The screen the points refer to; nil when the script uses no points.
    public var screen: ScreenGeometry?
    /// Frames per second while fingers glide (`rate`, default 100: a common panel scan rate).
    public var rate: Int
    /// How CSS pixels (`units css`) become screen points (`page` lines); by default one CSS
    /// pixel is one point from the screen's corner.
    public var page: PageMapping
    public var steps: [Step]

    public static let defaultRate = 100
    /// The most frames per second a script may ask for: the timeline has microseconds.
    public static let rates = 1...1000
    /// The most steps a script may have (a structure with a limit, as every input here).
    public static let maximumSteps = 100_000
    /// The longest single wait or glide: an hour.
    public static let maximumDuration: Int64 = 3_600_000_000

    /// The longest script file read, in bytes: room for ``maximumSteps`` lines.
    public static let maximumFileSize = 8 << 20

    public init(panel: String?, screen: ScreenGeometry?, rate: Int = defaultRate, page: PageMapping = PageMapping(),
                steps: [Step]) {
        self.panel = panel
        self.screen = screen
        self.rate = rate
        self.page = page
        self.steps = steps
    }

    /// The time between two frames of a glide, in microseconds.
    public var framePeriod: Int64 { 1_000_000 / Int64(rate) }
}
