/// A step that rewrites a device's raw events before the contact tracker sees them: libmtdev
/// turning a protocol A device into protocol B slots (docs/input.md, "Devices"), as libinput does. It wraps a
/// C library, so it lives at the edge and the pipeline is handed a factory for it.
public protocol RawEventConverter: AnyObject {
    /// The device as it looks after conversion (slots instead of protocol A's anonymous contacts).
    var convertedDescription: DeviceDescription { get }
    /// Appends what `event` becomes after conversion to `output` (often nothing until a
    /// `SYN_REPORT`, then a whole frame).
    func convert(_ event: RawEvent, into output: inout [RawEvent])
}

/// Makes the converter for a protocol A device; it throws when the device cannot be converted.
public typealias RawEventConverterFactory = (DeviceDescription) throws -> any RawEventConverter
