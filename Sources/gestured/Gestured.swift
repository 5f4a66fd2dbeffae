import ArgumentParser

/// The `gestured` command: argument parsing and wiring only.
@main
struct Gestured: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gestured",
        abstract: "Gesture-recognizer arbitration daemon for Linux touch kiosks.",
        discussion: """
            gestured hit-tests every touch into a configured view tree as UIKit does, lets the \
            gesture recognizers of the view and its ancestors compete, and publishes touch \
            deliveries, gestures and control events as JSON Lines.
            """,
        version: GesturedVersion.string,
        subcommands: [Run.self, Replay.self, Record.self, Devices.self, Tail.self, HitTest.self, CheckConfig.self]
    )
}

/// The version printed by `--version` and in the socket's `hello`.
enum GesturedVersion {
    static let string = "0.1.0"
}
