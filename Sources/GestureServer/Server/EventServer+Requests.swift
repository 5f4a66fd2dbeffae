#if canImport(Glibc)
import Glibc
#endif
import GestureConfig
import GestureCore

/// Requests: a line becomes a ``Request`` (``Request/parse(_:)``), the request an answer
/// (``Reply``), through the owner for what reaches into the engine. The owner's results come
/// back as values; the server then publishes the events they carry and queues the reply.
extension EventServer {
    /// What reading one line gave: a request and its id, or the error to answer; for a
    /// `layout.set` read on the worker thread for a client allowed to control, also its
    /// layout decoded, validated, compiled and its recognizers made there, for the basis the
    /// engine had when the line was handed over (for 10,000 views that is all the work but
    /// installing it), and its JSON let go of there.
    struct ParsedLine: Sendable {
        var request: Result<ParsedRequest, ProtocolError>
        var layout: Result<(spec: ViewSpec, prepared: PreparedLayout), ConfigurationError>?

        /// Reads `line`; with the screens' bases (each screen's id and basis), decodes, compiles
        /// and prepares the layout of a `layout.set` too, for the screen it names (or the only
        /// one; one naming no screen of these is left to be answered on the loop).
        init(_ line: some Collection<UInt8>, preparingFor bases: [(id: String, basis: PreparedLayout.Basis)]? = nil) {
            request = Result { () throws(ProtocolError) in try Request.read(line) }
            guard let bases, case .success(let read) = request, case .layoutSet(let value) = read.request else { return }
            let target = read.screen.map { name in bases.first { $0.id == name } } ?? (bases.count == 1 ? bases.first : nil)
            guard let basis = target?.basis else { return }
            layout = Result { () throws(ConfigurationError) in
                let spec = try ConfigurationLoader.decodeLayout(value, file: "layout.set")
                return (spec, PreparedLayout(tree: ViewTree(validated: spec), basis: basis))
            }
            request = .success(ParsedRequest(id: read.id, request: .layoutSet(.null), screen: read.screen))
        }
    }

    /// Reads `line` (here, on the loop: a short line) and answers it.
    func handleLine(_ line: ArraySlice<UInt8>, from client: ClientSession) {
        handle(ParsedLine(line), from: client)
    }

    /// Answers a line already read (on the loop, or on the worker thread for a long one). A
    /// `view.update` or `reload` is answered once the worker thread has made its layout
    /// (``answerOffLoop(_:id:from:)``); the client's later lines wait for it.
    func handle(_ parsed: ParsedLine, from client: ClientSession, counted: Bool = false) {
        if !counted { counters.requests += 1 }
        var published = EncodedEvents()
        let reply: Reply
        do throws(ProtocolError) {
            let read = try parsed.request.get()
            let (id, request) = (read.id, read.request)
            if request.needsControl, !(client.peer.map { policy.allows($0) } ?? false) {
                throw ProtocolError(.forbidden, forbiddenMessage(client), requestID: id)
            }
            let screen = try screenIndex(of: read)
            if prepareAgainIfStale(parsed, screen: screen, from: client)
                || answerOffLoop(request, id: id, screen: screen, from: client) { return }
            reply = .ok(id, try answer(request, id: id, screen: screen, from: client, layout: parsed.layout,
                                       publishing: &published))
        } catch {
            reply = refused(error, client.serial)
        }
        respond(reply, publishing: &published, to: client)
    }

    /// The index of the screen a request acts on (0 for a request that acts on none): the one
    /// it names, or the only one. With several screens a request that names none is refused,
    /// never sent to the first (docs/decisions.md, "Control requests name their screen"), as
    /// is one that names a screen the daemon does not have; both replies list the screens.
    private func screenIndex(of read: ParsedRequest) throws(ProtocolError) -> Int {
        guard read.request.type.takesScreen else { return 0 }
        let ids = try requireOwner(read.id).screenIDs
        if let name = read.screen {
            if let index = ids.firstIndex(of: name) { return index }
            throw ProtocolError(.unknownScreen, "gestured has no screen \(Request.quote(name)); its screens are \(Request.list(ids))",
                                requestID: read.id)
        }
        guard ids.count == 1 else {
            throw ProtocolError(.unknownScreen, "gestured has \(ids.count) screens (\(Request.list(ids))); name the one this "
                + "\(read.request.type.rawValue) is for with \"screen\", such as \"screen\":\"\(ids[0])\"", requestID: read.id)
        }
        return 0
    }

    private func refused(_ error: ProtocolError, _ serial: Int) -> Reply {
        counters.errorReplies += 1
        logger.debug("request refused", metadata: ["client": "\(serial)", "code": "\(error.code.rawValue)",
                                                   "message": "\(error.message)"])
        return .error(error)
    }

    /// Publishes what a request made, then queues its reply.
    private func respond(_ reply: Reply, publishing published: inout EncodedEvents, to client: ClientSession) {
        // What the request let go of (the layout it replaced) is freed off the loop.
        release(&published.released)
        // The events a request made go out before its reply, as they would had they come from
        // the input: a subscriber sees the `layout` event of its own layout.set first.
        var notices = publish(published)
        notices += send(reply, to: client)
        if let pending = pendingSuperseded {
            pendingSuperseded = nil
            if let earlier = clients[pending.serial] { notices += send(pending.notice, to: earlier) }
        }
        announce(notices)
        // After the reply, so a replay that a subscription starts sends its first event after
        // the client learnt it is subscribed.
        subscriptionsChanged()
    }

    /// Re-reads the configuration through the owner (SIGHUP, or a `reload` request), publishes
    /// what it changed and applies who may control, then calls `finished` with the result
    /// (`nil` without an owner: stopping). Reading, validating and compiling the file and
    /// preparing its layout run on the worker thread (``EventServerOwner/reloadWork()``); what
    /// was made for a layout or a basis replaced meanwhile is made again.
    public func reload(origin: String, finished: @escaping (Result<ReloadReport, ConfigurationError>?) -> Void = { _ in }) {
        guard let owner else { return finished(nil) }
        let started = runOffLoop(owner.reloadWork()) { [unowned self] (prepared: ReloadPreparation) in
            guard let owner = self.owner else { return finished(nil) }
            let screens = owner.screenIDs.indices
            guard prepared.revisions == screens.map({ owner.layoutRevision(screen: $0) }),
                  prepared.bases == screens.map({ owner.layoutBasis(screen: $0) }) else {
                return self.reload(origin: origin, finished: finished)
            }
            finished(self.completeReload(origin: origin, prepared: prepared))
        }
        if !started { finished(completeReload(origin: origin, prepared: nil)) }
    }

    private func completeReload(origin: String, prepared: ReloadPreparation?) -> Result<ReloadReport, ConfigurationError>? {
        guard let owner else { return nil }
        var outcome = owner.reload(origin: origin, prepared: prepared)
        if case .success(let report) = outcome.result {
            policy = ControlPolicy(socket: report.socket)
            // The configuration's layout replaced the one a client set: nobody's to supersede now.
            for screen in report.changedScreens { layoutSetters[screen] = nil }
        }
        release(&outcome.events.released)
        announce(publish(outcome.events))
        return outcome.result
    }

    /// A `layout.set` whose layout was prepared for a basis that changed before it came back
    /// (a `screen.set`, a device with another resolution) is prepared again on the worker
    /// thread, and then answered: installing it as it is would make its recognizers again on
    /// the loop. False when its layout is current, or no thread can be had (the engine makes
    /// it again then, with the same result).
    private func prepareAgainIfStale(_ parsed: ParsedLine, screen: Int, from client: ClientSession) -> Bool {
        guard let basis = owner?.layoutBasis(screen: screen), case .success(let made)? = parsed.layout,
              made.prepared.basis != basis else {
            return false
        }
        let serial = client.serial
        let tree = made.prepared.tree
        let started = runOffLoop({ () -> ParsedLine in
            var again = parsed
            again.layout = .success((made.spec, PreparedLayout(tree: tree, basis: basis)))
            return again
        }) { [unowned self] (again: ParsedLine) in
            guard let client = clients[serial], !client.isClosing else { return }
            client.parsing = false
            handle(again, from: client, counted: true)
            if !client.parsing { resumeAfterWork(serial) }
        }
        guard started else { return false }
        pauseForWork(client)
        return true
    }

    /// Sends a `view.update` or a `reload` to the worker thread, to be answered when it is
    /// back; false for the other requests, and when no thread can be had (they are answered
    /// here then).
    private func answerOffLoop(_ request: Request, id: RequestID?, screen: Int, from client: ClientSession) -> Bool {
        guard owner != nil else { return false }
        let serial = client.serial
        switch request {
        case .viewUpdate(let view, let changes):
            guard updateOffLoop(view, changes, screen: screen, id: id, peer: client.peerDescription, serial: serial) else {
                return false
            }
            pauseForWork(client)
        case .reload:
            pauseForWork(client)
            reload(origin: "reload request of \(client.peerDescription)") { [unowned self] result in
                let reply: Reply
                switch result {
                case .none:
                    reply = refused(ProtocolError(.badRequest, "gestured is stopping; try again when it is back", requestID: id), serial)
                case .success(let report)?:
                    reply = .ok(id, .reloaded(report))
                case .failure(let error)?:
                    reply = refused(ProtocolError(.invalidConfig,
                                                  "the configuration has \(Self.count(error.problems.count, "problem")); the running one is kept. "
                                                      + error.problems.map(\.description).joined(separator: "; "),
                                                  requestID: id, problems: error.layoutProblems.map { ($0.path, $0.message) }), serial)
                }
                var published = EncodedEvents()
                finishOffLoop(reply, publishing: &published, serial: serial)
            }
        case .screenSet(let rotation, let width, let height):
            guard screenOffLoop(rotation, width, height, screen: screen, id: id, peer: client.peerDescription, serial: serial) else {
                return false
            }
            pauseForWork(client)
        case .subscribe, .unsubscribe, .layoutSet, .hitTest, .status:
            return false
        }
        return true
    }

    /// Makes the layout in force again for the screen a `screen.set` asks for on the worker
    /// thread, and sets the screen with it when it is back; made again if another layout or
    /// basis came in meanwhile. False when the recognizers would not change (answered at
    /// once) or no thread can be had.
    private func screenOffLoop(_ rotation: ScreenRotation, _ width: Double?, _ height: Double?, screen: Int, id: RequestID?,
                               peer: String, serial: Int) -> Bool {
        guard let running = owner,
              let work = running.screenWork(screen: screen, rotation: rotation, width: width, height: height) else {
            return false
        }
        let revision = running.layoutRevision(screen: screen), basis = running.layoutBasis(screen: screen)
        return runOffLoop(work) { [unowned self] (prepared: PreparedLayout) in
            let current = self.owner.map {
                revision == $0.layoutRevision(screen: screen) && basis == $0.layoutBasis(screen: screen)
            } ?? false
            if !current, self.owner != nil,
               screenOffLoop(rotation, width, height, screen: screen, id: id, peer: peer, serial: serial) { return }
            var published = EncodedEvents()
            let reply: Reply
            if let owner = self.owner {
                let set = owner.setScreen(screen: screen, rotation: rotation, width: width, height: height,
                                          reason: "screen.set by \(peer)", prepared: current ? prepared : nil)
                published = set.events
                reply = .ok(id, .screen(set.screen))
            } else {
                reply = refused(ProtocolError(.badRequest, "gestured is stopping; try again when it is back", requestID: id), serial)
            }
            finishOffLoop(reply, publishing: &published, serial: serial)
        }
    }

    /// Makes the layout a `view.update` asks for on the worker thread, from the layout in
    /// force now, and applies it when it is back; made again if another layout or basis came
    /// in meanwhile (as it would have been, answered at once). False when no thread can be had.
    private func updateOffLoop(_ view: String, _ changes: JSONValue, screen: Int, id: RequestID?, peer: String,
                               serial: Int) -> Bool {
        guard let running = owner else { return false }
        let layout = running.currentLayout(screen: screen), revision = running.layoutRevision(screen: screen)
        let basis = running.layoutBasis(screen: screen)
        return runOffLoop({ ViewUpdate(view, changes, in: layout, revision: revision, basis: basis) }) {
            [unowned self] (update: ViewUpdate) in
            let current = self.owner.map {
                update.revision == $0.layoutRevision(screen: screen) && update.basis == $0.layoutBasis(screen: screen)
            } ?? false
            if !current, self.owner != nil, updateOffLoop(view, changes, screen: screen, id: id, peer: peer, serial: serial) {
                return
            }
            var published = EncodedEvents()
            let reply: Reply
            do throws(ProtocolError) {
                reply = .ok(id, try applyViewUpdate(view, changes, screen: screen, id: id, peer: peer,
                                                    made: current ? update : nil, publishing: &published))
            } catch {
                reply = refused(error, serial)
            }
            finishOffLoop(reply, publishing: &published, serial: serial)
        }
    }

    /// Answers the client of `serial`, if it is still there, with what a request answered off
    /// the loop published (published all the same if it is gone), then reads its next lines.
    private func finishOffLoop(_ reply: Reply, publishing published: inout EncodedEvents, serial: Int) {
        if let client = clients[serial], !client.isClosing {
            respond(reply, publishing: &published, to: client)
        } else {
            release(&published.released)
            announce(publish(published))
        }
        resumeAfterWork(serial)
    }

    /// Applies a `view.update` with the layout `made` on the worker thread for the layout in
    /// force (`nil`: made here, from it).
    private func applyViewUpdate(_ view: String, _ changes: JSONValue, screen: Int, id: RequestID?, peer: String,
                                 made: ViewUpdate?, publishing published: inout EncodedEvents) throws(ProtocolError) -> Reply.Answer {
        let owner = try requireOwner(id)
        let result: (spec: ViewSpec, prepared: PreparedLayout?)?
        do throws(ConfigurationError) {
            if let made {
                result = try made.result.get().map { ($0.spec, $0.prepared) }
            } else {
                result = try ConfigurationLoader.updateView(view, with: changes, in: owner.currentLayout(screen: screen),
                                                            file: "view.update")
                    .map { ($0, nil) }
            }
        } catch {
            throw Self.invalidLayout(error, id: id)
        }
        guard let updated = result else {
            throw ProtocolError(.unknownView, "the layout has no view \(Request.quote(view)); send the id of one of its views",
                                requestID: id)
        }
        let replaced = owner.replaceLayout(screen: screen, updated.spec, prepared: updated.prepared,
                                           reason: "view.update of \(view) by \(peer)")
        published = replaced.events
        return .revision(replaced.revision)
    }

    /// A `view.update` made on the worker thread: the layout with the view changed, compiled
    /// and its recognizers made, from the layout of `revision`, for `basis`.
    struct ViewUpdate: Sendable {
        var revision: Int
        var basis: PreparedLayout.Basis
        /// `nil`: the layout has no such view.
        var result: Result<(spec: ViewSpec, prepared: PreparedLayout)?, ConfigurationError>

        init(_ view: String, _ changes: JSONValue, in layout: ViewSpec, revision: Int, basis: PreparedLayout.Basis) {
            self.revision = revision
            self.basis = basis
            result = Result { () throws(ConfigurationError) -> (spec: ViewSpec, prepared: PreparedLayout)? in
                guard let updated = try ConfigurationLoader.updateView(view, with: changes, in: layout, file: "view.update") else {
                    return nil
                }
                return (updated, PreparedLayout(tree: ViewTree(validated: updated), basis: basis))
            }
        }
    }

    private func forbiddenMessage(_ client: ClientSession) -> String {
        let who = client.peer.map { "uid \($0.uid), gid \($0.gid)" } ?? "an unknown peer"
        return "this connection (\(who)) may not change the layout or the screen; run the client as root, as a user in "
            + "socket.controlUsers or as a member of socket.controlGroup in gestured's configuration"
    }

    private func answer(_ request: Request, id: RequestID?, screen: Int, from client: ClientSession,
                        layout decoded: Result<(spec: ViewSpec, prepared: PreparedLayout), ConfigurationError>?,
                        publishing published: inout EncodedEvents) throws(ProtocolError) -> Reply.Answer {
        switch request {
        case .subscribe(let subscription):
            setState(client, .subscribed(FilterCache(subscription)))
            logger.debug("client subscribed", metadata: ["client": "\(client.serial)"])
            return .subscribed(subscription, trace: subscription.trace || options.traceAll)
        case .unsubscribe:
            setState(client, .connected)
            return .done
        case .layoutSet(let value):
            let owner = try requireOwner(id)
            let layout: (spec: ViewSpec, prepared: PreparedLayout?)
            do throws(ConfigurationError) {
                if let decoded { layout = try decoded.get() } else {
                    layout = (try ConfigurationLoader.decodeLayout(value, file: "layout.set"), nil)
                }
            } catch {
                throw Self.invalidLayout(error, id: id)
            }
            let replaced = owner.replaceLayout(screen: screen, layout.spec, prepared: layout.prepared,
                                               reason: Self.layoutSetReason + client.peerDescription)
            published = replaced.events
            supersede(by: client, screen: screen, replaced)
            return .revision(replaced.revision)
        case .viewUpdate(let view, let changes):
            return try applyViewUpdate(view, changes, screen: screen, id: id, peer: client.peerDescription, made: nil,
                                       publishing: &published)
        case .screenSet(let rotation, let width, let height):
            let owner = try requireOwner(id)
            let set = owner.setScreen(screen: screen, rotation: rotation, width: width, height: height,
                                      reason: "screen.set by \(client.peerDescription)", prepared: nil)
            published = set.events
            return .screen(set.screen)
        case .hitTest(let x, let y):
            let owner = try requireOwner(id)
            return .hitTest(x: x, y: y, owner.hitTest(screen: screen, Point(x: x, y: y)))
        case .status:
            return .status(ServerStatus(version: options.version, startID: options.startID, pid: Int(getpid()), input: owner?.inputStatus(),
                                        socket: socketPath, connected: clients.count, subscribed: subscriberCount,
                                        counters: counters))
        case .reload:
            // Answered off the loop (``answerOffLoop(_:id:from:)``) while there is an owner.
            throw ProtocolError(.badRequest, "gestured is stopping; try again when it is back", requestID: id)
        }
    }

    /// How the reason of a layout replaced by `layout.set` begins (the peer follows): the
    /// owner tells such a replacement from a `view.update` or a reload by it.
    public static let layoutSetReason = "layout.set by "

    /// Remembers `client` as the setter of the layout in force; the earlier setter, if it is
    /// another client still connected, is to be told `superseded` (``respond(_:publishing:to:)``
    /// sends it after the reply).
    private func supersede(by client: ClientSession, screen: Int, _ replaced: LayoutReplacement) {
        defer { layoutSetters[screen] = client.serial }
        guard let earlier = layoutSetters[screen], earlier != client.serial, let previous = clients[earlier],
              !previous.isClosing else {
            return
        }
        let by = client.peer.map { peer in peer.programName.map { "\($0) \(peer)" } ?? peer.description } ?? "an unknown peer"
        let (seq, time) = Self.sequenceAndTime(of: replaced.events)
        pendingSuperseded = (earlier, .superseded(
            seq: seq, time: time, by: by, revision: replaced.revision,
            message: "another client (\(by)) replaced the layout this connection set; its views no longer receive touches "
                + "until this connection sends layout.set again"))
        logger.info("a client's layout was superseded", metadata: [
            "client": "\(earlier)", "by": "\(client.serial)", "peer": "\(by)", "revision": "\(replaced.revision)"])
    }

    /// The `seq` and `time` of the last event of `events` (the `layout` event of a replacement,
    /// which the encoder begins with `{"type":…,"seq":N,"time":T`); 0 for one it cannot read.
    static func sequenceAndTime(of events: EncodedEvents) -> (seq: Int64, time: Int64) {
        guard let last = events.events.last else { return (0, 0) }
        let line = events.bytes[last.range]
        func integer(after key: String) -> Int64 {
            guard let found = line.firstRange(of: Array(key.utf8)) else { return 0 }
            var value: Int64 = 0
            var negative = false
            for byte in line[found.upperBound...].prefix(20) {
                if byte == UInt8(ascii: "-"), value == 0 { negative = true; continue }
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { break }
                value = value &* 10 &+ Int64(byte - UInt8(ascii: "0"))
            }
            return negative ? -value : value
        }
        return (integer(after: "\"seq\":"), integer(after: "\"time\":"))
    }

    private func requireOwner(_ id: RequestID?) throws(ProtocolError) -> EventServerOwner {
        guard let owner else {
            throw ProtocolError(.badRequest, "gestured is stopping; try again when it is back", requestID: id)
        }
        return owner
    }

    private static func invalidLayout(_ error: ConfigurationError, id: RequestID?) -> ProtocolError {
        let problems = error.layoutProblems
        return ProtocolError(.invalidLayout,
                             "the layout has \(count(problems.count, "problem")) and was not applied: "
                                 + problems.map(\.description).joined(separator: "; "),
                             requestID: id, problems: problems.map { ($0.path, $0.message) })
    }

    private static func count(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
}
