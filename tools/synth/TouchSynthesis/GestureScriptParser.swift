import GestureCore

/// Reads the text of a gesture script (tools/synth/README.md has the format) into a
/// `GestureScript`, or fails naming the file, the line and what was expected there.
public enum GestureScriptParser {
    public static func parse(_ text: String, file: String) throws(ScriptError) -> GestureScript {
        var parser = State(file: file)
        var number = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let content = rawLine.prefix { $0 != "#" }
            guard content.contains(where: { !$0.isWhitespace }) else { continue }
            try parser.read(String(content), line: number)
        }
        return GestureScript(panel: parser.panel, screen: parser.screen, rate: parser.rate, page: try parser.pageMapping(),
                             steps: parser.steps)
    }

    private struct State {
        let file: String
        var panel: String?
        var screen: ScreenGeometry?
        var rate = GestureScript.defaultRate
        var rateLine: Int?
        var units = GestureScript.Units.points
        var pageOrigin: (x: Double, y: Double, line: Int)?
        var pageScale: (value: Double, line: Int)?
        var pageViewport: (width: Double, height: Double, line: Int)?
        var steps: [GestureScript.Step] = []

        init(file: String) { self.file = file }

        func error(_ line: Int, _ message: String) -> ScriptError {
            ScriptError(file: file, line: line, message: message)
        }

        mutating func read(_ content: String, line: Int) throws(ScriptError) {
            let items = content.split(separator: ";", omittingEmptySubsequences: false)
                .map { $0.split(whereSeparator: \.isWhitespace).map(String.init) }
            guard items.allSatisfy({ !$0.isEmpty }) else {
                throw error(line, "expected a step between the semicolons, found an empty one")
            }
            let keyword = items[0][0]
            switch keyword {
            case "panel", "screen", "rate", "units", "wait", "page":
                guard items.count == 1 else {
                    throw error(line, "`\(keyword)` stands on a line of its own; only down, move and up share a line")
                }
                try directive(items[0], line: line)
            case "down", "move", "up":
                try changes(items, line: line)
            default:
                throw error(line, "expected panel, screen, page, rate, units, wait, down, move or up, found `\(keyword)`")
            }
        }

        private mutating func directive(_ tokens: [String], line: Int) throws(ScriptError) {
            let arguments = Array(tokens.dropFirst())
            switch tokens[0] {
            case "panel":
                guard panel == nil else { throw error(line, "a second `panel` line; a script plays on one panel") }
                guard steps.isEmpty else { throw error(line, "`panel` must come before the first step") }
                guard arguments.count == 1 else { throw error(line, "expected `panel FILE` (one path, no spaces)") }
                panel = arguments[0]
            case "screen":
                guard screen == nil else { throw error(line, "a second `screen` line; a script has one screen") }
                guard steps.isEmpty else { throw error(line, "`screen` must come before the first step") }
                screen = try parseScreen(arguments, line: line)
            case "rate":
                guard rateLine == nil else { throw error(line, "a second `rate` line") }
                guard steps.isEmpty else { throw error(line, "`rate` must come before the first step") }
                guard arguments.count == 1, let value = Int(arguments[0]), GestureScript.rates.contains(value) else {
                    throw error(line, "expected `rate HZ` with HZ a whole number of frames per second from "
                                + "\(GestureScript.rates.lowerBound) to \(GestureScript.rates.upperBound)")
                }
                rate = value
                rateLine = line
            case "units":
                guard arguments.count == 1, let value = GestureScript.Units(rawValue: arguments[0]) else {
                    throw error(line, "expected `units points`, `units mm`, `units device` or `units css`")
                }
                units = value
            case "page":
                guard steps.isEmpty else { throw error(line, "`page` must come before the first step") }
                try page(arguments, line: line)
            default:  // "wait"
                guard arguments.count == 1 else { throw error(line, "expected `wait DURATION`, e.g. `wait 80ms` or `wait 1.5s`") }
                let microseconds = try duration(arguments[0], line: line)
                guard microseconds > 0 else { throw error(line, "a wait must be longer than 0") }
                try append(.wait(microseconds: microseconds), line: line)
            }
        }

        /// `page origin X Y`, `page scale S`, `page viewport W H`: each once.
        private mutating func page(_ arguments: [String], line: Int) throws(ScriptError) {
            let usage = "expected `page origin X Y` (points), `page scale S` (points per CSS pixel: devicePixelRatio × zoom) "
                + "or `page viewport WIDTH HEIGHT` (CSS pixels)"
            guard let key = arguments.first else { throw error(line, usage) }
            let numbers = arguments.dropFirst().map { Double($0) }
            func values(_ count: Int, _ range: ClosedRange<Double>, _ what: String) throws(ScriptError) -> [Double] {
                guard numbers.count == count, numbers.allSatisfy({ $0 != nil }) else {
                    throw error(line, "expected `page \(key)` and \(count == 1 ? "a number" : "\(count) numbers"): \(what)")
                }
                let found = numbers.map { $0! }
                guard found.allSatisfy({ range.contains($0) }) else {
                    throw error(line, "`page \(key)` is \(found.map { "\($0)" }.joined(separator: " ")); \(what) from "
                        + "\(range.lowerBound) to \(range.upperBound)")
                }
                return found
            }
            switch key {
            case "origin":
                guard pageOrigin == nil else { throw error(line, "a second `page origin` line") }
                let found = try values(2, GestureScript.PageMapping.origins, "the viewport's top-left corner in screen points")
                pageOrigin = (found[0], found[1], line)
            case "scale":
                guard pageScale == nil, pageViewport == nil else {
                    throw error(line, "`page scale` and `page viewport` each say how large a CSS pixel is; give one of them once")
                }
                let found = try values(1, GestureScript.PageMapping.scales, "screen points per CSS pixel")
                pageScale = (found[0], line)
            case "viewport":
                guard pageScale == nil, pageViewport == nil else {
                    throw error(line, "`page scale` and `page viewport` each say how large a CSS pixel is; give one of them once")
                }
                let found = try values(2, GestureScript.PageMapping.viewportSizes, "the viewport's innerWidth and innerHeight in CSS pixels")
                pageViewport = (found[0], found[1], line)
            default:
                throw error(line, "\(usage); found `page \(key)`")
            }
        }

        /// The page's mapping: a viewport's scale is the screen's width over its width, and
        /// its height must then fit the screen's.
        func pageMapping() throws(ScriptError) -> GestureScript.PageMapping {
            var mapping = GestureScript.PageMapping(originX: pageOrigin?.x ?? 0, originY: pageOrigin?.y ?? 0,
                                                    scale: pageScale?.value ?? 1)
            if let viewport = pageViewport {
                guard let screen else { throw error(viewport.line, "`page viewport` needs a `screen WIDTH HEIGHT` line") }
                let width = screen.size.width - mapping.originX, height = screen.size.height - mapping.originY
                mapping.scale = width / viewport.width
                guard GestureScript.PageMapping.scales.contains(mapping.scale) else {
                    throw error(viewport.line, "a viewport \(viewport.width) CSS pixels wide on \(width) points makes a CSS pixel "
                        + "\(mapping.scale) points; the scale must be from \(GestureScript.PageMapping.scales.lowerBound) to "
                        + "\(GestureScript.PageMapping.scales.upperBound)")
                }
                // The shapes must agree to half a CSS pixel, as a browser rounds innerHeight.
                guard abs(viewport.height * mapping.scale - height) <= mapping.scale / 2 + 1e-9 else {
                    throw error(viewport.line, "the viewport (\(viewport.width) × \(viewport.height) CSS pixels) has another "
                        + "shape than the screen below its origin (\(width) × \(height) points): give `page scale` (and "
                        + "`page origin`) instead, as window.devicePixelRatio × zoom and where the viewport lies")
                }
            }
            return mapping
        }

        private func parseScreen(_ arguments: [String], line: Int) throws(ScriptError) -> ScreenGeometry {
            let usage = "expected `screen WIDTH HEIGHT [rotation 0|90|180|270] [calibration A B C D E F]`"
            guard arguments.count >= 2, let width = Double(arguments[0]), let height = Double(arguments[1]) else {
                throw error(line, usage)
            }
            let sizes = 1.0...100_000.0
            guard sizes.contains(width), sizes.contains(height) else {
                throw error(line, "the screen's width and height must be from 1 to 100000 points")
            }
            var geometry = ScreenGeometry(width: width, height: height)
            var rest = arguments.dropFirst(2)
            while let key = rest.first {
                rest = rest.dropFirst()
                switch key {
                case "rotation":
                    guard let text = rest.first, let degrees = Int(text), let rotation = ScreenRotation(degrees: degrees) else {
                        throw error(line, "expected `rotation` 0, 90, 180 or 270 (degrees clockwise, as in the configuration)")
                    }
                    geometry.rotation = rotation
                    rest = rest.dropFirst()
                case "calibration":
                    let values = rest.prefix(6).compactMap { Double($0) }.filter(\.isFinite)
                    guard values.count == 6, let matrix = CalibrationMatrix(values) else {
                        throw error(line, "expected `calibration` and six numbers, libinput's matrix as in the configuration")
                    }
                    guard abs(matrix.a * matrix.e - matrix.b * matrix.d) > 1e-9 else {
                        throw error(line, "this calibration cannot be inverted (a*e - b*d is 0): no panel position gives these points")
                    }
                    geometry.calibration = matrix
                    rest = rest.dropFirst(6)
                default:
                    throw error(line, "\(usage); found `\(key)`")
                }
            }
            return geometry
        }

        private mutating func changes(_ items: [[String]], line: Int) throws(ScriptError) {
            var items = items
            var glide: Int64?
            // `over DURATION` closes a line of moves.
            if let last = items.last, last.count >= 2, last[last.count - 2] == "over" {
                let microseconds = try duration(last[last.count - 1], line: line)
                guard microseconds > 0 else { throw error(line, "`over` needs a duration longer than 0") }
                glide = microseconds
                items[items.count - 1] = Array(last.dropLast(2))
            }
            var changes: [GestureScript.Change] = []
            var fingers: Set<Int> = []
            for tokens in items {
                let change = try self.change(tokens, line: line)
                guard fingers.insert(change.finger).inserted else {
                    throw error(line, "finger \(change.finger) changes twice in one frame; put the second change on the next line")
                }
                changes.append(change)
            }
            if let glide {
                guard changes.allSatisfy({ if case .move = $0 { true } else { false } }) else {
                    throw error(line, "`over` glides moves only; put down and up on lines of their own")
                }
                try append(.glide(changes, microseconds: glide), line: line)
            } else {
                try append(.frame(changes), line: line)
            }
        }

        private func change(_ tokens: [String], line: Int) throws(ScriptError) -> GestureScript.Change {
            let keyword = tokens[0]
            let usage = keyword == "up" ? "`up FINGER`" : "`\(keyword) FINGER X Y`"
            guard ["down", "move", "up"].contains(keyword) else {
                throw error(line, "expected down, move or up after `;`, found `\(keyword)`")
            }
            guard tokens.count == (keyword == "up" ? 2 : 4) else {
                throw error(line, "expected \(usage), found `\(tokens.joined(separator: " "))`")
            }
            guard let finger = Int(tokens[1]), (0...999).contains(finger) else {
                throw error(line, "expected a finger number from 0 to 999 in \(usage), found `\(tokens[1])`")
            }
            if keyword == "up" { return .up(finger: finger) }
            guard let x = Double(tokens[2]), let y = Double(tokens[3]), x.isFinite, y.isFinite else {
                throw error(line, "expected numbers for X and Y in \(usage), found `\(tokens[2]) \(tokens[3])`")
            }
            if units == .points || units == .css, screen == nil {
                throw error(line, "positions in \(units == .css ? "CSS pixels" : "points") need a `screen WIDTH HEIGHT` line "
                    + "first (or `units mm` / `units device`)")
            }
            let position = GestureScript.Position(x: x, y: y, units: units)
            return keyword == "down" ? .down(finger: finger, position) : .move(finger: finger, position)
        }

        /// `80ms`, `1.5s`: microseconds, at most `GestureScript.maximumDuration`.
        private func duration(_ text: String, line: Int) throws(ScriptError) -> Int64 {
            let (number, scale): (Substring, Double) = if text.hasSuffix("ms") {
                (text.dropLast(2), 1_000)
            } else if text.hasSuffix("s") {
                (text.dropLast(1), 1_000_000)
            } else {
                ("", 0)
            }
            guard let value = Double(number), value.isFinite, value >= 0 else {
                throw error(line, "expected a duration such as `80ms` or `1.5s`, found `\(text)`")
            }
            let microseconds = (value * scale).rounded()
            guard microseconds <= Double(GestureScript.maximumDuration) else {
                throw error(line, "a duration may be at most an hour, found `\(text)`")
            }
            return Int64(microseconds)
        }

        private mutating func append(_ action: GestureScript.Action, line: Int) throws(ScriptError) {
            guard steps.count < GestureScript.maximumSteps else {
                throw error(line, "more than \(GestureScript.maximumSteps) steps; split the script")
            }
            steps.append(GestureScript.Step(line: line, action: action))
        }
    }
}
