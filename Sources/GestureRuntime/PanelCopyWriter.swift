import EvdevInput
import GestureCore
import Logging

/// The live virtual panel's sink (docs/routing.md, "The virtual panel"): writes the panel's
/// frames of each batch (``PipelineRecords/panel``) to the uinput copy, while there is one.
/// A copy that refuses a write is dropped (the kernel removed it, or it is broken): the error
/// is logged once, and the runner makes a new one the next time the panel opens.
///
/// The runner sets ``copy`` as the panel comes and goes; with ``PanelCopyMode/passThrough`` it
/// writes what it reads through ``write(_:)`` instead, and the records are not written.
final class PanelCopyWriter: RecordSink {
    /// The copy while there is one.
    var copy: (any PanelCopyOutput)?
    /// Write the records' panel frames (``PanelCopyMode/routed``).
    let writesRecords: Bool
    private let logger: Logger

    init(mode: PanelCopyMode, logger: Logger) {
        writesRecords = mode == .routed
        self.logger = logger
    }

    func consume(_ records: PipelineRecords) {
        guard writesRecords, copy != nil, !records.panel.isEmpty else { return }
        records.panel.withUnsafeBufferPointer { write($0) }
    }

    /// Writes complete frames to the copy, if there is one.
    func write(_ events: UnsafeBufferPointer<RawEvent>) {
        guard let copy else { return }
        do {
            try copy.write(events)
        } catch {
            logger.error("the virtual panel refused forwarded touches; it is dropped until the panel opens again",
                         metadata: ["error": "\(error)", "copy": "\(copy.path)"])
            self.copy = nil
        }
    }
}
