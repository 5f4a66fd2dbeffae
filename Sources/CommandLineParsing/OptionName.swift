/// The name of an option or flag as typed: `--config` (long) or `-o` (short).
public enum OptionName: Hashable, Sendable {
    case long(String)
    case short(Character)

    /// As the user types it: `--config`, `-o`.
    public var synopsis: String {
        switch self {
        case .long(let name): "--" + name
        case .short(let letter): "-" + String(letter)
        }
    }

    var isShort: Bool {
        if case .short = self { return true }
        return false
    }
}
