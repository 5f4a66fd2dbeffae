import GestureCore

/// The fixed spellings of `gestured render`'s output: numbers with a fixed count of decimals
/// (never the platform's float printing, so that the bytes do not change with it), text escaped
/// for XML and for JSON, ids shortened for drawing.
enum RenderText {
    /// `value` rounded to `decimals` decimals (0 to 6), written with exactly that many: `12.50`.
    /// Not finite (never in a replay): `0`.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        guard value.isFinite, abs(value * scale) < 9e15 else { return decimals == 0 ? "0" : "0." + String(repeating: "0", count: decimals) }
        let scaled = Int64((value * scale).rounded())
        let negative = scaled < 0
        let magnitude = negative ? -scaled : scaled
        let unit = Int64(scale)
        var text = (negative ? "-" : "") + String(magnitude / unit)
        if decimals > 0 {
            let fraction = String(magnitude % unit)
            text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
        return text
    }

    /// A coordinate of the picture: one decimal.
    static func coordinate(_ value: Double) -> String { fixed(value, 1) }

    /// Microseconds as seconds with three decimals: `1.250 s` is written `1.250`.
    static func seconds(_ microseconds: Int64) -> String {
        let negative = microseconds < 0
        let milliseconds = (abs(microseconds) + 500) / 1000
        let fraction = String(milliseconds % 1000)
        return (negative ? "-" : "") + String(milliseconds / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// `text` as an XML attribute value or character data: the five special characters as
    /// entities (with `quotes: false`, for character data, only `&`, `<` and `>`: the embedded
    /// JSON stays readable in a diff), and the characters XML 1.0 cannot hold at all (controls
    /// but tab, line feed and carriage return; U+FFFE, U+FFFF) as U+FFFD, since not even a
    /// character reference may name them.
    static func xml(_ text: String, quotes: Bool = true) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            case "'" where quotes: out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// A failure's reason as the picture writes it (docs/render.md): the cause's name, the
    /// figure against its limit with the unit, the recognizer that caused it —
    /// `movedTooFar: 52.3 pt (limit 45.0)`, `excluded by photo-pan`.
    static func reason(_ cause: String, measured: Double?, limit: Double?, by: String?) -> String {
        let unit = FailureCause(rawValue: cause)?.unit.map { " " + $0 } ?? ""
        let decimals = unit == " touches" ? 0 : unit == " s" ? 3 : 1
        var text = cause
        if let measured { text += ": " + fixed(measured, decimals) + unit }
        if let limit { text += (measured == nil ? ": limit " + fixed(limit, decimals) + unit : " (limit " + fixed(limit, decimals) + ")") }
        if let by { text += " by " + by }
        return text
    }

    /// ``reason(_:measured:limit:by:)`` of an engine event's failure.
    static func reason(_ failure: GestureFailure) -> String {
        reason(failure.reason.cause.rawValue, measured: failure.reason.measured, limit: failure.reason.limit, by: failure.by)
    }

    /// `text` for drawing: at most ``RenderLimits/textCharacters`` characters, the last "…"
    /// when it was longer.
    static func short(_ text: String, _ limit: Int = RenderLimits.textCharacters) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
