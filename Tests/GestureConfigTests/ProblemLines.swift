@testable import GestureConfig

/// Problems as the user sees them, without the file name, so tables of cases stay readable:
/// `layout.alpha: …`, or `3:5: …` for syntax errors. The line and column printed before a key
/// path are left out too (`ProblemPositionTests` pins them).
enum ProblemLines {
    static let file = "test.json5"

    /// The problems of a layout (a root view) given as text; empty when it is valid.
    static func layout(_ text: String) -> [String] {
        do {
            _ = try ConfigurationLoader.parseLayout(text: text, file: file)
            return []
        } catch {
            return strip(error)
        }
    }

    /// The problems of a configuration or bare layout given as text; empty when it is valid.
    static func configuration(_ text: String) -> [String] {
        do {
            _ = try ConfigurationLoader.parse(text: text, file: file)
            return []
        } catch {
            return strip(error)
        }
    }

    /// The problems of a root view whose keys are `members` (written after `id` and `frame`).
    /// A test about `id` or `frame` gives its own.
    static func view(_ members: String) -> [String] {
        let id = members.hasPrefix("id:") ? "" : "id: \"root\", "
        let frame = members.hasPrefix("frame:") ? "" : "frame: [0, 0, 100, 100], "
        return layout("{ \(id)\(frame)\(members) }")
    }

    static func strip(_ error: ConfigurationError) -> [String] {
        error.problems.map { problem in
            var problem = problem
            if case .keyPath = problem.location { problem.position = nil }
            let line = problem.description
            if line.hasPrefix(file + ": ") { return String(line.dropFirst(file.count + 2)) }
            if line.hasPrefix(file + ":") { return String(line.dropFirst(file.count + 1)) }
            return line
        }
    }
}
