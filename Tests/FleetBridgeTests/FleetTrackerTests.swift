import GestureConfig
import Testing
@testable import FleetBridge

/// The daemon's lines made MQTT messages and figures.
struct FleetTrackerTests {
    func object(_ line: String) -> (String, [String: JSONValue]) {
        guard case .event(let type, let object) = DaemonLine.parse(Array(line.utf8)) else {
            Issue.record("not an event: \(line)")
            return ("", [:])
        }
        return (type, object)
    }

    func tracker(_ configure: (inout FleetSettings) -> Void = { _ in }) -> FleetTracker {
        var settings = FleetSettings(node: "k1")
        configure(&settings)
        var tracker = FleetTracker(settings: settings, startedAt: 0)
        tracker.daemonConnected(true)
        if case .hello(_, let startID) = DaemonLine.parse(Array(#"{"type":"hello","protocol":"gestured/1","version":"0.1.0","startId":"00000000c0ffee42","canControl":false}"#.utf8)) {
            tracker.hello(startID: startID)
        }
        if case .answer(_, let reply, _) = DaemonLine.parse(Array(#"{"type":"reply","re":"s","ok":true,"startId":"00000000c0ffee42","pid":4242,"input":{"source":"replay","device":"panel","path":"x","activeTouches":0,"frames":0,"time":0},"layout":{"revision":1,"hash":"0123456789abcdef"},"counters":{"connections":1,"events":0,"requests":1,"errors":0,"slowConsumers":3}}"#.utf8)) {
            tracker.status(reply)
        }
        return tracker
    }

    @Test func aRecognizedTapBecomesOneQoS1EventOnItsViewsTopic() {
        var tracker = tracker()
        let (type, event) = object(#"{"type":"gesture","seq":16,"time":2060000,"recognizer":"openPhoto","kind":"tap","view":"wall","state":"recognized","x":120.5,"y":40.0,"touches":[3],"taps":1}"#)
        let messages = tracker.event(type: type, event, now: 5_000_000)
        #expect(messages == [OutboundMessage(
            topic: "gestured/k1/view/wall",
            payload: Array(#"{"event_type":"openPhoto","eventId":"00000000c0ffee42-16","seq":16,"time":2060000,"view":"wall","recognizer":"openPhoto","kind":"tap","state":"recognized","x":120.5,"y":40.0,"taps":1}"#.utf8),
            qos: 1, retain: false)])
        #expect(tracker.gestures[.init(view: "wall", recognizer: "openPhoto", kind: "tap", state: "recognized")] == 1)
    }

    @Test func panChangesAreCountedButNotPublishedByDefault() {
        var tracker = tracker()
        let (type, event) = object(#"{"type":"gesture","seq":17,"time":1,"recognizer":"wallPan","kind":"pan","view":"wall","state":"changed","x":1.0,"y":2.0,"touches":[3],"translationX":20.1,"translationY":1.3,"velocityX":1.0,"velocityY":2.0}"#)
        #expect(tracker.event(type: type, event, now: 0).isEmpty)
        let (type2, began) = object(#"{"type":"gesture","seq":18,"time":1,"recognizer":"wallPan","kind":"pan","view":"wall","state":"began","x":1.0,"y":2.0,"touches":[3],"translationX":0.0,"translationY":0.0,"velocityX":0.0,"velocityY":0.0}"#)
        let messages = tracker.event(type: type2, began, now: 0)
        #expect(messages.count == 1)
        #expect(String(decoding: messages[0].payload, as: UTF8.self).hasPrefix(#"{"event_type":"wallPan_began","eventId":"00000000c0ffee42-18""#))
        #expect(tracker.gestures.values.reduce(0, +) == 2)
    }

    @Test func controlsTouchesDeviceAndLayout() {
        var tracker = tracker()
        let (c, control) = object(#"{"type":"control","seq":110,"time":4640000,"view":"share","event":"touchUpInside","touch":5}"#)
        #expect(tracker.event(type: c, control, now: 0).map(\.topic) == ["gestured/k1/view/share"])
        let (d, down) = object(#"{"type":"control","seq":109,"time":4640000,"view":"share","event":"touchDown","touch":5}"#)
        #expect(tracker.event(type: d, down, now: 0).isEmpty)
        let (t, touches) = object(#"{"type":"touches","seq":3,"time":0,"phase":"began","view":"wall","responders":["wall"],"touches":[{"id":1,"phase":"began","x":1.0,"y":1.0},{"id":2,"phase":"began","x":1.0,"y":1.0}]}"#)
        #expect(tracker.event(type: t, touches, now: 1_000_000).isEmpty)
        #expect(tracker.touches["wall"] == 2)
        // Before the event, the status' hash; then the event's own.
        #expect(String(decoding: tracker.layout().payload, as: UTF8.self) == #"{"revision":1,"hash":"0123456789abcdef","message":null}"#)
        let (l, layout) = object(#"{"type":"layout","seq":40,"time":5,"revision":3,"hash":"fedcba9876543210","message":"layout replaced"}"#)
        #expect(tracker.event(type: l, layout, now: 0) == [OutboundMessage(
            topic: "gestured/k1/layout", payload: Array(#"{"revision":3,"hash":"fedcba9876543210","message":"layout replaced"}"#.utf8),
            qos: 1, retain: true)])
        // The status named the panel: the sidecar came after its device event.
        #expect(tracker.state == "ok")
        let (r, removed) = object(#"{"type":"device","seq":1,"time":0,"action":"removed","name":"panel","message":"m"}"#)
        _ = tracker.event(type: r, removed, now: 0)
        #expect(tracker.state == "no-device")
        let (v, device) = object(#"{"type":"device","seq":1,"time":0,"action":"added","name":"panel","message":"m"}"#)
        let health = tracker.event(type: v, device, now: 30_000_000)
        #expect(health.map(\.topic) == ["gestured/k1/health"])
        #expect(health[0].retain)
        #expect(String(decoding: health[0].payload, as: UTF8.self) == #"{"state":"ok","device":{"name":"panel","action":"added","source":"replay"},"uptime":30,"touchesPerMinute":2,"gesturesPerMinute":0,"lastTouchSecondsAgo":29,"layoutRevision":3,"latencySeconds":null,"dropped":{"queue":0,"daemonSlowConsumers":3},"brokerReconnects":0}"#)
    }

    @Test func theMinuteWindowForgetsAfterSixtySeconds() {
        var window = MinuteWindow()
        window.add(3, at: 10_000_000)
        window.add(2, at: 50_000_000)
        #expect(window.total(at: 60_000_000) == 5)
        #expect(window.total(at: 70_500_000) == 2)
        #expect(window.total(at: 200_000_000) == 0)
    }

    @Test func latencyIsMeasuredLiveOnlyAndGivesBucketQuantiles() {
        var histogram = LatencyHistogram()
        for _ in 0..<90 { histogram.observe(microseconds: 800) }
        for _ in 0..<10 { histogram.observe(microseconds: 30_000) }
        #expect(histogram.quantile(0.5) == 0.001)
        #expect(histogram.quantile(0.9) == 0.001)
        #expect(histogram.quantile(0.99) == 0.05)
        var tracker = tracker()  // a replay: no latency
        let (type, event) = object(#"{"type":"control","seq":1,"time":0,"view":"share","event":"touchDown","touch":5}"#)
        _ = tracker.event(type: type, event, now: 1_000_000)
        #expect(tracker.latency.count == 0)
    }

    @Test func seriesAreBounded() {
        var tracker = tracker()
        for n in 0..<(FleetLimits.seriesLimit + 10) {
            let (type, event) = object(#"{"type":"control","seq":1,"time":0,"view":"v\#(n)","event":"touchDown","touch":5}"#)
            _ = tracker.event(type: type, event, now: 0)
        }
        #expect(tracker.controls.count == FleetLimits.seriesLimit + 1)
        #expect(tracker.controls[.init(view: "_other", event: "_other")] == 10)
    }
}

/// The touch deliveries the sidecar skips without parsing: only those whose phase is not began.
struct TouchesPrefilterTests {
    @Test(arguments: [
        (#"{"type":"touches","seq":3,"time":0,"phase":"moved","view":"w","responders":["w"],"touches":[{"id":1,"phase":"began"}]}"#, true),
        (#"{"type":"touches","seq":3,"time":0,"screen":"a","phase":"ended","view":"w","touches":[]}"#, true),
        (#"{"type":"touches","seq":3,"time":0,"phase":"began","view":"w","touches":[]}"#, false),
        (#"{"type":"touches","seq":3,"time":0,"touches":[{"phase":"moved"}],"phase":"began"}"#, false),
        (#"{"type":"gesture","seq":3,"time":0,"phase":"moved"}"#, false),
        (#"{"type":"touches""#, false),
    ])
    func onlyDeliveriesOtherThanBeganAreSkipped(line: String, skipped: Bool) {
        #expect(DaemonLine.isTouchesWithoutBegan(Array(line.utf8)) == skipped)
    }
}
