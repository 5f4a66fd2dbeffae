import GestureCore

/// Fan-out: the owner's encoded events go to every subscriber whose filters they match, as
/// byte ranges of the one shared buffer, into bounded queues. A client whose queue would
/// overflow is dropped with `slow_consumer`; the input path never waits for a client.
extension EventServer {
    /// Publishes the batch `makeBatch` builds, `count` events, only if a client is there to
    /// receive it: a daemon with no client (a kiosk whose page has not connected yet, a
    /// benchmark) builds no per-event filter summaries.
    public func publish(count: Int, _ makeBatch: () -> EncodedEvents) -> [ServerNotice] {
        guard !clients.isEmpty else {
            counters.eventsPublished += count
            return []
        }
        return publish(makeBatch())
    }

    /// Queues each event of `batch`, in order, for every subscriber whose filters it matches;
    /// at the end of the loop's turn, writes what the sockets take (the rest waits for
    /// `.writable`). Returns the
    /// clients dropped on the way, which the owner announces in its stream (``EventServerOwner/announce(_:)``)
    /// and publishes in turn.
    public func publish(_ batch: EncodedEvents) -> [ServerNotice] {
        counters.eventsPublished += batch.events.count
        guard !clients.isEmpty else { return [] }
        var notices: [ServerNotice] = []
        for event in batch.events {
            for client in clients.values {
                guard case .subscribed(let filter) = client.state,
                      filter.matches(event.summary, traceAll: options.traceAll) else { continue }
                let wasEmpty = client.output.isEmpty
                guard client.output.append(batch.bytes, event.range) else {
                    notices.append(dropSlowConsumer(client))
                    continue
                }
                queuedBytes += event.range.count
                if wasEmpty {
                    client.lastProgress = clock.now
                    clientsToFlush.append(client)
                }
            }
        }
        scheduleFlush()
        return ServerNotice.coalesced(notices + enforceOutputBudget())
    }

    /// Writes the queues that batches filled, once per turn of the loop after its handlers:
    /// a replay that publishes several batches in a turn, to hundreds of subscribers, made
    /// one write per batch and subscriber (thousands of send(2) in one turn).
    func flushPublished() {
        flushScheduled = false
        swap(&clientsToFlush, &clientsFlushing)
        for client in clientsFlushing where clients[client.serial] === client { flush(client) }
        clientsFlushing.removeAll(keepingCapacity: true)
    }

    /// Over the budget of queued bytes over all clients: drops the clients with the longest
    /// queues as slow consumers until an eighth of the budget is free again. Each client's own
    /// limit makes those the clients that read least. The eighth: a crowd of subscribers that
    /// never read holds a few kilobytes each when the budget is reached, and dropping them one
    /// at a time made every batch (and every `warning` announcing a drop) drop a few more, up to
    /// hundreds in one turn of the loop.
    func enforceOutputBudget() -> [ServerNotice] {
        guard queuedBytes > options.outputBudget else { return [] }
        var notices: [ServerNotice] = []
        while queuedBytes > options.outputBudget - options.outputBudget / 8 {
            var longest: ClientSession?
            for client in clients.values where !client.isClosing
                && client.output.byteCount > (longest?.output.byteCount ?? 0) {
                longest = client
            }
            guard let longest else { break }
            notices.append(dropSlowConsumer(longest, overBudget: true))
        }
        return notices
    }

    /// Has the owner announce `notices` (clients the server's own work dropped) in its stream,
    /// and publishes that, until no more clients are dropped. Each round closes the clients it
    /// drops, so it ends.
    func announce(_ notices: [ServerNotice]) {
        var notices = ServerNotice.coalesced(notices)
        while !notices.isEmpty, let owner {
            var batch = owner.announce(notices)
            release(&batch.released)
            notices = publish(batch)
        }
    }

    /// Closes a client whose queue overflowed, after the rest of a line it was being sent and
    /// the `slow_consumer` error.
    func dropSlowConsumer(_ client: ClientSession, overBudget: Bool = false) -> ServerNotice {
        counters.slowConsumers += 1
        logger.warning("dropping a client that does not read its events fast enough", metadata: [
            "client": "\(client.serial)", "peer": "\(client.peerDescription)",
            "queued": "\(client.output.byteCount)",
            "limit": "\(overBudget ? options.outputBudget : options.queueLimit)\(overBudget ? " over all clients" : "")",
        ])
        let queued = client.output.byteCount
        client.output.dropUnstarted()
        queuedBytes -= queued - client.output.byteCount
        let message = overBudget
            ? "client bug: this connection did not read its events fast enough: more than \(options.outputBudget) bytes were "
                + "waiting for all clients together and its \(queued) were the most; read continuously (a thread or an event "
                + "loop of its own) and reconnect"
            : "client bug: this connection did not read its events fast enough and more than "
                + "\(options.queueLimit) bytes were waiting; read continuously (a thread or an event loop of its own) and reconnect"
        close(client, after: ReplyEncoder.encode(.error(ProtocolError(.slowConsumer, message))))
        return .droppedSlowConsumer(client: client.serial, peer: client.peerDescription)
    }

    // MARK: Back-pressure for replays

    /// Whether a replay in virtual time should wait for its readers: some subscriber has at
    /// least the low-water mark queued and took bytes within the last `stallMicroseconds`.
    /// A subscriber that took nothing for that long no longer holds the replay back, and is
    /// dropped when its queue overflows. `recheckAt` is when the answer changes by itself.
    public func holdsBack(stallMicroseconds: Int64) -> (held: Bool, recheckAt: Int64?) {
        let now = clock.now
        var recheck: Int64?
        for client in clients.values where client.subscription != nil && client.output.byteCount >= options.lowWater {
            let stallsAt = client.lastProgress + stallMicroseconds
            if stallsAt > now { recheck = min(recheck ?? stallsAt, stallsAt) }
        }
        return (recheck != nil, recheck)
    }
}
