#if canImport(Glibc)
import Glibc
#endif
import CommandLineParsing
import GestureConfig
import GestureCore
import GestureSystem
import SystemPackage

/// A screen `gestured map` binds a panel to: its id (the configuration's `screens[].id`), and
/// what the udev rule gives the panel bound to it (its `output`, its `screen.calibration`).
struct MapScreen: Hashable, Sendable {
    var id: String
    /// The display output the desktop knows the screen by (`WL_OUTPUT`, an xrandr name).
    var output: String?
    /// The six coefficients in libinput's order.
    var calibration: [Double]?

    // MARK: Limits (docs/limits.md, "gestured map")

    /// At most this many screens, as in the configuration's `screens`.
    static let maximumCount = 8
    /// A screen id: 1 to this many of `A–Z a–z 0–9 - _` (the configuration's rule).
    static let maximumIDLength = 32
    /// An output name: 1 to this many of `A–Z a–z 0–9 - _ . :` (connector names such as
    /// `HDMI-A-1`, `eDP-1`, `DP-2`, `Virtual-1` are far shorter).
    static let maximumOutputLength = 64
    /// The largest configuration file read (as the daemon's loader).
    static let maximumFileSize = 8 << 20

    /// What is wrong with `id` as a screen id, or nil.
    static func idProblem(_ id: String) -> String? {
        if id.isEmpty { return "is empty; use 1 to \(maximumIDLength) of A–Z a–z 0–9 - _" }
        if id.utf8.count > maximumIDLength {
            return "is \(id.utf8.count) characters long; use 1 to \(maximumIDLength) of A–Z a–z 0–9 - _"
        }
        if let bad = id.unicodeScalars.first(where: { !isIDCharacter($0) }) {
            return "\"\(id)\" holds \(describe(bad)); use 1 to \(maximumIDLength) of A–Z a–z 0–9 - _"
        }
        return nil
    }

    /// What is wrong with `output` as an output name, or nil.
    static func outputProblem(_ output: String) -> String? {
        if output.isEmpty || output.utf8.count > maximumOutputLength {
            return "is \(output.utf8.count) characters long; use 1 to \(maximumOutputLength) of A–Z a–z 0–9 - _ . :"
        }
        if let bad = output.unicodeScalars.first(where: { !isIDCharacter($0) && $0 != "." && $0 != ":" }) {
            return "\"\(output)\" holds \(describe(bad)); use 1 to \(maximumOutputLength) of A–Z a–z 0–9 - _ . : "
                + "(the connector's name, as `wlr-randr` or `xrandr` prints it)"
        }
        return nil
    }

    private static func isIDCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "-", "_": true
        default: false
        }
    }

    private static func describe(_ scalar: Unicode.Scalar) -> String {
        scalar.value < 0x20 || scalar.value == 0x7f
            ? "the control character U+" + String(scalar.value, radix: 16, uppercase: true)
            : "'\(scalar)'"
    }

    /// The screens `--screens` names, in order: ids checked, unique, 1 to ``maximumCount``.
    static func list(_ ids: [String]) throws(ValidationError) -> [MapScreen] {
        guard !ids.isEmpty else { throw ValidationError("--screens is empty; name the screens, such as --screens left,right") }
        guard ids.count <= maximumCount else {
            throw ValidationError("--screens names \(ids.count) screens; gestured reads at most \(maximumCount)")
        }
        var seen = Set<String>()
        for id in ids {
            if let problem = idProblem(id) { throw ValidationError("--screens: the screen id \(problem)") }
            guard seen.insert(id).inserted else {
                throw ValidationError("--screens names \"\(id)\" twice; each screen is touched once")
            }
        }
        return ids.map { MapScreen(id: $0) }
    }

    /// The `screens` of the configuration at `path`: each one's id, output and
    /// `screen.calibration`; the other keys are the daemon's to read and check. Every problem
    /// is one line, `FILE: key.path: what to change`.
    static func read(configuration path: String) -> Result<[MapScreen], MapScreenProblems> {
        let text: String
        switch readText(path) {
        case .success(let read): text = read
        case .failure(let message): return .failure(MapScreenProblems(lines: ["\(path): \(message)"]))
        }
        let document: JSONParser.Document
        do {
            document = try JSONParser.parse(text)
        } catch {
            return .failure(MapScreenProblems(lines: ["\(path):\(error)"]))
        }
        return parse(document.value, file: path)
    }

    /// The screens of a parsed configuration (`file` names it in problems).
    static func parse(_ root: JSONValue, file: String) -> Result<[MapScreen], MapScreenProblems> {
        var problems: [String] = []
        func report(_ key: String, _ message: String) { problems.append("\(file): \(key): \(message)") }
        guard case .object(let members) = root else {
            return .failure(MapScreenProblems(lines: ["\(file): the file is not a configuration object"]))
        }
        guard let screensValue = members["screens"] else {
            return .failure(MapScreenProblems(lines: ["\(file): screens: the configuration has no screens; add them "
                + "(docs/configuration.md, \"Binding panels to screens\") or name them with --screens"]))
        }
        guard case .array(let elements) = screensValue, !elements.isEmpty, elements.count <= maximumCount else {
            return .failure(MapScreenProblems(lines: ["\(file): screens: use an array of 1 to \(maximumCount) screens"]))
        }
        var screens: [MapScreen] = []
        var seen = Set<String>()
        for (index, element) in elements.enumerated() {
            let key = "screens[\(index)]"
            guard case .object(let screen) = element else {
                report(key, "use an object { id, device, screen, layout, output }")
                continue
            }
            guard case .string(let id)? = screen["id"] else {
                report(key + ".id", "is missing or not a string; give the screen an id of A–Z a–z 0–9 - _")
                continue
            }
            if let problem = idProblem(id) {
                report(key + ".id", problem)
                continue
            }
            if !seen.insert(id).inserted { report(key + ".id", "\"\(id)\" is the id of an earlier screen; use another") }
            var read = MapScreen(id: id)
            switch screen["output"] {
            case nil: break
            case .string(let output)?:
                if let problem = outputProblem(output) { report(key + ".output", problem) } else { read.output = output }
            default:
                report(key + ".output", "use a string, the output's name (HDMI-A-1)")
            }
            if case .object(let section)? = screen["screen"], let calibration = section["calibration"] {
                switch coefficients(calibration) {
                case .success(let values): read.calibration = values
                case .failure(let message): report(key + ".screen.calibration", message.text)
                }
            }
            screens.append(read)
        }
        return problems.isEmpty ? .success(screens) : .failure(MapScreenProblems(lines: problems))
    }

    private struct Message: Error { var text: String }

    /// Six finite coefficients in the configuration's range, as an array or `{ a, …, f }`,
    /// forming a usable matrix (``CalibrationMatrix/problem``).
    private static func coefficients(_ value: JSONValue) -> Result<[Double], Message> {
        var numbers: [JSONValue] = []
        switch value {
        case .array(let elements): numbers = elements
        case .object(let members): numbers = ["a", "b", "c", "d", "e", "f"].compactMap { members[$0] }
        default: break
        }
        let values = numbers.compactMap { number -> Double? in
            guard case .number(let read) = number, read.value.isFinite,
                  LayoutLimits.calibrationCoefficient.contains(read.value) else { return nil }
            return read.value
        }
        let range = LayoutLimits.calibrationCoefficient
        guard values.count == 6, numbers.count == 6, let matrix = CalibrationMatrix(values) else {
            return .failure(Message(text: "use six finite numbers in \(Int(range.lowerBound)) … \(Int(range.upperBound)), "
                + "[a, b, c, d, e, f] as libinput's LIBINPUT_CALIBRATION_MATRIX"))
        }
        if let problem = matrix.problem { return .failure(Message(text: problem)) }
        return .success(values)
    }

    /// The UTF-8 text of the regular file at `path`, at most ``maximumFileSize`` bytes
    /// (`open(2)` without blocking on a FIFO, `fstat(2)`, `read(2)`), or why not.
    private static func readText(_ path: String) -> Result<String, Message> {
        guard !path.isEmpty else { return .failure(Message(text: "the path is empty; name the configuration file")) }
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path: path, .readOnly, options: [.closeOnExec, .nonBlocking])
        } catch {
            return .failure(Message(text: "cannot open it (\(error.errno)); check the path"))
        }
        defer { fd.closeReleasing() }
        var status = stat()
        guard fstat(fd.rawValue, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return .failure(Message(text: "not a regular file; name the configuration file"))
        }
        guard Int(status.st_size) <= maximumFileSize else {
            return .failure(Message(text: "it is \(Int(status.st_size)) bytes, more than the \(maximumFileSize >> 20) MiB "
                + "a configuration may have"))
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count <= maximumFileSize {
            let count: Int?
            do {
                count = try fd.readAvailable(into: &chunk, subject: path)
            } catch {
                return .failure(Message(text: "cannot read it (\(error.errno))"))
            }
            guard let count, count > 0 else { break }
            bytes += chunk[..<count]
        }
        guard bytes.count <= maximumFileSize else {
            return .failure(Message(text: "it is more than the \(maximumFileSize >> 20) MiB a configuration may have"))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(Message(text: "it is not UTF-8 text; save it as UTF-8"))
        }
        return .success(text)
    }
}

/// Every problem with a configuration's screens, one line each.
struct MapScreenProblems: Error {
    var lines: [String]
}
