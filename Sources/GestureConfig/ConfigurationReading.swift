import GestureCore

/// Reading the sections of a configuration file (docs/configuration.md) out of JSON values. The layout
/// section is the loader's, since it may name another file.
extension SchemaReader {
    /// The configuration's top-level keys in the order problems are reported.
    static let configurationKeys = ["device", "grab", "axes", "screen", "socket", "gestures", "layout", "web", "routing",
                                     "screens"]

    // MARK: device

    /// The configured device (docs/configuration.md, "`device`: panels that misdescribe themselves"):
    /// `"auto"`, a device path, or `{ path | name, type, axes }`; an object with neither `path` nor `name` is
    /// `auto` with its `axes`.
    mutating func device(_ value: JSONValue?, at path: String) -> (DeviceSelector, DeviceOverrides)? {
        switch value {
        case nil:
            return nil
        case .string("auto"):
            return (.auto, .none)
        case .string(let string):
            if string.hasPrefix("/") { return (.path(string), .none) }
            report(path, "\"\(string)\" is neither \"auto\" nor a device path; write a path such as \"/dev/input/by-id/…\", "
                + "or { name: \"\(string.isEmpty ? "eGalax*" : string)\" } to pick the device by name")
            return nil
        case .object(let members):
            let key = { (name: String) in Self.path(path, name) }
            var selector = DeviceSelector.auto
            var selectorIsValid = true
            if let value = members["path"] {
                if let devicePath = string(value, at: key("path"), expected: "a string (a device path such as \"/dev/input/touchscreen\")") {
                    if devicePath.hasPrefix("/") {
                        selector = .path(devicePath)
                    } else {
                        report(key("path"), "\"\(devicePath)\" is not an absolute path; write one such as \"/dev/input/by-id/…\"")
                        selectorIsValid = false
                    }
                } else {
                    selectorIsValid = false
                }
            }
            if let value = members["name"] {
                if members["path"] != nil {
                    report(key("name"), "give path or name, not both: path names one node, name picks the first device "
                        + "whose name matches")
                    selectorIsValid = false
                } else if let pattern = string(value, at: key("name"), expected: "a string (a device name pattern such as \"eGalax*\")") {
                    if pattern.isEmpty {
                        report(key("name"), "the pattern is empty; write the device name, with * for any characters")
                        selectorIsValid = false
                    } else {
                        selector = .name(pattern: pattern)
                    }
                } else {
                    selectorIsValid = false
                }
            }
            if let identity = deviceIdentity(members, at: path), selectorIsValid {
                if members["path"] != nil {
                    report(key("path"), "give path or the identity keys (idPath, serial, vendor, product, phys), not both: "
                        + "path names one node; the identity keys find the panel wherever it is plugged in")
                    selectorIsValid = false
                } else {
                    var identity = identity
                    if case .name(let pattern) = selector { identity.name = pattern }
                    selector = .identity(identity)
                }
            }
            var overrides = DeviceOverrides()
            if let value = members["type"] {
                if case .string("touchscreen") = value {
                    if selector == .auto && selectorIsValid {
                        report(key("type"), "type needs path or name: auto picks what udev calls a touchscreen, so say "
                            + "which device to treat as one, e.g. { path: \"/dev/input/by-id/…\", type: \"touchscreen\" }")
                    } else {
                        overrides.type = .touchscreen
                    }
                } else {
                    let found = if case .string(let word) = value { "\"\(word)\"" } else { value.kindDescription }
                    report(key("type"), "expected \"touchscreen\", found \(found); type makes gestured read the device as a "
                        + "touchscreen whatever udev calls it (touchpads, tablets and other devices are never read)")
                }
            }
            overrides.axes = deviceAxes(members["axes"], at: key("axes")) ?? .none
            reportUnknownKeys(in: members, at: path, known: ["path", "name", "type", "axes"] + Self.identityKeys, what: "a device")
            return selectorIsValid ? (selector, overrides) : nil
        case let other?:
            mismatch(path, expected: "\"auto\", a device path or { path | name, type, axes }", found: other)
            return nil
        }
    }

    /// The device's stable identity keys (docs/configuration.md, "Screens").
    static let identityKeys = ["idPath", "serial", "vendor", "product", "phys"]

    /// The identity keys of a device object; nil when it has none (or only invalid ones, which
    /// are reported).
    mutating func deviceIdentity(_ members: [String: JSONValue], at path: String) -> DeviceIdentity? {
        guard Self.identityKeys.contains(where: { members[$0] != nil }) else { return nil }
        let key = { (name: String) in Self.path(path, name) }
        var identity = DeviceIdentity()
        var valid = true
        func text(_ name: String, _ what: String) -> String? {
            guard let value = members[name] else { return nil }
            guard let text = string(value, at: key(name), expected: "a string (\(what))") else {
                valid = false
                return nil
            }
            if text.isEmpty || text.utf8.count > ConfigurationLimits.identityLength {
                report(key(name), "the value has \(text.utf8.count) bytes; give 1 to \(ConfigurationLimits.identityLength) "
                    + "(\(what), as `gestured devices` shows it)")
                valid = false
                return nil
            }
            return text
        }
        func hexID(_ name: String, _ what: String) -> UInt16? {
            guard let text = text(name, what) else { return nil }
            guard text.utf8.count == 4, let id = UInt16(text, radix: 16) else {
                report(key(name), "\"\(text)\" is not 4 hex digits; write the \(what) as lsusb and `gestured devices` "
                    + "show it, such as \"0eef\"")
                valid = false
                return nil
            }
            return id
        }
        identity.idPath = text("idPath", "udev's ID_PATH")
        identity.serial = text("serial", "udev's ID_SERIAL_SHORT")
        identity.vendor = hexID("vendor", "vendor id")
        identity.product = hexID("product", "product id")
        identity.phys = text("phys", "the kernel's phys string")
        return valid ? identity : nil
    }

    // MARK: axes

    /// `device.axes`: `{ x: AXIS, y: AXIS }`, each an axis name (`"ABS_Z"`), its code, or
    /// `{ code, min, max, resolution }` (every key optional, `min` and `max` together).
    mutating func deviceAxes(_ value: JSONValue?, at path: String) -> AxisOverrides? {
        guard let value else { return nil }
        let expected = "an object { x: \"ABS_…\", y: \"ABS_…\" } (or { x: { code, min, max, resolution }, y: … })"
        guard let members = object(value, at: path, expected: expected) else { return nil }
        let axes = AxisOverrides(x: axis(members["x"], at: Self.path(path, "x")),
                                 y: axis(members["y"], at: Self.path(path, "y")))
        reportUnknownKeys(in: members, at: path, known: ["x", "y"], what: "axes")
        if let x = axes.x?.code, let y = axes.y?.code {
            if x == y {
                report(Self.path(path, "y"), "\(AbsCode.name(y)) is the x axis too; name two different axes")
            } else if AbsCode.isMultitouch(x) != AbsCode.isMultitouch(y) {
                report(path, "\(AbsCode.name(x)) and \(AbsCode.name(y)) are not of one kind: name two multitouch (ABS_MT_*) "
                    + "axes, read per contact, or two others, read as a single-touch panel")
            }
        }
        return axes
    }

    /// One axis of `device.axes`.
    mutating func axis(_ value: JSONValue?, at path: String) -> AxisOverride? {
        guard let value else { return nil }
        switch value {
        case .string, .number:
            return axisCode(value, at: path).map { AxisOverride(code: $0) }
        case .object(let members):
            let key = { (name: String) in Self.path(path, name) }
            var axis = AxisOverride()
            if let code = members["code"] { axis.code = axisCode(code, at: key("code")) }
            let expected = "a whole number of device units"
            func deviceUnits(_ name: String) -> Int32? {
                guard let number = integer(members[name], at: key(name), expected: expected) else { return nil }
                guard let units = Int32(exactly: number) else {
                    report(key(name), "\(number) does not fit a device axis; use a value from \(Int32.min) to \(Int32.max)")
                    return nil
                }
                return units
            }
            let minimum = deviceUnits("min")
            let maximum = deviceUnits("max")
            if members["min"] != nil && members["max"] == nil {
                missing(key("max"), "add max: the largest value the panel reports on this axis (min and max go together)")
            }
            if members["max"] != nil && members["min"] == nil {
                missing(key("min"), "add min: the smallest value the panel reports on this axis (min and max go together)")
            }
            if let minimum, let maximum {
                if maximum <= minimum {
                    report(key("max"), "max (\(maximum)) is not greater than min (\(minimum)); swap them, or use rotation or "
                        + "calibration to flip the axis")
                } else {
                    axis.range = minimum...maximum
                }
            }
            if let resolution = deviceUnits("resolution") {
                if resolution < 0 {
                    report(key("resolution"), "\(resolution) is negative; use the units per millimetre, or 0 if unknown")
                } else {
                    axis.resolution = resolution
                }
            }
            reportUnknownKeys(in: members, at: path, known: ["code", "min", "max", "resolution"], what: "an axis")
            if members.isEmpty {
                report(path, "the axis is empty; name the axis (\"ABS_Z\") or give code, min and max, or resolution")
            }
            return axis
        case .array, .bool, .null:
            mismatch(path, expected: "an axis name such as \"ABS_Z\", its code, or { code, min, max, resolution }", found: value)
            return nil
        }
    }

    /// An absolute axis by its kernel name (`"ABS_RX"`) or code (3): any `EV_ABS` code that can
    /// carry a coordinate, so not `ABS_MT_SLOT` or `ABS_MT_TRACKING_ID`.
    mutating func axisCode(_ value: JSONValue, at path: String) -> UInt16? {
        let advice = "name an absolute axis as input-event-codes.h does, such as \"ABS_Z\" or \"ABS_MT_POSITION_X\", "
            + "or give its code (0 to \(AbsCode.max))"
        let code: UInt16
        switch value {
        case .string(let name):
            guard let known = AbsCode.code(named: name) else {
                let names = AbsCode.names.map(\.name)
                if let near = LayoutValidator.suggestion(for: name, among: names) {
                    report(path, "\"\(name)\" is not an absolute axis; did you mean \"\(near)\"?")
                } else {
                    report(path, "\"\(name)\" is not an absolute axis; \(advice)")
                }
                return nil
            }
            code = known
        default:
            guard let number = integer(value, at: path, expected: "an axis name or a code from 0 to \(AbsCode.max)") else {
                return nil
            }
            guard let known = UInt16(exactly: number), known <= AbsCode.max else {
                report(path, "\(number) is not an absolute axis code; \(advice)")
                return nil
            }
            code = known
        }
        if code == AbsCode.mtSlot || code == AbsCode.mtTrackingID {
            report(path, "\(AbsCode.name(code)) numbers contacts, it carries no position; \(advice)")
            return nil
        }
        return code
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
        var calibration: CalibrationMatrix?
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
                if let problem = read.problem {
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

    /// The bridge's section (docs/web.md, "Configuration (`web`)"): `{ listen: "HOST:PORT", origins: ["…"],
    /// token: "…" }`.
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

    /// Global overrides per recognizer type, plus `control` and `touch` (docs/configuration.md,
    /// "`gestures`"). Their distances may be given in millimetres of the panel, `{ mm: 3 }` (same section),
    /// converted when the device is known (``MillimetreThresholds``).
    mutating func gestures(_ value: JSONValue?, at path: String) -> GestureSettings? {
        guard let value else { return nil }
        guard let members = object(value, at: path, expected: "an object { tap: { … }, pan: { … }, control: { … }, … }") else {
            return nil
        }
        var settings = GestureSettings()
        var millimetres: [MillimetreThresholds.Entry]? = []
        for kind in RecognizerKind.allCases {
            guard let section = members[kind.rawValue] else { continue }
            let sectionPath = Self.path(path, kind.rawValue)
            guard let parameters = object(section, at: sectionPath,
                                          expected: "an object of \(kind.rawValue) parameters") else { continue }
            let read = self.parameters(in: parameters, of: kind, at: sectionPath, millimetres: &millimetres)
            reportUnknownParameterKeys(in: parameters, of: kind, at: sectionPath, known: [])
            append(LayoutValidator.problems(in: read, of: kind, path: sectionPath))
            settings.overrides[kind] = read
        }
        if let section = members["control"] {
            let sectionPath = Self.path(path, "control")
            if let control = object(section, at: sectionPath, expected: "an object { trackingSlop }") {
                let key = Self.path(sectionPath, "trackingSlop")
                if let slop = distance(control["trackingSlop"], at: key, target: .trackingSlop, millimetres: &millimetres) {
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
                let key = Self.path(sectionPath, "tapDistance")
                if let distance = distance(touch["tapDistance"], at: key, target: .touchTapDistance,
                                           millimetres: &millimetres) {
                    settings.touchTapDistance = distance
                }
                reportUnknownKeys(in: touch, at: sectionPath, known: ["tapInterval", "tapDistance"], what: "touch")
            }
        }
        let sections = RecognizerKind.allCases.map(\.rawValue) + ["control", "touch"]
        reportUnknownKeys(in: members, at: path, known: sections, what: "gestures")
        settings.millimetres = MillimetreThresholds(millimetres ?? [])
        return settings
    }

    /// A distance of the `gestures` section: a number of points (returned), or `{ mm: N }`
    /// (added to `millimetres`; nil is returned).
    mutating func distance(_ value: JSONValue?, at path: String, target: MillimetreThresholds.Target,
                           millimetres: inout [MillimetreThresholds.Entry]?) -> Double? {
        guard let value else { return nil }
        if case .object(let members) = value {
            if let mm = self.millimetres(members, at: path) {
                millimetres?.append(MillimetreThresholds.Entry(key: path, target: target, millimetres: mm))
            }
            return nil
        }
        return measure(value, at: path, in: LayoutLimits.distance, unit: "points")
    }

    /// `{ mm: N }`: millimetres of the panel, in ``LayoutLimits/millimetres``.
    mutating func millimetres(_ members: [String: JSONValue], at path: String) -> Double? {
        let key = Self.path(path, "mm")
        reportUnknownKeys(in: members, at: path, known: ["mm"], what: "a distance in millimetres")
        guard members["mm"] != nil else {
            missing(key, "write a distance in points, or { mm: N } for N millimetres of the panel")
            return nil
        }
        return measure(members["mm"], at: key, in: LayoutLimits.millimetres, unit: "millimetres")
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
}
