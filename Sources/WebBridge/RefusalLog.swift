import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The bridge's log of refusals (docs/protocol.md § Refusals): every page the bridge turns away
/// or closes for a fault of its own (an origin not allowed, a wrong token, a daemon it cannot
/// reach, a frame or message that breaks the rules, a request without the token) is one
/// warning with its reason, so a developer finds in the journal what the browser hides. A
/// page that retries in a loop, or a flood of bad frames, must not fill the journal: at most
/// ``linesPerWindow`` lines per ``window``; the refusals beyond are counted and the next line
/// says how many there were.
public final class RefusalLog: Sendable {
    /// Lines written per window at most (docs/limits.md § Web bridge): a page's connection
    /// attempts, each refused for its own reason, stay readable in the journal.
    public static let linesPerWindow = 20
    /// The window, in nanoseconds: one second.
    public static let window: Int64 = 1_000_000_000

    private struct State {
        var windowStart: Int64 = .min
        var linesInWindow = 0
        var suppressed = 0
    }

    private let logger: Logger
    private let now: @Sendable () -> Int64
    private let state = NIOLockedValueBox(State())

    /// `now`: a monotonic clock in nanoseconds (tests pass their own).
    public init(logger: Logger, now: @escaping @Sendable () -> Int64 = RefusalLog.monotonicNanoseconds) {
        (self.logger, self.now) = (logger, now)
    }

    /// Logs one refusal, unless the window's lines are spent. Returns whether it was written.
    @discardableResult
    public func refused(_ message: Logger.Message, _ metadata: Logger.Metadata) -> Bool {
        let time = now()
        let suppressed: Int? = state.withLockedValue { state in
            if state.windowStart == .min || time - state.windowStart >= Self.window {
                state.windowStart = time
                state.linesInWindow = 0
            }
            guard state.linesInWindow < Self.linesPerWindow else {
                state.suppressed += 1
                return nil
            }
            state.linesInWindow += 1
            defer { state.suppressed = 0 }
            return state.suppressed
        }
        guard let suppressed else { return false }
        var metadata = metadata
        if suppressed > 0 { metadata["refusalsNotLogged"] = "\(suppressed)" }
        logger.warning(message, metadata: metadata)
        return true
    }
}

extension RefusalLog {
    /// NIO's monotonic clock, in nanoseconds.
    public static let monotonicNanoseconds: @Sendable () -> Int64 = {
        Int64(clamping: NIODeadline.now().uptimeNanoseconds)
    }
}
