/// One argument of a command, declared once: its definition for parsing and help, and where its
/// value goes in the command's properties (`\Run.config`). A default is the property's initial
/// value, so it is written in one place and help shows it from there.
public struct Argument<Command> {
    public let definition: ArgumentDefinition
    /// Stores the argument's words (one per occurrence, in order) in the command; `nil` when
    /// one of them is not a value of the property's type, with the word that is not.
    let assign: (inout Command, [String]) -> String?
    /// The default help shows, read from a freshly made command.
    let defaultDescription: (Command) -> String?
    /// What a valid value looks like: "a whole number".
    let expectation: String

    init(_ definition: ArgumentDefinition, expectation: String = String.expectation,
         assign: @escaping (inout Command, [String]) -> String?,
         defaultDescription: @escaping (Command) -> String? = { _ in nil }) {
        (self.definition, self.expectation, self.assign, self.defaultDescription) =
            (definition, expectation, assign, defaultDescription)
    }

    /// The definition with its default filled in from the command's initial values.
    func resolvedDefinition(defaults: Command) -> ArgumentDefinition {
        var resolved = definition
        resolved.defaultValue = defaultDescription(defaults)
        return resolved
    }
}

extension Argument {
    /// A flag: present sets the property to `true`; may be repeated.
    public static func flag(_ name: String, _ keyPath: WritableKeyPath<Command, Bool>, help: String) -> Self {
        Self(ArgumentDefinition(kind: .flag, names: [.long(name)], valueName: name, help: help, isOptional: true)) { command, words in
            if !words.isEmpty { command[keyPath: keyPath] = true }
            return nil
        }
    }

    /// An option with a default (the property's initial value, shown in help); the last
    /// occurrence wins.
    public static func option<Value: ArgumentValue & CustomStringConvertible>(
        _ name: String, short: Character? = nil, _ keyPath: WritableKeyPath<Command, Value>,
        valueName: String? = nil, parsing: ArgumentDefinition.Parsing = .normal, isHidden: Bool = false,
        help: String
    ) -> Self {
        let definition = ArgumentDefinition(kind: .option, names: names(name, short), valueName: valueName ?? name,
                                            help: help, isOptional: true, isHidden: isHidden, parsing: parsing)
        return Self(definition, expectation: Value.expectation, assign: lastValue(keyPath),
                    defaultDescription: { String(describing: $0[keyPath: keyPath]) })
    }

    /// An option that must be given; the property's initial value is a placeholder never used.
    public static func requiredOption<Value: ArgumentValue>(
        _ name: String, short: Character? = nil, _ keyPath: WritableKeyPath<Command, Value>,
        valueName: String? = nil, help: String
    ) -> Self {
        let definition = ArgumentDefinition(kind: .option, names: names(name, short), valueName: valueName ?? name,
                                            help: help, isOptional: false)
        return Self(definition, expectation: Value.expectation, assign: lastValue(keyPath))
    }

    /// An option that may be left out (`nil`); the last occurrence wins.
    public static func option<Value: ArgumentValue>(
        _ name: String, short: Character? = nil, _ keyPath: WritableKeyPath<Command, Value?>,
        valueName: String? = nil, parsing: ArgumentDefinition.Parsing = .normal, help: String
    ) -> Self {
        let definition = ArgumentDefinition(kind: .option, names: names(name, short), valueName: valueName ?? name,
                                            help: help, isOptional: true, parsing: parsing)
        return Self(definition, expectation: Value.expectation, assign: lastValue(keyPath))
    }

    /// An option that may be repeated; every occurrence's value, in order.
    public static func option<Value: ArgumentValue>(
        _ name: String, short: Character? = nil, _ keyPath: WritableKeyPath<Command, [Value]>,
        valueName: String? = nil, help: String
    ) -> Self {
        let definition = ArgumentDefinition(kind: .option, names: names(name, short), valueName: valueName ?? name,
                                            help: help, isOptional: true, isRepeating: true)
        return Self(definition, expectation: Value.expectation) { command, words in
            var values: [Value] = []
            for word in words {
                guard let value = Value(argument: word) else { return word }
                values.append(value)
            }
            command[keyPath: keyPath] = values
            return nil
        }
    }

    /// A positional argument that must be given.
    public static func positional<Value: ArgumentValue>(
        _ keyPath: WritableKeyPath<Command, Value>, valueName: String, help: String
    ) -> Self {
        Self(ArgumentDefinition(kind: .positional, names: [], valueName: valueName, help: help, isOptional: false),
             expectation: Value.expectation, assign: lastValue(keyPath))
    }

    /// A positional argument that may be left out.
    public static func positional<Value: ArgumentValue>(
        _ keyPath: WritableKeyPath<Command, Value?>, valueName: String, help: String
    ) -> Self {
        Self(ArgumentDefinition(kind: .positional, names: [], valueName: valueName, help: help, isOptional: true),
             expectation: Value.expectation, assign: lastValue(keyPath))
    }

    /// Every remaining positional word (none is an error for the command to give, not the
    /// parser); with `.allUnrecognized`, words starting with `-` that are no option too.
    public static func positionals(
        _ keyPath: WritableKeyPath<Command, [String]>, valueName: String,
        parsing: ArgumentDefinition.Parsing = .normal, help: String
    ) -> Self {
        let definition = ArgumentDefinition(kind: .positional, names: [], valueName: valueName, help: help,
                                            isOptional: true, isRepeating: true, parsing: parsing)
        return Self(definition) { command, words in
            command[keyPath: keyPath] = words
            return nil
        }
    }

    private static func names(_ long: String, _ short: Character?) -> [OptionName] {
        short.map { [.long(long), .short($0)] } ?? [.long(long)]
    }

    /// Stores the last occurrence's value with `store` (an option given more than once keeps
    /// its last value); returns the word when it is not a value of the type.
    private static func lastValue<Value: ArgumentValue>(
        _ store: @escaping (inout Command, Value) -> Void
    ) -> (inout Command, [String]) -> String? {
        { command, words in
            guard let word = words.last else { return nil }
            guard let value = Value(argument: word) else { return word }
            store(&command, value)
            return nil
        }
    }

    private static func lastValue<Value: ArgumentValue>(
        _ keyPath: WritableKeyPath<Command, Value>
    ) -> (inout Command, [String]) -> String? {
        lastValue { (command: inout Command, value: Value) in command[keyPath: keyPath] = value }
    }

    private static func lastValue<Value: ArgumentValue>(
        _ keyPath: WritableKeyPath<Command, Value?>
    ) -> (inout Command, [String]) -> String? {
        lastValue { (command: inout Command, value: Value) in command[keyPath: keyPath] = value }
    }
}
