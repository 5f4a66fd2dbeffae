/// The calibration matrix in force for a device and where it comes from (docs/configuration.md, "`screen`:
/// from the panel to points"): the configuration's `screen.calibration`, else udev's
/// `LIBINPUT_CALIBRATION_MATRIX` for the device, else none (identity). `gestured devices` shows it; the input
/// stage applies it.
public struct DeviceCalibration: Hashable, Sendable {
    /// Where the matrix comes from.
    public enum Source: Hashable, Sendable {
        /// The configuration's `screen.calibration` (it wins over udev's).
        case configuration
        /// udev's `LIBINPUT_CALIBRATION_MATRIX` property of the device.
        case udev
        /// Neither sets one.
        case none
    }

    /// The udev property libinput reads, and gestured with it.
    public static let udevProperty = "LIBINPUT_CALIBRATION_MATRIX"

    public var matrix: CalibrationMatrix
    public var source: Source
    /// Why udev's property was not used although the device has one (it does not parse, or it
    /// maps every touch off the screen); nil otherwise.
    public var ignoredUdevValue: String?

    public init(matrix: CalibrationMatrix, source: Source, ignoredUdevValue: String? = nil) {
        (self.matrix, self.source, self.ignoredUdevValue) = (matrix, source, ignoredUdevValue)
    }

    /// The matrix in force: `configured` (the configuration's) wins; else the device's udev
    /// property when it is a usable matrix; else identity.
    public init(configured: CalibrationMatrix?, udevProperties: [String: String]?) {
        if let configured {
            self.init(matrix: configured, source: .configuration)
            return
        }
        guard let value = udevProperties?[Self.udevProperty] else {
            self.init(matrix: .identity, source: .none)
            return
        }
        switch Self.parse(value) {
        case .success(let matrix):
            self.init(matrix: matrix, source: .udev)
        case .failure(let problem):
            self.init(matrix: .identity, source: .none,
                      ignoredUdevValue: "udev's \(Self.udevProperty)=\"\(value)\" is not used: \(problem.message)")
        }
    }

    /// Why a udev value cannot be used.
    public struct Problem: Error, Hashable, Sendable {
        public var message: String

        public init(message: String) {
            self.message = message
        }
    }

    /// A `LIBINPUT_CALIBRATION_MATRIX` value as libinput reads it (its
    /// `parse_calibration_property`): numbers separated by spaces, of which the first six are
    /// the matrix's first two rows, `a b c d e f`, in normalised coordinates. Beyond libinput,
    /// a matrix that is not finite, squeezes the panel onto a line, or maps every touch off
    /// the screen is refused (``CalibrationMatrix/problem``), as the configuration's is.
    public static func parse(_ value: String) -> Result<CalibrationMatrix, Problem> {
        let fields = value.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 6 else {
            return .failure(Problem(message: "it has \(fields.count) numbers; libinput reads six, \"a b c d e f\""))
        }
        var numbers: [Double] = []
        for field in fields.prefix(6) {
            guard let number = Double(field), number.isFinite, field.allSatisfy({ !$0.isLetter || $0 == "e" || $0 == "E" })
            else {
                return .failure(Problem(message: "\"\(field)\" is not a number"))
            }
            numbers.append(number)
        }
        let matrix = CalibrationMatrix(numbers)!
        if let problem = matrix.problem { return .failure(Problem(message: problem)) }
        return .success(matrix)
    }

    /// For `gestured devices` and logs: the matrix and where it came from.
    public var summary: String {
        let values = "[" + matrix.values.map(Self.number).joined(separator: ", ") + "]"
        switch source {
        case .configuration: return "\(values) from the configuration's screen.calibration"
        case .udev: return "\(values) from udev's \(Self.udevProperty)"
        case .none: return "none (neither the configuration nor udev sets one)"
        }
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
