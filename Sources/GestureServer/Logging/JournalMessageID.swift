/// The `MESSAGE_ID`s of gestured's main log messages, so that `journalctl MESSAGE_ID=…` finds
/// every panel change or refused configuration whatever the wording around it
/// (systemd.journal-fields(7)). The one place they are defined: each is a 128-bit id made
/// once (`uuid4().hex`) and never changed; the message text is the one logged (a test checks
/// that each still occurs in the sources, so a reworded message cannot lose its id silently).
/// docs/service.md, "Logs", lists them.
public enum JournalMessageID {
    /// One catalogued message: who logs it (the logger's label), its constant text, its id.
    public struct Entry: Sendable, Equatable {
        public let label: String
        public let message: String
        public let id: String
    }

    public static let entries: [Entry] = [
        Entry(label: "gestured", message: "serving", id: "5b3fd5ae0bdc4e80aa184cfdfbf051f8"),
        Entry(label: "gestured", message: "stopping", id: "0c605d8e8b814e1ca6a1d2549848df72"),
        Entry(label: "gestured", message: "not started: the configuration has errors",
              id: "9c6c6a3a68404afc9be1758d19dc90c9"),
        Entry(label: "gestured", message: "reading the touchscreen", id: "680ac162b18c49bf98eb72fdda37962f"),
        Entry(label: "gestured", message: "waiting for the touchscreen to appear", id: "96b1b0dd47154b0fba48b6c472c35ef0"),
        Entry(label: "gestured", message: "the touchscreen is gone; its touches were cancelled",
              id: "4bf4148ed6ce473fbe284d4812797435"),
        Entry(label: "gestured", message: "cannot use the touchscreen yet; waiting for the next device change",
              id: "ce68694578244d0b9e91c27562ecc2fe"),
        Entry(label: "gestured", message: "configuration reloaded", id: "3af1d9ab5121442b9175b1801daaa00a"),
        Entry(label: "gestured", message: "the new configuration is invalid; the running one is kept",
              id: "8f9a8ba35bc24f2cb37ee0ea68089ee5"),
        Entry(label: "gestured", message: "a configuration change takes effect only after a restart",
              id: "c112b20e1e264a0e9eeda75d4925340c"),
        Entry(label: "gestured", message: "client connected", id: "483d016561f842088f7b82bd5aa90c99"),
        Entry(label: "gestured", message: "client disconnected", id: "242251792e1d477dadd3946d675e69fd"),
        Entry(label: "gestured", message: "dropping a client that does not read its events fast enough",
              id: "4c4bed1755c346bf85bee0ac1ddc567f"),
        Entry(label: "gestured", message: "refusing clients: as many are connected as the limit allows",
              id: "976678188f144e39aed300d53415a13f"),
        Entry(label: "gestured", message: "virtual panel created", id: "7a15e8e85768480fa2d2f4b929c4692e"),
        Entry(label: "gestured", message: "virtual panel removed", id: "72477b3c2ff5497c8dd4a90f98ed2ce1"),
        Entry(label: "gestured-web", message: "serving", id: "42ca18ba583e4ec4a280be038395336d"),
        Entry(label: "gestured-web", message: "browser connected", id: "507a1b72ac7d4a6eb8b5e2cb7efa6d64"),
        Entry(label: "gestured-web", message: "browser left", id: "67089c728a5a47f79b0d374e878638d2"),
    ]

    /// The id of `message` logged by `label`, if it is catalogued.
    public static func id(label: String, message: String) -> String? {
        entries.first { $0.label == label && $0.message == message }?.id
    }
}
