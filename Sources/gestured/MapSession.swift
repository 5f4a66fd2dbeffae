#if canImport(Glibc)
import Glibc
#endif
import EvdevInput
import GestureCore
import GestureSystem

/// `gestured map`'s reading of the panels: every panel open at once (non-blocking, grabbed
/// only when asked) on one event loop, and for each screen in turn the first panel that gets a
/// new contact after the screen's prompt. Prompts and messages go to standard error, so the
/// command needs no terminal.
final class MapSession {
    /// Which panel a screen got.
    enum Touch: Hashable {
        /// The index of the panel, in the list the session was made with.
        case touched(Int)
        case none(reason: String)
    }

    private let panels: [DeviceEntry]
    private let loop: EventLoop
    /// The panels still open, by index.
    private var devices: [Int: EvdevDevice] = [:]
    private var tokens: [Int: EventLoop.Token] = [:]
    /// Panel index → the screen it is bound to.
    private var bound: [Int: String] = [:]
    /// The screen being waited for, while the loop runs.
    private var waitingFor: String?
    private var touched: Int?
    private var timedOut = false
    /// SIGINT, SIGTERM or SIGHUP came: mapping stops and nothing is written.
    private(set) var interrupted = false
    /// Read into, kept between reads.
    private var readings: [RawEvent] = []
    /// The panels are grabbed (`--grab`): none is let go while a finger is on it.
    private let grabbed: Bool
    /// What is down on each open panel, from the events read since it was opened.
    private var contacts: [Int: PanelContacts] = [:]
    /// Waiting for the fingers to lift before the grabs are let go.
    private var waitingForLift = false

    /// Opens every panel of `panels`; one that cannot be opened (gone since it was listed,
    /// permissions) is reported and left out.
    init(panels: [DeviceEntry], grab: Bool) throws {
        self.panels = panels
        grabbed = grab
        do {
            loop = try EventLoop()
        } catch {
            throw failure("gestured map: \(error)")
        }
        for (index, panel) in panels.enumerated() {
            do throws(EvdevError) {
                let device = try EvdevDevice(path: panel.path)
                if grab { try device.grab() }
                devices[index] = device
            } catch {
                printError("gestured map: \(panel.path) cannot be read (\(error)); it is left out"
                    + (grab ? " (--grab: another reader, such as gestured run, may hold it)" : ""))
                continue
            }
            do {
                tokens[index] = try loop.watch(devices[index]!.fileDescriptor) { [unowned self] _ in
                    self.read(index)
                }
            } catch {
                throw failure("gestured map: \(error)")
            }
        }
        readings.reserveCapacity(256)
    }

    /// For each screen in turn: the panel touched for it, or why none was.
    func bind(_ screens: [MapScreen], timeoutSeconds: Int) throws -> [Touch] {
        var touches: [Touch] = []
        // Signals are taken through the loop (signalfd): its handler only stops the loop, and
        // this flag tells an interruption from a touch or a timeout.
        try loop.handleSignals([SIGINT, SIGTERM, SIGHUP]) { [unowned self] _ in
            self.interrupted = true
            self.loop.stop()
        }
        for (number, screen) in screens.enumerated() {
            if interrupted {
                touches.append(.none(reason: "mapping was stopped"))
                continue
            }
            guard !devices.isEmpty else {
                touches.append(.none(reason: "every panel was removed before it was its turn"))
                continue
            }
            // Panels plugged in later are not read (their identity would change the choice for
            // those bound already), so with every open panel bound no touch can answer.
            guard devices.keys.contains(where: { bound[$0] == nil }) else {
                touches.append(.none(reason: "every panel still plugged in is bound to an earlier screen"))
                continue
            }
            // What came before the prompt is not the installer's answer to it.
            for index in devices.keys.sorted() { drain(index) }
            printError("gestured map: touch screen \"\(screen.id)\" (\(number + 1) of \(screens.count)); waiting "
                + "\(timeoutSeconds) s")
            waitingFor = screen.id
            touched = nil
            timedOut = false
            let deadline = MonotonicClock.microseconds() + Int64(timeoutSeconds) * 1_000_000
            loop.setDeadline(deadline) { [unowned self] in
                self.timedOut = true
                self.loop.stop()
            }
            try runLoop()
            loop.setDeadline(nil) {}
            waitingFor = nil
            if let touched {
                bound[touched] = screen.id
                printError("gestured map: screen \"\(screen.id)\" is \(panels[touched].path)")
                touches.append(.touched(touched))
            } else if interrupted {
                touches.append(.none(reason: "mapping was stopped"))
            } else if devices.isEmpty {
                touches.append(.none(reason: "every panel was removed while it was waited for"))
            } else {
                touches.append(.none(reason: "no panel was touched within \(timeoutSeconds) s (a panel that gestured "
                    + "run holds with grab: true sends its events to gestured only)"))
            }
        }
        if grabbed && !interrupted { try waitForLifts() }
        return touches
    }

    /// With `--grab`, the panels are let go only once no finger is on them (for at most
    /// ``MapLimits/liftWaitSeconds``): let go mid-touch, the rest of the touch (its lift) would
    /// reach the desktop, which never had its beginning.
    private func waitForLifts() throws {
        let down = devices.keys.sorted().filter { contacts[$0]?.isDown == true }
        guard !down.isEmpty else { return }
        printError("gestured map: waiting up to \(MapLimits.liftWaitSeconds) s for the finger to lift from "
            + down.map { panels[$0].path }.joined(separator: ", ") + " before letting it go")
        waitingForLift = true
        defer { waitingForLift = false }
        loop.setDeadline(MonotonicClock.microseconds() + Int64(MapLimits.liftWaitSeconds) * 1_000_000) { [unowned self] in
            self.loop.stop()
        }
        try runLoop()
        loop.setDeadline(nil) {}
    }

    private func runLoop() throws {
        do {
            try loop.run()
        } catch {
            throw failure("gestured map: \(error)")
        }
    }

    /// Reads what panel `index` has: a new contact answers the prompt (or is ignored with a
    /// message when its panel is bound already); a removal closes it.
    private func read(_ index: Int) {
        guard let device = devices[index] else { return }
        readings.removeAll(keepingCapacity: true)
        let end: ReadEnd
        do throws(EvdevError) {
            end = try device.readAvailable(into: &readings)
        } catch {
            printError("gestured map: \(panels[index].path) could not be read (\(error)); it is left out")
            close(index, removed: false)
            return
        }
        contacts[index, default: PanelContacts()].take(readings)
        if waitingForLift, !devices.keys.contains(where: { contacts[$0]?.isDown == true }) { loop.stop() }
        if Self.hasNewContact(readings), let screen = waitingFor {
            if let other = bound[index] {
                printError("gestured map: \(panels[index].path) is bound to screen \"\(other)\" already; touch screen "
                    + "\"\(screen)\"")
            } else if touched == nil {
                touched = index
                loop.stop()
            }
        }
        if end == .removed { close(index, removed: true) }
    }

    /// Reads and forgets what panel `index` has queued.
    private func drain(_ index: Int) {
        guard let device = devices[index] else { return }
        readings.removeAll(keepingCapacity: true)
        do throws(EvdevError) {
            let end = try device.readAvailable(into: &readings)
            contacts[index, default: PanelContacts()].take(readings)
            if end == .removed { close(index, removed: true) }
        } catch {
            printError("gestured map: \(panels[index].path) could not be read (\(error)); it is left out")
            close(index, removed: false)
        }
    }

    private func close(_ index: Int, removed: Bool) {
        if let token = tokens.removeValue(forKey: index) { loop.unwatch(token) }
        devices[index] = nil
        contacts[index] = nil
        if removed {
            let screen = bound[index]
            printError("gestured map: \(panels[index].path) was removed"
                + (screen.map { "; it stays bound to screen \"\($0)\" (its identity was read when it was listed)" }
                    ?? "; it can no longer be bound"))
        }
        if devices.isEmpty, waitingFor != nil || waitingForLift { loop.stop() }
    }

    /// True when `events` begin a contact: a slot's tracking id set (multitouch protocol B) or
    /// `BTN_TOUCH` pressed (single-touch and protocol A panels, which report it with the first
    /// finger). A contact still down from an earlier screen sends neither.
    static func hasNewContact(_ events: [RawEvent]) -> Bool {
        events.contains {
            ($0.type == EventType.abs && $0.code == AbsCode.mtTrackingID && $0.value >= 0)
                || ($0.type == EventType.key && $0.code == KeyCode.btnTouch && $0.value == 1)
        }
    }
}

/// What is down on a panel, from its events: the slots with a contact (multitouch protocol B)
/// and `BTN_TOUCH` (single-touch and protocol A panels, and most protocol B ones).
struct PanelContacts {
    private var slot: Int32 = 0
    private var slots: Set<Int32> = []
    private var button = false

    /// A finger is on the panel.
    var isDown: Bool { button || !slots.isEmpty }

    mutating func take(_ events: [RawEvent]) {
        for event in events {
            if event.type == EventType.abs && event.code == AbsCode.mtSlot {
                slot = event.value
            } else if event.type == EventType.abs && event.code == AbsCode.mtTrackingID {
                // The kernel keeps the slot within the device's range; the bound keeps a broken
                // driver's from growing the set.
                if event.value < 0 {
                    slots.remove(slot)
                } else if slots.count < MapLimits.trackedSlots {
                    slots.insert(slot)
                }
            } else if event.type == EventType.key && event.code == KeyCode.btnTouch {
                button = event.value != 0
            }
        }
    }
}

/// `gestured map`'s bounds (docs/limits.md, "`gestured map`").
enum MapLimits {
    /// With `--grab`: how long a finger still on a panel keeps it grabbed once every screen is bound.
    static let liftWaitSeconds = 5
    /// Slots followed per panel for that wait.
    static let trackedSlots = 64
}
