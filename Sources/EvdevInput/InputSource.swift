import GestureCore
import SystemPackage

/// A live source of raw events that the input loop reads whenever its descriptor is readable:
/// an ``EvdevDevice``, or a stand-in in tests.
public protocol InputSource: AnyObject {
    /// The device node it reads (for messages).
    var path: String { get }
    /// The descriptor to wait on for readability.
    var fileDescriptor: FileDescriptor { get }
    /// What the device declares.
    var description: DeviceDescription { get }
    /// Its entry in udev's database, which classifies it (docs/input.md); nil without one.
    var udevProperties: [String: String]? { get }
    /// Its physical path, which the virtual panel's is made from (``PanelCopy/phys(of:)``);
    /// nil when it has none.
    var phys: String? { get }
    /// True while gestured holds it exclusively (`EVIOCGRAB`): only then is a copy made.
    var isGrabbed: Bool { get }
    /// Appends the events readable now; returns whether the source is drained, gone, or
    /// resynchronised after the events appended.
    func readAvailable(into output: inout [RawEvent]) throws(EvdevError) -> ReadEnd
}

/// Finds and opens the configured device, and tells the input loop when devices may have come
/// or gone, so it looks again without polling.
public protocol InputSourceProvider: AnyObject {
    /// What is looked for, for messages ("auto (the first touchscreen)").
    var selectorDescription: String { get }
    /// Opens the device, or returns nil when it is not there (yet).
    func open() throws(EvdevError) -> (any InputSource)?
    /// Becomes readable when devices may have appeared or disappeared.
    var changeDescriptor: FileDescriptor { get }
    /// Consumes the pending change notifications; true when any could concern the device.
    func takeChanges() throws(EvdevError) -> Bool
    /// After ``open()`` found nothing: the devices it passed over that could be the one, each
    /// with why and how to select it (`auto` and a tablet); empty when there is nothing to say.
    var passedOver: [String] { get }
}

extension InputSourceProvider {
    public var passedOver: [String] { [] }
}

extension InputSource {
    /// No udev database entry.
    public var udevProperties: [String: String]? { nil }
    /// No physical path.
    public var phys: String? { nil }
    /// Not grabbed.
    public var isGrabbed: Bool { false }
}
