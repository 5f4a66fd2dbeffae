import GestureCore

/// Reads configuration and layout files (JSON5) into validated ``Configuration`` and
/// ``ViewSpec`` values, or throws every problem found, each naming its file and key path (or
/// line and column for syntax errors) and saying what to change.
public enum ConfigurationLoader {
    /// Reads and validates the configuration (or bare layout) at `path`, and the layout file
    /// it names.
    public static func load(path: String) throws(ConfigurationError) -> Configuration {
        switch ConfigurationFile.readText(path) {
        case .success(let text):
            return try parse(text: text, file: path)
        case .failure(let reason):
            throw ConfigurationError(file: path, problems: [
                ConfigurationProblem(file: path, location: .file, message: reason.message),
            ])
        }
    }

    /// Reads the configuration at `path` for a reload of a running daemon (docs/configuration.md,
    /// "Reloading"): as ``load(path:)``, except that in a file of several screens, a screen whose
    /// layout alone has problems (its inline `layout`, or the layout file it names) does not fail
    /// the others: it is returned in ``ReloadedConfiguration/invalidLayouts`` with its problems,
    /// and the daemon keeps that screen's running layout. Any other problem, or every screen's
    /// layout invalid, throws as ``load(path:)`` does.
    public static func loadForReload(path: String) throws(ConfigurationError) -> ReloadedConfiguration {
        var invalid: [String: ConfigurationError]? = [:]
        let configuration: Configuration
        switch ConfigurationFile.readText(path) {
        case .success(let text):
            configuration = try parse(text: text, file: path, invalidLayouts: &invalid)
        case .failure(let reason):
            throw ConfigurationError(file: path, problems: [
                ConfigurationProblem(file: path, location: .file, message: reason.message),
            ])
        }
        return ReloadedConfiguration(configuration: configuration, invalidLayouts: invalid ?? [:])
    }

    /// Reads a configuration (or bare layout) from `text`; `file` names it in problems and is
    /// the base for a relative `layout` path.
    public static func parse(text: String, file: String) throws(ConfigurationError) -> Configuration {
        var strict: [String: ConfigurationError]?
        return try parse(text: text, file: file, invalidLayouts: &strict)
    }

    /// `invalidLayouts` nil: every problem throws; else, with several screens, a screen's layout
    /// problems alone are put there by screen id (``loadForReload(path:)``).
    static func parse(text: String, file: String,
                      invalidLayouts: inout [String: ConfigurationError]?) throws(ConfigurationError) -> Configuration {
        let document = try decodeJSON5(text, file: file)
        let value = document.value
        guard case .object(let members) = value else {
            throw ConfigurationError(file: file, problems: [ConfigurationProblem(file: file, location: .file,
                message: "the file holds \(value.kindDescription), not an object; write a configuration { screen, layout, … } "
                    + "or a bare layout { id, frame, … }")])
        }
        if isBareLayout(members) {
            let (layout, problems) = readLayout(value)
            if !problems.isEmpty {
                throw ConfigurationError(file: file, problems: locate(problems, in: document, root: "layout", file: file))
            }
            return Configuration(file: file, isBareLayout: true,
                                 screen: ScreenGeometry(width: layout.frame.size.width, height: layout.frame.size.height),
                                 layout: layout, layoutSource: .inline(file: file))
        }
        return try readConfiguration(members, document: document, file: file, invalidLayouts: &invalidLayouts)
    }

    /// Reads a layout (the root view object) sent as text, for example by `layout.set`;
    /// `file` names it in problems.
    public static func parseLayout(text: String, file: String) throws(ConfigurationError) -> ViewSpec {
        let document = try decodeJSON5(text, file: file)
        let (layout, problems) = readLayout(document.value)
        if !problems.isEmpty {
            throw ConfigurationError(file: file, problems: locate(problems, in: document, root: "layout", file: file))
        }
        return layout
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
    static func readLayout(_ value: JSONValue, at path: String = "layout") -> (ViewSpec, [LayoutProblem]) {
        var reader = SchemaReader()
        let layout = reader.view(value, at: path)
        let semantic = LayoutValidator.problems(in: layout, path: path).filter { !reader.isReplaced($0.path) }
        return (layout, reader.problems + semantic)
    }

    static func readConfiguration(_ members: [String: JSONValue], document: JSONParser.Document, file: String,
                                  invalidLayouts: inout [String: ConfigurationError]?) throws(ConfigurationError) -> Configuration {
        var reader = SchemaReader()
        let routing = reader.routing(members["routing"], at: "routing")
        var grab = reader.bool(members["grab"], at: "grab") ?? false
        if members["routing"] != nil {
            // Routing forwards what gestured does not claim: the desktop must not also read the
            // panel itself, so the panel is grabbed (docs/routing.md).
            if case .bool(false)? = members["grab"] {
                reader.report("grab", "grab: false cannot go with routing: routing hands the desktop the touches it "
                    + "forwards through a copy of the panel, so the panel itself must be grabbed; remove grab (routing "
                    + "implies it) or remove routing")
                reader.report("routing", "routing needs the panel grabbed, and grab is false; remove grab: false")
            }
            grab = true
        }
        if members["axes"] != nil {
            // One way to say it (issue 13): which axes, their ranges and resolutions are the device's.
            reader.report("axes", "axes belongs to the device: move it to device: { axes: { x: …, y: … } }, with the "
                + "device's path or name beside it (or neither, for auto); x and y are written as before, { min, max, "
                + "resolution }, or name the axis that carries the coordinate, such as \"ABS_Z\"")
        }
        let socket = reader.socket(members["socket"], at: "socket") ?? SocketConfig()
        let settings = reader.gestures(members["gestures"], at: "gestures") ?? GestureSettings()
        let web = reader.web(members["web"], at: "web")

        var layoutFileProblems: [ConfigurationProblem] = []
        var screens: [ScreenConfiguration] = []
        if let screensValue = members["screens"] {
            // Several screens: what belongs to one screen is only inside it.
            for key in ["device", "screen", "layout"] where members[key] != nil {
                reader.report(key, "with screens, \(key) belongs to a screen: move it into screens: [ { id: \"…\", "
                    + "\(key): … }, … ] (each screen has its own device, screen and layout)")
            }
            screens = readScreens(screensValue, reader: &reader, file: file, layoutFileProblems: &layoutFileProblems)
        } else {
            screens = [readScreen(members, at: "", id: ScreenConfiguration.mainID, reader: &reader, file: file,
                                  layoutFileProblems: &layoutFileProblems)]
        }

        let viewKeys = SchemaReader.viewKeys
        reader.reportUnknownKeys(in: members, at: "", known: SchemaReader.configurationKeys, what: "a configuration") { key in
            guard viewKeys.contains(key) else { return nil }
            return "\(key) is a view key, but this file is a configuration; move the root view under layout: { … }, "
                + "or remove the configuration keys to make the file a bare layout"
        }

        var problems = locate(reader.problems, in: document, root: "", file: file) + layoutFileProblems
        if !problems.isEmpty, invalidLayouts != nil, members["screens"] != nil, screens.count > 1 {
            problems = setAside(problems, of: screens, file: file, into: &invalidLayouts)
        }
        if !problems.isEmpty { throw ConfigurationError(file: file, problems: problems) }
        if members["screens"] != nil {
            return Configuration(file: file, screens: screens, grab: grab, socket: socket, settings: settings, web: web,
                                 routing: routing)
        }
        let main = screens[0]
        return Configuration(file: file, device: main.device, deviceOverrides: main.deviceOverrides, grab: grab,
                             screen: main.screen, socket: socket, settings: settings, layout: main.layout,
                             layoutSource: main.layoutSource, web: web, routing: routing)
    }

    /// For a reload: the problems that belong to one screen's layout (a key path under
    /// `screens[N].layout` of the configuration, or any problem of the layout file that screen
    /// names) go to `invalid` by screen id; the rest are returned. When every screen would be
    /// set aside, or a problem belongs to no screen's layout, all are returned (the file fails
    /// as a whole).
    static func setAside(_ problems: [ConfigurationProblem], of screens: [ScreenConfiguration], file: String,
                         into invalid: inout [String: ConfigurationError]?) -> [ConfigurationProblem] {
        var byScreen: [Int: [ConfigurationProblem]] = [:]
        for problem in problems {
            let owners = screens.indices.filter { index in
                if problem.file != file {
                    return screens[index].layoutSource == .file(path: problem.file)
                }
                guard case .keyPath(let path) = problem.location else { return false }
                let key = SchemaReader.path(SchemaReader.path("screens", index), "layout")
                guard path.hasPrefix(key) else { return false }
                let rest = path.dropFirst(key.count)
                return rest.isEmpty || rest.hasPrefix(".") || rest.hasPrefix("[")
            }
            guard !owners.isEmpty else { return problems }
            for index in owners { byScreen[index, default: []].append(problem) }
        }
        guard byScreen.count < screens.count else { return problems }
        for (index, own) in byScreen {
            invalid?[screens[index].id] = ConfigurationError(file: file, problems: own)
        }
        return []
    }

    /// The `screens` array: 1…8 screens with unique ids and panels that auto cannot confuse.
    static func readScreens(_ value: JSONValue, reader: inout SchemaReader, file: String,
                            layoutFileProblems: inout [ConfigurationProblem]) -> [ScreenConfiguration] {
        let limit = ConfigurationLimits.screens
        guard case .array(let elements) = value else {
            reader.mismatch("screens", expected: "an array of screens [ { id, device, screen, layout }, … ]", found: value)
            return []
        }
        if !limit.contains(elements.count) {
            reader.report("screens", "\(elements.count) screens; give \(limit.lowerBound) to \(limit.upperBound) (one per "
                + "touch panel of the kiosk)")
            if elements.count > limit.upperBound { return [] }
        }
        var screens: [ScreenConfiguration] = []
        var seen: [String: Int] = [:]
        for (index, element) in elements.enumerated() {
            let path = SchemaReader.path("screens", index)
            guard let members = reader.object(element, at: path, expected: "a screen { id, device, screen, layout, output }")
            else { continue }
            var id = "screen\(index)"
            if let value = members["id"] {
                if let text = reader.string(value, at: SchemaReader.path(path, "id"), expected: "a string (the screen's id)") {
                    if let problem = ConfigurationLimits.screenIDProblem(text) {
                        reader.report(SchemaReader.path(path, "id"), problem)
                    } else if let earlier = seen[text] {
                        reader.report(SchemaReader.path(path, "id"), "\"\(text)\" is the id of screens[\(earlier)] too; give "
                            + "each screen its own id")
                    } else {
                        seen[text] = index
                        id = text
                    }
                }
            } else {
                reader.missing(SchemaReader.path(path, "id"), "add id: \"…\" (A–Z a–z 0–9 - _, such as \"customer\"): "
                    + "events, requests and `gestured replay --screen` name the screen by it")
            }
            if members["device"] == nil {
                reader.missing(SchemaReader.path(path, "device"), "add device: { idPath: \"…\" } (or serial, vendor and "
                    + "product, phys; `gestured devices` lists them, `gestured map` writes them)")
            }
            var screen = readScreen(members, at: path, id: id, reader: &reader, file: file,
                                    layoutFileProblems: &layoutFileProblems)
            if let output = members["output"] {
                let key = SchemaReader.path(path, "output")
                if let text = reader.string(output, at: key, expected: "a string (the display output, such as \"HDMI-A-1\")") {
                    if text.isEmpty || text.utf8.count > ConfigurationLimits.identityLength {
                        reader.report(key, "the output name has \(text.utf8.count) bytes; give 1 to "
                            + "\(ConfigurationLimits.identityLength), as the desktop names it (such as \"HDMI-A-1\")")
                    } else {
                        screen.output = text
                    }
                }
            }
            reader.reportUnknownKeys(in: members, at: path, known: ["id", "device", "screen", "layout", "output"],
                                     what: "a screen")
            screens.append(screen)
        }
        if screens.count > 1 {
            for (index, screen) in screens.enumerated() {
                let key = SchemaReader.path(SchemaReader.path("screens", index), "device")
                if screen.device == .auto {
                    reader.report(key, "auto picks the first touchscreen, which is only right with one screen; name this "
                        + "screen's panel: { idPath: \"…\" } (or serial, vendor and product, phys), as `gestured devices` "
                        + "lists them")
                } else if let earlier = screens[..<index].firstIndex(where: { $0.device == screen.device }) {
                    reader.report(key, "screens[\(earlier)] selects the same device; each screen needs its own panel")
                }
            }
        }
        return screens
    }

    /// One screen's device, geometry and layout from `members` (the file's top level without
    /// `screens`, else one element of it, at `path`).
    static func readScreen(_ members: [String: JSONValue], at path: String, id: String, reader: inout SchemaReader,
                           file: String, layoutFileProblems: inout [ConfigurationProblem]) -> ScreenConfiguration {
        let key = { (name: String) in SchemaReader.path(path, name) }
        let (device, deviceOverrides) = reader.device(members["device"], at: key("device")) ?? (.auto, .none)
        let screen = reader.screen(members["screen"], at: key("screen"))
        var layout = ViewSpec(id: "layout", frame: Rect(x: 0, y: 0, width: 0, height: 0))
        var layoutSource = LayoutSource.inline(file: file)
        switch members["layout"] {
        case nil:
            reader.missing(key("layout"), "add layout: \"layouts/….json5\" (a path relative to this file) or the root view inline")
        case .string(let layoutPath) where layoutPath.isEmpty:
            reader.report(key("layout"), "the path is empty; name the layout file, relative to this file")
        case .string(let layoutPath):
            let resolved = resolve(layoutPath, relativeTo: file)
            layoutSource = .file(path: resolved)
            switch ConfigurationFile.readText(resolved) {
            case .failure(let reason):
                reader.report(key("layout"), "cannot read \"\(resolved)\" (\(reason.cause)); \(reason.advice)"
                    + (layoutPath.hasPrefix("/") ? "" : ", remembering that it is relative to the directory of this file"))
            case .success(let text):
                do throws(ConfigurationError) {
                    layout = try parseLayout(text: text, file: resolved)
                } catch {
                    layoutFileProblems += error.problems
                }
            }
        case .object?:
            let (inline, problems) = readLayout(members["layout"]!, at: key("layout"))
            layout = inline
            reader.append(problems)
        case let other?:
            reader.mismatch(key("layout"), expected: "a path to a layout file (a string) or the root view { id, frame, … }",
                            found: other)
        }
        return ScreenConfiguration(id: id, device: device, deviceOverrides: deviceOverrides,
                                   screen: screen ?? ScreenGeometry(width: layout.frame.size.width,
                                                                    height: layout.frame.size.height),
                                   layout: layout, layoutSource: layoutSource)
    }

    /// The value of JSON5 `text` with the position of every key, or the position of its first
    /// syntax error, or of every repeated key.
    static func decodeJSON5(_ text: String, file: String) throws(ConfigurationError) -> JSONParser.Document {
        let document: JSONParser.Document
        do {
            document = try JSONParser.parse(text, dialect: .json5, recordingPositions: true)
        } catch {
            throw ConfigurationError(file: file, problems: [
                ConfigurationProblem(file: file, location: .position(line: error.position.line, column: error.position.column),
                                     message: error.message),
            ])
        }
        // JSON keeps one of two equal keys; the user meant something by both.
        if !document.duplicateKeys.isEmpty {
            throw ConfigurationError(file: file, problems: document.duplicateKeys.map {
                ConfigurationProblem(file: file, location: .position(line: $0.position.line, column: $0.position.column),
                                     message: $0.message)
            })
        }
        return document
    }

    /// Key-path problems of `document` with the position of their key in the file: the key
    /// itself, or for a key that is missing, the nearest enclosing value that is there. `root`
    /// is what key paths call the document's top value (`layout` in a layout file).
    static func locate(_ problems: [LayoutProblem], in document: JSONParser.Document, root: String,
                       file: String) -> [ConfigurationProblem] {
        problems.map { problem in
            var located = ConfigurationProblem(file: file, problem)
            if case .keyPath(let path) = located.location {
                located.position = position(of: path, in: document.positions, root: root)
            }
            return located
        }
    }

    /// The position of `path`, or of its nearest ancestor that has one.
    static func position(of path: String, in positions: [String: SourcePosition], root: String) -> SourcePosition? {
        var relative = Substring(path)
        if !root.isEmpty {
            guard relative.hasPrefix(root) else { return nil }
            relative = relative.dropFirst(root.count)
            if relative.first == "." { relative = relative.dropFirst() }
        }
        // Ancestors end before a "." or "[" (a quoted key may hold either: the lookups that
        // fail on those cost nothing worse than a miss).
        var end = relative.endIndex
        while true {
            if let position = positions[String(relative[..<end])] { return position }
            guard let cut = relative[..<end].lastIndex(where: { $0 == "." || $0 == "[" }) else {
                return positions[""]
            }
            end = cut
        }
    }
}
