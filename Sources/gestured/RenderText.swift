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

    /// `text` for drawing: at most ``RenderLimits/textCharacters`` characters, the last "…"
    /// when it was longer.
    static func short(_ text: String, _ limit: Int = RenderLimits.textCharacters) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
