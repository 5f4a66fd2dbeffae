import GestureCore
import Recordings

/// `gestured replay --panel`'s sink: the virtual panel's frames of each batch
/// (``PipelineRecords/panel``) as evemu event lines (``EvemuWriter``), what the desktop would
/// receive through the copy (docs/routing.md, "Dry run"). The lines are kept in one buffer,
/// reused, and handed to `write` in chunks of about 64 KiB and at ``flush()``; the file's
/// description is written before the first (``EvemuWriter/descriptionText(_:)``).
public final class EvemuPanelSink: RecordSink {
    /// Bytes of text kept back before they are handed on: one write per chunk, not per frame.
    public let chunkBytes: Int
    private let write: ([UInt8]) -> Void
    private var text: [UInt8] = []

    /// - Parameter chunkBytes: at least this much text goes to `write` at once, except at ``flush()``.
    public init(chunkBytes: Int = 1 << 16, write: @escaping ([UInt8]) -> Void) {
        self.chunkBytes = max(1, chunkBytes)
        self.write = write
    }

    public func consume(_ records: PipelineRecords) {
        guard !records.panel.isEmpty else { return }
        EvemuWriter.appendEventLines(records.panel, to: &text)
        if text.count >= chunkBytes { flush() }
    }

    public func flush() {
        guard !text.isEmpty else { return }
        write(text)
        text.removeAll(keepingCapacity: true)
    }
}
