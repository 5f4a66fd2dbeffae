import FoundationEssentials
import GestureCore

/// Reads configuration and layout files (JSON5) into validated ``Configuration`` and
/// ``ViewSpec`` values, or throws every problem found, each naming its file and key path (or
/// line and column for syntax errors) and saying what to change.
public enum ConfigurationLoader {
    /// Reads and validates the configuration (or bare layout) at `path`, and the layout file
    /// it names.
    public static func load(path: String) throws(ConfigurationError) -> Configuration {
        switch readText(path) {
        case .success(let text):
            return try parse(text: text, file: path)
        case .failure(let reason):
            throw ConfigurationError(file: path, problems: [
                ConfigurationProblem(file: path, location: .file, message: reason.message),
            ])
        }
    }

    /// Reads a configuration (or bare layout) from `text`; `file` names it in problems and is
    /// the base for a relative `layout` path.
    public static func parse(text: String, file: String) throws(ConfigurationError) -> Configuration {
        let value = try decodeJSON5(text, file: file)
        guard case .object(let members) = value else {
            throw ConfigurationError(file: file, problems: [ConfigurationProblem(file: file, location: .file,
                message: "the file holds \(value.kindDescription), not an object; write a configuration { screen, layout, … } "
                    + "or a bare layout { id, frame, … }")])
        }
        if isBareLayout(members) {
            let (layout, problems) = readLayout(value)
            if !problems.isEmpty {
                throw ConfigurationError(file: file, problems: problems.map { ConfigurationProblem(file: file, $0) })
            }
            return Configuration(file: file, isBareLayout: true,
                                 screen: ScreenGeometry(width: layout.frame.size.width, height: layout.frame.size.height),
                                 layout: layout, layoutSource: .inline(file: file))
        }
        return try readConfiguration(members, file: file)
    }

    /// Reads a layout (the root view object) sent as text, for example by `layout.set`;
    /// `file` names it in problems.
    public static func parseLayout(text: String, file: String) throws(ConfigurationError) -> ViewSpec {
        try decodeLayout(decodeJSON5(text, file: file), file: file)
    }

    /// Reads a layout (the root view) that is already a JSON value, for example inside a
    /// socket request; `file` names it in problems.
    public static func decodeLayout(_ value: JSONValue, file: String) throws(ConfigurationError) -> ViewSpec {
        let (layout, problems) = readLayout(value)
        if !problems.isEmpty {
            throw ConfigurationError(file: file, problems: problems.map { ConfigurationProblem(file: file, $0) })
        }
        return layout
    }

    /// True when a top-level object is a view, not a configuration: it has a view's `id` or
    /// `frame` and none of the configuration's keys. Anything else is read as a configuration,
    /// whose problems then point at the misplaced keys.
    public static func isBareLayout(_ members: [String: JSONValue]) -> Bool {
        (members["id"] != nil || members["frame"] != nil)
            && !SchemaReader.configurationKeys.contains { members[$0] != nil }
    }

    /// `path` resolved against the directory of `file` (absolute paths stay as they are).
    public static func resolve(_ path: String, relativeTo file: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let slash = file.lastIndex(of: "/") else { return path }
        return String(file[...slash]) + path
    }

    // MARK: Steps

    /// The layout rooted at `value` with its key-path problems: type problems first, then the
    /// validator's, except those about values that were already reported and replaced.
    static func readLayout(_ value: JSONValue) -> (ViewSpec, [LayoutProblem]) {
        var reader = SchemaReader()
        let layout = reader.view(value, at: "layout")
        let semantic = LayoutValidator.problems(in: layout, path: "layout").filter { !reader.isReplaced($0.path) }
        return (layout, reader.problems + semantic)
    }

    static func readConfiguration(_ members: [String: JSONValue], file: String) throws(ConfigurationError) -> Configuration {
        var reader = SchemaReader()
        let device = reader.device(members["device"], at: "device") ?? .auto
        let grab = reader.bool(members["grab"], at: "grab") ?? false
        let axes = reader.axes(members["axes"], at: "axes") ?? .none
        let screen = reader.screen(members["screen"], at: "screen")
        let socket = reader.socket(members["socket"], at: "socket") ?? SocketConfig()
        let settings = reader.gestures(members["gestures"], at: "gestures") ?? GestureSettings()
        let web = reader.web(members["web"], at: "web")

        var layout = ViewSpec(id: "layout", frame: Rect(x: 0, y: 0, width: 0, height: 0))
        var layoutSource = LayoutSource.inline(file: file)
        var layoutFileProblems: [ConfigurationProblem] = []
        switch members["layout"] {
        case nil:
            reader.missing("layout", "add layout: \"layouts/….json5\" (a path relative to this file) or the root view inline")
        case .string(let path) where path.isEmpty:
            reader.report("layout", "the path is empty; name the layout file, relative to this file")
        case .string(let path):
            let resolved = resolve(path, relativeTo: file)
            layoutSource = .file(path: resolved)
            switch readText(resolved) {
            case .failure(let reason):
                reader.report("layout", "cannot read \"\(resolved)\" (\(reason.cause)); \(reason.advice)"
                    + (path.hasPrefix("/") ? "" : ", remembering that it is relative to the directory of this file"))
            case .success(let text):
                do throws(ConfigurationError) {
                    layout = try parseLayout(text: text, file: resolved)
                } catch {
                    layoutFileProblems = error.problems
                }
            }
        case .object?:
            let (inline, problems) = readLayout(members["layout"]!)
            layout = inline
            reader.append(problems)
        case let other?:
            reader.mismatch("layout", expected: "a path to a layout file (a string) or the root view { id, frame, … }",
                            found: other)
        }

        let viewKeys = SchemaReader.viewKeys
        reader.reportUnknownKeys(in: members, at: "", known: SchemaReader.configurationKeys, what: "a configuration") { key in
            guard viewKeys.contains(key) else { return nil }
            return "\(key) is a view key, but this file is a configuration; move the root view under layout: { … }, "
                + "or remove the configuration keys to make the file a bare layout"
        }

        let problems = reader.problems.map { ConfigurationProblem(file: file, $0) } + layoutFileProblems
        if !problems.isEmpty { throw ConfigurationError(file: file, problems: problems) }
        return Configuration(file: file, device: device, grab: grab, axes: axes,
                             screen: screen ?? ScreenGeometry(width: layout.frame.size.width, height: layout.frame.size.height),
                             socket: socket, settings: settings, layout: layout, layoutSource: layoutSource, web: web)
    }

    /// The generic value of JSON5 `text`, or the position of its first syntax error, or of
    /// every repeated key.
    static func decodeJSON5(_ text: String, file: String) throws(ConfigurationError) -> JSONValue {
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        let value: JSONValue
        do {
            value = try decoder.decode(JSONValue.self, from: Data(text.utf8))
        } catch {
            let problem: ConfigurationProblem
            if let finding = JSON5SyntaxLocator.firstError(in: text) {
                problem = ConfigurationProblem(file: file, location: .position(line: finding.line, column: finding.column),
                                               message: finding.message)
            } else {
                // The decoder refused something the locator accepts; say what the decoder said.
                var detail = "\(error)"
                if case DecodingError.dataCorrupted(let context) = error { detail = context.debugDescription }
                problem = ConfigurationProblem(file: file, location: .file,
                    message: "not valid JSON5 (\(detail)); look for characters outside plain ASCII between the values")
            }
            throw ConfigurationError(file: file, problems: [problem])
        }
        // The decoder keeps one of two equal keys without a word; the user meant something by both.
        let duplicates = JSON5SyntaxLocator.duplicateKeys(in: text)
        if !duplicates.isEmpty {
            throw ConfigurationError(file: file, problems: duplicates.map {
                ConfigurationProblem(file: file, location: .position(line: $0.line, column: $0.column), message: $0.message)
            })
        }
        return value
    }

    /// Why a file could not be read, and what to do about it.
    struct ReadFailure: Error {
        var cause: String
        var advice: String
        var message: String { "cannot read the file (\(cause)); \(advice)" }
    }

    /// The UTF-8 text of the file at `path`.
    static func readText(_ path: String) -> Result<String, ReadFailure> {
        let data: Data
        do {
            data = try Data(contentsOf: URL(filePath: path))
        } catch let error as CocoaError {
            let posix = error.userInfo["NSUnderlyingError"] as? POSIXError
            switch (error.code, posix?.code) {
            case (.fileReadNoSuchFile, _), (_, .ENOENT?):
                return .failure(ReadFailure(cause: "no such file", advice: "check the path"))
            case (.fileReadNoPermission, _), (_, .EACCES?):
                return .failure(ReadFailure(cause: "permission denied",
                                            advice: "make it readable by the user the daemon runs as"))
            case (_, .EISDIR?):
                return .failure(ReadFailure(cause: "it is a directory", advice: "name a file"))
            default:
                return .failure(ReadFailure(cause: "error \(error.code.rawValue)", advice: "check the path"))
            }
        } catch {
            return .failure(ReadFailure(cause: "\(error)", advice: "check the path"))
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            return .failure(ReadFailure(cause: "it is not UTF-8 text", advice: "save it as UTF-8"))
        }
        return .success(text)
    }
}
