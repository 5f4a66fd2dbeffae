import EvdevInput
import GestureCore

/// The input stage shared by replay and live devices, so the two cannot drift apart: raw
/// events → (libmtdev for protocol A devices) → ``ContactTracker`` → touch frames in screen
/// points.
public struct InputChain {
    /// The device as the tracker sees it (after protocol A conversion).
    public let description: DeviceDescription
    public let classification: DeviceClassification
    private var tracker: ContactTracker
    private var converter: ProtocolAConverter?
    private var converted: [RawEvent] = []

    /// - Parameters:
    ///   - description: what the device declares (axis ranges, codes, properties).
    ///   - screen: the screen and the panel's rotation and calibration (SPEC 2).
    ///   - axes: axis ranges from the configuration, winning over the device's.
    public init(description: DeviceDescription, screen: ScreenGeometry, axes: AxisOverrides = .none)
        throws(InputChainError) {
        classification = DeviceClassification(description)
        var source = description
        if case .protocolA = classification.contactProtocol {
            do {
                converter = try ProtocolAConverter(description: description)
            } catch {
                throw .converter(error.description)
            }
            source = converter!.convertedDescription
        } else {
            converter = nil
        }
        self.description = source
        do {
            tracker = ContactTracker(description: source,
                                     mapping: try DeviceMapping(description: source, screen: screen, overrides: axes))
        } catch {
            throw .mapping(error.description)
        }
    }

    /// Feeds one raw event; returns the touch frame it completes, if any. One raw event
    /// completes at most one frame: mtdev turns each `SYN_REPORT` it is given into exactly one.
    public mutating func feed(_ event: RawEvent) -> TouchFrame? {
        guard let converter else { return tracker.process(event) }
        converted.removeAll(keepingCapacity: true)
        converter.convert(event, into: &converted)
        var completed: TouchFrame?
        for event in converted {
            if let frame = tracker.process(event) { completed = frame }
        }
        return completed
    }

    /// After `SYN_DROPPED` on a live device: the tracker reconciles with the device's true
    /// state (lost touches cancelled, surviving ones continue). Without a snapshot (a protocol
    /// A device has no slots to read back) every contact is cancelled and mtdev starts over,
    /// so the next frame's contacts begin afresh.
    public mutating func resynchronise(with snapshot: DeviceSnapshot?, at time: Timestamp) -> TouchFrame? {
        if let snapshot, converter == nil {
            return tracker.reconcile(with: snapshot, at: time)
        }
        if let converter {
            // mtdev's contact state is as stale as the tracker's; a fresh converter forgets it.
            self.converter = (try? ProtocolAConverter(description: converter.originalDescription)) ?? converter
        }
        return tracker.finish(at: time)
    }

    /// The end of the input: every contact still down is cancelled.
    public mutating func finish(at time: Timestamp) -> TouchFrame? {
        tracker.finish(at: time)
    }

    /// Input anomalies seen since the last call ("kernel bug:"-style sentences).
    public mutating func takeAnomalies() -> [InputAnomaly] {
        tracker.takeAnomalies()
    }
}

/// Why an input chain could not be set up for a device.
public enum InputChainError: Error, Hashable, Sendable, CustomStringConvertible {
    case converter(String)
    case mapping(String)

    public var description: String {
        switch self {
        case .converter(let message), .mapping(let message): message
        }
    }
}
