#if canImport(Glibc)
import Glibc
#endif
import EvdevInput
import GestureConfig
import GestureCore
import GestureSystem

/// `gestured calibrate`'s reading of the live panel: the device open non-blocking (grabbed
/// only when asked) on an event loop, its events through the touch reader into the session,
/// until every target is touched, a target waits longer than the timeout, the panel goes, or a
/// signal (SIGINT, SIGTERM, SIGHUP) stops it. Prompts go to standard error.
final class CalibrateLive {
    private let path: String
    private let device: EvdevDevice
    /// The loop the panel is read on; `--page` serves on it too.
    let loop: EventLoop
    private var readings: [RawEvent] = []
    private(set) var interrupted = false
    private var timedOut = false
    private var removed = false

    init(path: String, grab: Bool) throws {
        self.path = path
        do throws(EvdevError) {
            device = try EvdevDevice(path: path)
            if grab { try device.grab() }
        } catch {
            throw failure("gestured calibrate: \(path) cannot be read (\(error))"
                + (grab ? "; --grab: another reader, such as gestured run, may hold it" : ""))
        }
        do {
            loop = try EventLoop()
        } catch {
            throw failure("gestured calibrate: \(error)")
        }
        readings.reserveCapacity(256)
    }

    /// How long the loop keeps serving the page after the calibration ended (``serveBriefly()``).
    static let lingerMicroseconds: Int64 = 1_500_000

    /// Runs the loop for ``lingerMicroseconds`` more (the page's last state), unless a signal
    /// stops it first; the panel's events are read and dropped meanwhile.
    func serveBriefly() {
        guard !interrupted else { return }
        loop.setDeadline(MonotonicClock.microseconds() + Self.lingerMicroseconds) { [unowned self] in self.loop.stop() }
        _ = try? loop.run()
        loop.setDeadline(nil) {}
    }

    /// Reads touches into `session` until it is complete or reading stops; `take` handles each
    /// touch, `announce` shows the current target (at the start and after each answer).
    func read(_ session: inout CalibrationSession, reader: CalibrationTouchReader, timeoutSeconds: Int,
              take: @escaping (inout CalibrationSession, CalibrationTouchReader.Touch) -> Void,
              announce: @escaping (CalibrationSession) -> Void) throws {
        var state = session
        var touchReader = reader
        var shown = state.current
        let timeout = Int64(timeoutSeconds) * 1_000_000
        func arm() {
            loop.setDeadline(MonotonicClock.microseconds() + timeout) { [unowned self] in
                self.timedOut = true
                self.loop.stop()
            }
        }
        do {
            try loop.handleSignals([SIGINT, SIGTERM, SIGHUP]) { [unowned self] _ in
                self.interrupted = true
                self.loop.stop()
            }
            // What the panel queued before the first prompt is no answer to it.
            _ = try? device.readAvailable(into: &readings)
            readings.removeAll(keepingCapacity: true)
            announce(state)
            arm()
            _ = try loop.watch(device.fileDescriptor) { [unowned self] _ in
                self.readings.removeAll(keepingCapacity: true)
                let end: ReadEnd
                do throws(EvdevError) {
                    end = try self.device.readAvailable(into: &self.readings)
                } catch {
                    printError("gestured calibrate: \(self.path) could not be read (\(error))")
                    self.removed = true
                    self.loop.stop()
                    return
                }
                for event in self.readings where state.current != nil {
                    if let touch = touchReader.take(event) {
                        take(&state, touch)
                        if state.current != shown {
                            shown = state.current
                            arm()
                        }
                    }
                }
                if state.current == nil || end == .removed {
                    if end == .removed { self.removed = true }
                    self.loop.stop()
                }
            }
            try loop.run()
        } catch {
            throw failure("gestured calibrate: \(error)")
        }
        loop.setDeadline(nil) {}
        session = state
        if state.current == nil { return }
        if interrupted { throw failure("gestured calibrate: stopped before every target was touched; nothing was written") }
        if removed { throw failure("gestured calibrate: \(path) was removed; nothing was written") }
        if timedOut {
            throw failure("gestured calibrate: target \((state.current ?? 0) + 1) was not touched within \(timeoutSeconds) s "
                + "(a panel that gestured run holds with grab: true sends its events to gestured only); nothing was written")
        }
    }
}
