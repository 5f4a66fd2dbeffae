/// A consumer of the pipeline's records (``PipelineRecords``): the JSON Lines encoder
/// (``JSONLinesSink``), the virtual panel's writers, a test's ``RecordCollector``. A driver
/// composes the sinks it needs and hands each of them every batch, in order, before it empties
/// the batch; a new output (an MQTT bridge, a metrics exporter) is a new sink, and neither the
/// pipeline nor the engine changes for it.
///
/// A sink reads a batch in place and keeps what it needs: the batch is emptied, and its
/// storage reused, as soon as every sink has seen it.
public protocol RecordSink {
    /// Takes in one batch of records, in order after the batches before it.
    mutating func consume(_ records: PipelineRecords)
    /// Hands on what the sink keeps back (a buffer of text for a file): the driver calls it
    /// where its output must be out — the end of a replay, each step of a paced one.
    mutating func flush()
}

extension RecordSink {
    /// Nothing kept back.
    public mutating func flush() {}
}
