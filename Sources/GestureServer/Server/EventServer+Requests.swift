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
        var request: Result<(id: RequestID?, request: Request), ProtocolError>
        var layout: Result<(spec: ViewSpec, prepared: PreparedLayout), ConfigurationError>?

        /// Reads `line`; with a basis, decodes, compiles and prepares the layout of a
        /// `layout.set` too.
        init(_ line: some Collection<UInt8>, preparingFor basis: PreparedLayout.Basis? = nil) {
            request = Result { () throws(ProtocolError) in try Request.parse(line) }
            guard let basis, case .success(let (id, .layoutSet(value))) = request else { return }
            layout = Result { () throws(ConfigurationError) in
                let spec = try ConfigurationLoader.decodeLayout(value, file: "layout.set")
                return (spec, PreparedLayout(tree: ViewTree(validated: spec), basis: basis))
            }
            request = .success((id, .layoutSet(.null)))
        }
    }

    /// Reads `line` (here, on the loop: a short line) and answers it.
    func handleLine(_ line: ArraySlice<UInt8>, from client: ClientSession) {
        handle(ParsedLine(line), from: client)
    }

    /// Answers a line already read (on the loop, or on the worker thread for a long one).
    func handle(_ parsed: ParsedLine, from client: ClientSession) {
        counters.requests += 1
        var published = EncodedEvents()
        let reply: Reply
        do throws(ProtocolError) {
            let (id, request) = try parsed.request.get()
            if request.needsControl, !(client.peer.map { policy.allows($0) } ?? false) {
                throw ProtocolError(.forbidden, forbiddenMessage(client), requestID: id)
            }
            reply = .ok(id, try answer(request, id: id, from: client, layout: parsed.layout, publishing: &published))
        } catch {
            counters.errorReplies += 1
            logger.debug("request refused", metadata: ["client": "\(client.serial)", "code": "\(error.code.rawValue)",
                                                       "message": "\(error.message)"])
            reply = .error(error)
        }
        // What the request let go of (the layout it replaced) is freed off the loop.
        release(&published.released)
        // The events a request made go out before its reply, as they would had they come from
        // the input: a subscriber sees the `layout` event of its own layout.set first.
        var notices = publish(published)
        notices += send(reply, to: client)
        announce(notices)
        // After the reply, so a replay that a subscription starts sends its first event after
        // the client learnt it is subscribed.
        subscriptionsChanged()
    }

    /// Re-reads the configuration through the owner (SIGHUP, or a `reload` request), publishes
    /// what it changed and applies who may control; `nil` without an owner (stopping).
    @discardableResult
    public func reload(origin: String) -> Result<ReloadReport, ConfigurationError>? {
        guard let owner else { return nil }
        var outcome = owner.reload(origin: origin)
        if case .success(let report) = outcome.result { policy = ControlPolicy(socket: report.socket) }
        release(&outcome.events.released)
        announce(publish(outcome.events))
        return outcome.result
    }

    private func forbiddenMessage(_ client: ClientSession) -> String {
        let who = client.peer.map { "uid \($0.uid), gid \($0.gid)" } ?? "an unknown peer"
        return "this connection (\(who)) may not change the layout or the screen; run the client as root, as a user in "
            + "socket.controlUsers or as a member of socket.controlGroup in gestured's configuration"
    }

    private func answer(_ request: Request, id: RequestID?, from client: ClientSession,
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
            let replaced = owner.replaceLayout(layout.spec, prepared: layout.prepared, reason: "layout.set by \(client.peerDescription)")
            published = replaced.events
            return .revision(replaced.revision)
        case .viewUpdate(let view, let changes):
            let owner = try requireOwner(id)
            let result: ViewSpec?
            do {
                result = try ConfigurationLoader.updateView(view, with: changes, in: owner.currentLayout, file: "view.update")
            } catch {
                throw Self.invalidLayout(error, id: id)
            }
            guard let updated = result else {
                throw ProtocolError(.unknownView, "the layout has no view \(Request.quote(view)); send the id of one of its views",
                                    requestID: id)
            }
            let replaced = owner.replaceLayout(updated, prepared: nil, reason: "view.update of \(view) by \(client.peerDescription)")
            published = replaced.events
            return .revision(replaced.revision)
        case .screenSet(let rotation, let width, let height):
            let owner = try requireOwner(id)
            let set = owner.setScreen(rotation: rotation, width: width, height: height,
                                      reason: "screen.set by \(client.peerDescription)")
            published = set.events
            return .screen(set.screen)
        case .hitTest(let x, let y):
            let owner = try requireOwner(id)
            return .hitTest(x: x, y: y, owner.hitTest(Point(x: x, y: y)))
        case .status:
            return .status(ServerStatus(version: options.version, pid: Int(getpid()), input: owner?.inputStatus(),
                                        socket: socketPath, connected: clients.count, subscribed: subscriberCount,
                                        counters: counters))
        case .reload:
            guard let result = reload(origin: "reload request of \(client.peerDescription)") else {
                throw ProtocolError(.badRequest, "gestured is stopping; try again when it is back", requestID: id)
            }
            switch result {
            case .success(let report):
                return .reloaded(report)
            case .failure(let error):
                throw ProtocolError(.invalidConfig,
                                    "the configuration has \(Self.count(error.problems.count, "problem")); the running one is kept. "
                                        + error.problems.map(\.description).joined(separator: "; "),
                                    requestID: id, problems: error.layoutProblems.map { ($0.path, $0.message) })
            }
        }
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
