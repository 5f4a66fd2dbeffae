import GestureCore

/// Reading the sections of a configuration file (SPEC 12) out of JSON values. The layout
/// section is the loader's, since it may name another file.
extension SchemaReader {
    /// The configuration's top-level keys in the order problems are reported.
    static let configurationKeys = ["device", "grab", "axes", "screen", "socket", "gestures", "layout", "web"]

    // MARK: device

    /// `"auto"`, a device path, or `{ name: "glob" }`.
    mutating func device(_ value: JSONValue?, at path: String) -> DeviceSelector? {
        switch value {
        case nil:
            return nil
        case .string("auto"):
            return .auto
        case .string(let string):
            if string.hasPrefix("/") { return .path(string) }
            report(path, "\"\(string)\" is neither \"auto\" nor a device path; write a path such as \"/dev/input/by-id/…\", "
                + "or { name: \"\(string.isEmpty ? "eGalax*" : string)\" } to pick the device by name")
            return nil
        case .object(let members):
            let key = Self.path(path, "name")
            var pattern: String? = nil
            if let value = members["name"] {
                pattern = string(value, at: key, expected: "a string (a device name pattern such as \"eGalax*\")")
                if pattern == "" {
                    report(key, "the pattern is empty; write the device name, with * for any characters")
                    pattern = nil
                }
            } else {
                missing(key, "add name: \"…\", a pattern such as \"eGalax*\" matched against the device name")
            }
            reportUnknownKeys(in: members, at: path, known: ["name"], what: "a device selector")
            return pattern.map { .name(pattern: $0) }
        case let other?:
            mismatch(path, expected: "\"auto\", a device path or { name: \"…\" }", found: other)
            return nil
        }
    }

    // MARK: axes

    mutating func axes(_ value: JSONValue?, at path: String) -> AxisOverrides? {
        guard let value else { return nil }
        guard let members = object(value, at: path, expected: "an object { x: { min, max }, y: { min, max } }") else {
            return nil
        }
        let axes = AxisOverrides(x: axis(members["x"], at: Self.path(path, "x")),
                                 y: axis(members["y"], at: Self.path(path, "y")))
        reportUnknownKeys(in: members, at: path, known: ["x", "y"], what: "axes")
        return axes
    }

    /// `{ min, max, resolution? }` in device units.
    mutating func axis(_ value: JSONValue?, at path: String) -> AbsInfo? {
        guard let value else { return nil }
        guard let members = object(value, at: path, expected: "an object { min, max, resolution }") else { return nil }
        let key = { (name: String) in Self.path(path, name) }
        let expected = "a whole number of device units"
        func deviceUnits(_ name: String) -> Int32? {
            guard let number = integer(members[name], at: key(name), expected: expected) else { return nil }
            guard let units = Int32(exactly: number) else {
                report(key(name), "\(number) does not fit a device axis; use a value from \(Int32.min) to \(Int32.max)")
                return nil
            }
            return units
        }
        if members["min"] == nil { missing(key("min"), "add min: the smallest value the panel reports on this axis") }
        if members["max"] == nil { missing(key("max"), "add max: the largest value the panel reports on this axis") }
        let minimum = deviceUnits("min")
        let maximum = deviceUnits("max")
        let resolution = deviceUnits("resolution")
        reportUnknownKeys(in: members, at: path, known: ["min", "max", "resolution"], what: "an axis")
        if let resolution, resolution < 0 {
            report(key("resolution"), "\(resolution) is negative; use the units per millimetre, or 0 if unknown")
        }
        guard let minimum, let maximum else { return nil }
        if maximum <= minimum {
            report(key("max"), "max (\(maximum)) is not greater than min (\(minimum)); swap them, or use rotation or "
                + "calibration to flip the axis")
            return nil
        }
        return AbsInfo(minimum: minimum, maximum: maximum, resolution: max(0, resolution ?? 0))
    }

    // MARK: screen

    mutating func screen(_ value: JSONValue?, at path: String) -> ScreenGeometry? {
        guard let value else { return nil }
        guard let members = object(value, at: path, expected: "an object { width, height, rotation, calibration }") else {
            return nil
        }
        let key = { (name: String) in Self.path(path, name) }
        func size(_ name: String) -> Double? {
            guard members[name] != nil else {
                missing(key(name), "add \(name): the screen's \(name) in points, the unit of the layout's frames")
                return nil
            }
            guard let number = number(members[name], at: key(name), expected: "a number of points") else { return nil }
            guard number.isFinite, number > 0, number <= LayoutLimits.points else {
                report(key(name), "\(Self.describe(number)) is not a usable \(name); use a number of points greater than 0 "
                    + "and at most \(Self.describe(LayoutLimits.points))")
                return nil
            }
            return number
        }
        let width = size("width")
        let height = size("height")
        var rotation = ScreenRotation.none
        if let degrees = number(members["rotation"], at: key("rotation"), expected: "0, 90, 180 or 270") {
            if let valid = Int(exactly: degrees).flatMap(ScreenRotation.init(degrees:)) {
                rotation = valid
            } else {
                report(key("rotation"), "\(Self.describe(degrees)) is not a supported rotation; use 0, 90, 180 or 270 "
                    + "(degrees clockwise of the panel relative to the screen)")
            }
        }
        var calibration = CalibrationMatrix.identity
        let calibrationKey = key("calibration")
        if let matrix = numbers(members["calibration"], at: calibrationKey, names: ["a", "b", "c", "d", "e", "f"],
                                expected: "an array of 6 numbers [a, b, c, d, e, f]") {
            var valid = true
            for (index, number) in matrix.enumerated() {
                if let message = LayoutValidator.rangeProblem(number, in: LayoutLimits.calibrationCoefficient, unit: "") {
                    report(Self.path(calibrationKey, index), message.hasSuffix(" ") ? String(message.dropLast()) : message)
                    valid = false
                }
            }
            if valid, let read = CalibrationMatrix(matrix) {
                if let problem = Self.calibrationProblem(read) {
                    report(calibrationKey, problem)
                } else {
                    calibration = read
                }
            }
        }
        reportUnknownKeys(in: members, at: path, known: ["width", "height", "rotation", "calibration"], what: "screen")
        guard let width, let height else { return nil }
        return ScreenGeometry(width: width, height: height, rotation: rotation, calibration: calibration)
    }

    // MARK: socket

    mutating func socket(_ value: JSONValue?, at path: String) -> SocketConfig? {
        guard let value else { return nil }
        guard let members = object(value, at: path, expected: "an object { path, group, controlGroup, controlUsers }") else {
            return nil
        }
        let key = { (name: String) in Self.path(path, name) }
        var socket = SocketConfig()
        if let path = string(members["path"], at: key("path"), expected: "a string (the socket file's path)") {
            if path.isEmpty {
                report(key("path"), "the path is empty; use an absolute path such as \"\(SocketConfig.defaultPath)\"")
            } else if path.utf8.count > SocketConfig.maximumPathLength {
                report(key("path"), "the path is \(path.utf8.count) bytes long; a Unix socket's path holds at most "
                    + "\(SocketConfig.maximumPathLength) bytes, so use a shorter one such as \"\(SocketConfig.defaultPath)\"")
            } else {
                socket.path = path
            }
        }
        /// A group name, or `null` for none.
        func group(_ name: String) -> String? {
            if case .null? = members[name] { return nil }
            guard let group = string(members[name], at: key(name), expected: "a group name (a string) or null") else {
                return nil
            }
            if group.isEmpty { report(key(name), "the group name is empty; name a group, or remove the key for none") }
            return group.isEmpty ? nil : group
        }
        socket.group = group("group")
        socket.controlGroup = group("controlGroup")
        socket.controlUsers = array(members["controlUsers"], at: key("controlUsers"),
                                    expected: "an array of user names [\"…\"]") { reader, element, path in
            guard let user = reader.string(element, at: path, expected: "a string (a user name)") else { return nil }
            if user.isEmpty { reader.report(path, "the user name is empty; name a user or remove the entry") }
            return user.isEmpty ? nil : user
        } ?? []
        reportUnknownKeys(in: members, at: path, known: ["path", "group", "controlGroup", "controlUsers"], what: "socket")
        return socket
    }

    // MARK: web

    /// The bridge's section (SPEC 13): `{ listen: "HOST:PORT", origins: ["…"], token: "…" }`.
    mutating func web(_ value: JSONValue?, at path: String) -> WebConfig? {
        guard let value else { return nil }
        guard let members = object(value, at: path, expected: "an object { listen, origins, token }") else { return nil }
        let key = { (name: String) in Self.path(path, name) }
        var web = WebConfig()
        if let text = string(members["listen"], at: key("listen"),
                             expected: "a string \"HOST:PORT\", such as \"\(WebConfig.defaultListen)\"") {
            switch ListenAddress.parse(text) {
            case .success(let address): web.listen = address
            case .failure(let error): report(key("listen"), "\"\(text)\": \(error)")
            }
        }
        switch members["origins"] {
        case .string("*")?:
            web.origins = [OriginPattern("*")!]
        case let origins?:
            let expected = "an array of page origins [\"http://kiosk.local:8080\", …], or \"*\" for any page"
            web.origins = array(origins, at: key("origins"), expected: expected) { reader, element, path in
                guard let text = reader.string(element, at: path,
                                               expected: "a string (an origin such as \"http://localhost:8080\")") else {
                    return nil
                }
                guard let pattern = OriginPattern(text) else {
                    reader.report(path, "\"\(text)\" is not an origin; write scheme://host or scheme://host:port "
                        + "(http or https, no path, port * for any), \"null\" for file:// pages, or \"*\" for any page")
                    return nil
                }
                return pattern
            } ?? web.origins
        case nil:
            break
        }
        if case .null? = members["token"] {
            web.token = nil
        } else if let token = string(members["token"], at: key("token"), expected: "a string (the token) or null") {
            let range = WebConfig.tokenLength
            if !range.contains(token.utf8.count) {
                report(key("token"), "the token has \(token.utf8.count) characters; use \(range.lowerBound) to "
                    + "\(range.upperBound), such as the output of `openssl rand -hex 16`")
            } else if !token.utf8.allSatisfy(WebConfig.isTokenCharacter) {
                report(key("token"), "the token may only have letters, digits and - . _ ~ (it travels in a URL); "
                    + "use the output of `openssl rand -hex 16`, for example")
            } else {
                web.token = token
            }
        }
        reportUnknownKeys(in: members, at: path, known: ["listen", "origins", "token"], what: "web")
        return web
    }

    // MARK: gestures

    /// Global overrides per recognizer type, plus `control` and `touch` (SPEC 5.7, 12).
    mutating func gestures(_ value: JSONValue?, at path: String) -> GestureSettings? {
        guard let value else { return nil }
        guard let members = object(value, at: path, expected: "an object { tap: { … }, pan: { … }, control: { … }, … }") else {
            return nil
        }
        var settings = GestureSettings()
        for kind in RecognizerKind.allCases {
            guard let section = members[kind.rawValue] else { continue }
            let sectionPath = Self.path(path, kind.rawValue)
            guard let parameters = object(section, at: sectionPath,
                                          expected: "an object of \(kind.rawValue) parameters") else { continue }
            let read = self.parameters(in: parameters, of: kind, at: sectionPath)
            reportUnknownParameterKeys(in: parameters, of: kind, at: sectionPath, known: [])
            append(LayoutValidator.problems(in: read, of: kind, path: sectionPath))
            settings.overrides[kind] = read
        }
        if let section = members["control"] {
            let sectionPath = Self.path(path, "control")
            if let control = object(section, at: sectionPath, expected: "an object { trackingSlop }") {
                if let slop = measure(control["trackingSlop"], at: Self.path(sectionPath, "trackingSlop"),
                                      in: LayoutLimits.distance, unit: "points") {
                    settings.trackingSlop = slop
                }
                reportUnknownKeys(in: control, at: sectionPath, known: ["trackingSlop"], what: "control")
            }
        }
        if let section = members["touch"] {
            let sectionPath = Self.path(path, "touch")
            if let touch = object(section, at: sectionPath, expected: "an object { tapInterval, tapDistance }") {
                if let interval = measure(touch["tapInterval"], at: Self.path(sectionPath, "tapInterval"),
                                          in: LayoutLimits.seconds, unit: "seconds") {
                    settings.touchTapInterval = interval
                }
                if let distance = measure(touch["tapDistance"], at: Self.path(sectionPath, "tapDistance"),
                                          in: LayoutLimits.distance, unit: "points") {
                    settings.touchTapDistance = distance
                }
                reportUnknownKeys(in: touch, at: sectionPath, known: ["tapInterval", "tapDistance"], what: "touch")
            }
        }
        let sections = RecognizerKind.allCases.map(\.rawValue) + ["control", "touch"]
        reportUnknownKeys(in: members, at: path, known: sections, what: "gestures")
        return settings
    }

    /// A number of `unit` in `range`.
    mutating func measure(_ value: JSONValue?, at path: String, in range: ClosedRange<Double>, unit: String) -> Double? {
        guard let number = number(value, at: path, expected: "a number of \(unit)") else { return nil }
        if let message = LayoutValidator.rangeProblem(number, in: range, unit: unit) {
            report(path, message)
            return nil
        }
        return number
    }

    /// Why a calibration matrix cannot be used, or `nil`: it must map the panel onto an area
    /// (not a line or a point), and that area must overlap the screen, or no touch could ever
    /// land on it (issue 12).
    static func calibrationProblem(_ matrix: CalibrationMatrix) -> String? {
        let determinant = matrix.a * matrix.e - matrix.b * matrix.d
        if determinant == 0 {
            return "the matrix maps the whole panel onto a line or a point (a·e − b·d is 0), so touches could not be "
                + "told apart; use [1, 0, 0, 0, 1, 0] and correct from there"
        }
        // The panel's corners, corrected: a parallelogram. It overlaps the unit square unless
        // an axis separates them (the square's two, and the parallelogram's two edge normals).
        let corners = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)].map { u, v in
            (matrix.a * u + matrix.b * v + matrix.c, matrix.d * u + matrix.e * v + matrix.f)
        }
        let square = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
        let axes = [(1.0, 0.0), (0.0, 1.0), (-matrix.d, matrix.a), (-matrix.e, matrix.b)]
        for (x, y) in axes where x != 0 || y != 0 {
            let panel = corners.map { $0.0 * x + $0.1 * y }
            let screen = square.map { $0.0 * x + $0.1 * y }
            if panel.max()! <= screen.min()! || screen.max()! <= panel.min()! {
                return "the matrix maps every touch off the screen (the corrected panel lies outside 0…1 in both "
                    + "directions); check the signs and offsets c and f, or start from [1, 0, 0, 0, 1, 0]"
            }
        }
        return nil
    }
}
