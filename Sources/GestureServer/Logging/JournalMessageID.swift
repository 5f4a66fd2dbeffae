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

    public static let entries: [Entry] =
        catalogue(label: "gestured", [
            "5b3fd5ae0bdc4e80aa184cfdfbf051f8": "serving",
            "0c605d8e8b814e1ca6a1d2549848df72": "stopping",
            "9c6c6a3a68404afc9be1758d19dc90c9": "not started: the configuration has errors",
            "680ac162b18c49bf98eb72fdda37962f": "reading the touchscreen",
            "96b1b0dd47154b0fba48b6c472c35ef0": "waiting for the touchscreen to appear",
            "4bf4148ed6ce473fbe284d4812797435": "the touchscreen is gone; its touches were cancelled",
            "ce68694578244d0b9e91c27562ecc2fe": "cannot use the touchscreen yet; waiting for the next device change",
            "3af1d9ab5121442b9175b1801daaa00a": "configuration reloaded",
            "8f9a8ba35bc24f2cb37ee0ea68089ee5": "the new configuration is invalid; the running one is kept",
            "c112b20e1e264a0e9eeda75d4925340c": "a configuration change takes effect only after a restart",
            "483d016561f842088f7b82bd5aa90c99": "client connected",
            "242251792e1d477dadd3946d675e69fd": "client disconnected",
            "4c4bed1755c346bf85bee0ac1ddc567f": "dropping a client that does not read its events fast enough",
            "976678188f144e39aed300d53415a13f": "refusing clients: as many are connected as the limit allows",
            "7a15e8e85768480fa2d2f4b929c4692e": "virtual panel created",
            "72477b3c2ff5497c8dd4a90f98ed2ce1": "virtual panel removed",
        ]) +
        catalogue(label: "gestured-web", [
            "42ca18ba583e4ec4a280be038395336d": "serving",
            "507a1b72ac7d4a6eb8b5e2cb7efa6d64": "browser connected",
            "67089c728a5a47f79b0d374e878638d2": "browser left",
        ])

    /// The entries of one logger, each id with its message, in the order they are listed.
    private static func catalogue(label: String, _ messages: KeyValuePairs<String, String>) -> [Entry] {
        messages.map { Entry(label: label, message: $0.value, id: $0.key) }
    }

    /// The id of `message` logged by `label`, if it is catalogued.
    public static func id(label: String, message: String) -> String? {
        entries.first { $0.label == label && $0.message == message }?.id
    }
}
