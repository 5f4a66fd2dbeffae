/// What the parser, the help text, the usage line and the error messages know of one argument:
/// its names, whether it takes a value, how many times it may appear, and its help.
public struct ArgumentDefinition: Sendable {
    /// A flag takes no value, an option takes one after its name, a positional argument is
    /// recognised by its place.
    public enum Kind: Sendable, Equatable {
        case flag
        case option
        case positional
    }

    /// Which words an option or positional argument takes as its value.
    public enum Parsing: Sendable, Equatable {
        /// The option's value is the next word unless that word starts with `-` (then the value
        /// is missing, as in `--socket --stdout`); `-` alone is a value. A positional argument
        /// takes words that do not start with `-`.
        case normal
        /// The option's value is the next word whatever it is, so `--count -1` is a (wrong)
        /// value to explain, not a missing one.
        case unconditional
        /// A positional argument that also takes every word starting with `-` that is not one of
        /// the command's options, so `hit-test L -5 -5` is a point.
        case allUnrecognized
    }

    public var kind: Kind
    /// Empty for a positional argument; otherwise the first long name is the one errors use.
    public var names: [OptionName]
    /// The placeholder in help and usage: `--config <config>`, `<recording>`.
    public var valueName: String
    public var help: String
    /// The default as help shows it, `nil` when there is none to show.
    public var defaultValue: String?
    public var isOptional: Bool
    public var isRepeating: Bool
    /// Hidden arguments work but appear in no help or usage text.
    public var isHidden: Bool
    public var parsing: Parsing

    public init(kind: Kind, names: [OptionName], valueName: String, help: String, defaultValue: String? = nil,
                isOptional: Bool, isRepeating: Bool = false, isHidden: Bool = false, parsing: Parsing = .normal) {
        (self.kind, self.names, self.valueName, self.help, self.defaultValue, self.isOptional, self.isRepeating, self.isHidden, self.parsing) =
            (kind, names, valueName, help, defaultValue, isOptional, isRepeating, isHidden, parsing)
    }

    /// The name errors and usage lines use: the first long name, else the first short one.
    public var preferredName: OptionName? {
        names.first { !$0.isShort } ?? names.first
    }

    /// `--config <config>`, `--stdout`, `<recording>`: how the argument reads in messages.
    var unadornedSynopsis: String {
        switch kind {
        case .flag: preferredName?.synopsis ?? ""
        case .option: (preferredName?.synopsis ?? "") + " <\(valueName)>"
        case .positional: "<\(valueName)>"
        }
    }

    /// The argument in a usage line: `[--socket <path>]`, `[--kinds <kinds> ...]`, `<file>`.
    var usageSynopsis: String {
        var synopsis = unadornedSynopsis
        if isRepeating { synopsis += " ..." }
        if isOptional { synopsis = "[\(synopsis)]" }
        return synopsis
    }

    /// The label in the help's list: every name, short ones first, then the value.
    var helpLabel: String {
        let shorts = names.filter(\.isShort)
        let longs = names.filter { !$0.isShort }
        let joined = (shorts + longs).map(\.synopsis).joined(separator: ", ")
        switch kind {
        case .flag: return joined
        case .option: return joined + " <\(valueName)>"
        case .positional: return "<\(valueName)>"
        }
    }

    /// The help with its default, as the help's list shows it.
    var helpAbstract: String {
        guard let defaultValue, !defaultValue.isEmpty else { return help }
        return help.isEmpty ? "(default: \(defaultValue))" : help + " (default: \(defaultValue))"
    }
}
