import Testing
@testable import GestureCore

@Suite("Touch delivery along the responder chain")
struct DeliveryTests {
    @Test func touchStaysWithItsViewAfterLeavingIt() {
        var script = TouchScript(scenarioA())
        script.down(1, 20, 320)
        script.move(1, 300, 100)
        script.up(1)
        #expect(script.take() == ["began BlackView > RootView: #1", "moved BlackView > RootView: #1",
                                  "ended BlackView > RootView: #1"])
    }

    @Test func handlesTouchesStopsForwarding() {
        var script = TouchScript(view("Root", 0, 0, 400, 400, [
            view("Card", 0, 0, 200, 200, [view("Label", 0, 0, 100, 100)]) { $0.handlesTouches = true },
        ]))
        script.down(1, 10, 10)
        script.up(1)
        #expect(script.take() == ["began Label > Card: #1", "ended Label > Card: #1"])
    }

    @Test func touchEventCarriesScreenAndViewCoordinates() throws {
        var engine = Engine(tree: try ViewTree(root: scenarioA()))
        var events: [EngineEvent] = []
        engine.process(TouchFrame(time: Timestamp(microseconds: 1200),
                                  changes: [.down(ContactID(0), Point(x: 20, y: 320), majorRadius: 4, force: 0.5)]),
                       into: &events)
        var encoder = EventEncoder()
        #expect(encoder.line(.engine(events[0])) == #"{"type":"touches","seq":1,"time":1200,"phase":"began","view":"BlackView","responders":["BlackView","RootView"],"touches":[{"id":1,"phase":"began","x":20.0,"y":320.0,"viewX":20.0,"viewY":20.0,"previousX":20.0,"previousY":320.0,"tapCount":1,"majorRadius":4.0,"force":0.5}]}"#)
    }

    @Test func touchWithNoHitViewIsDeliveredNowhere() {
        var script = TouchScript(view("Root", 0, 0, 100, 100))
        script.down(1, 500, 500)
        script.up(1)
        #expect(script.take() == [])
        #expect(script.engine.activeTouchCount == 0)
    }

    @Test func touchIdsAreFreshEvenWhenContactsAreReused() {
        var script = TouchScript(view("Root", 0, 0, 100, 100))
        script.down(0, 10, 10)
        script.up(0)
        script.down(0, 10, 10)
        script.up(0)
        #expect(script.take() == ["began Root: #1", "ended Root: #1", "began Root: #2", "ended Root: #2"])
    }

    @Test func cancelledInputCancelsTheDelivery() {
        var script = TouchScript(scenarioA())
        script.down(1, 20, 320)
        script.cancel(1)
        #expect(script.take() == ["began BlackView > RootView: #1", "cancelled BlackView > RootView: #1"])
    }

    @Test func cancelAllEndsEveryTouch() {
        var script = TouchScript(view("Root", 0, 0, 400, 400) { $0.multipleTouchEnabled = true })
        script.frame(.down(ContactID(1), Point(x: 10, y: 10)), .down(ContactID(2), Point(x: 20, y: 20)))
        var events: [EngineEvent] = []
        script.engine.cancelAll(at: Timestamp(microseconds: 5000), into: &events)
        #expect(script.take() == ["began Root: #1 #2"])
        #expect(events.map(TouchScript.describe) == ["cancelled Root: #1 #2"])
        #expect(script.engine.activeTouchCount == 0)
    }

    @Test func multipleTouchEnabledViewGetsEveryTouchInOneDeliveryPerPhase() {
        var script = TouchScript(view("Root", 0, 0, 400, 400) { $0.multipleTouchEnabled = true })
        script.frame(.down(ContactID(1), Point(x: 10, y: 10)), .down(ContactID(2), Point(x: 50, y: 50)))
        script.frame(.move(ContactID(1), Point(x: 12, y: 10)), .move(ContactID(2), Point(x: 52, y: 50)))
        script.down(3, 90, 90)
        script.frame(.up(ContactID(1)), .move(ContactID(2), Point(x: 60, y: 50)))
        script.frame(.up(ContactID(2)), .up(ContactID(3)))
        #expect(script.take() == ["began Root: #1 #2", "moved Root: #1 #2", "began Root: #3", "moved Root: #2",
                                  "ended Root: #1", "ended Root: #2 #3"])
    }

    @Test func viewThatIsNotMultipleTouchEnabledGetsOnlyTheFirstTouch() {
        var script = TouchScript(view("Root", 0, 0, 400, 400, [view("Pad", 0, 0, 200, 200)]))
        script.down(1, 10, 10)
        script.down(2, 50, 50)
        script.move(2, 60, 60)
        script.up(2)
        script.move(1, 20, 20)
        script.up(1)
        script.down(3, 10, 10)
        #expect(script.take() == ["began Pad > Root: #1", "moved Pad > Root: #1", "ended Pad > Root: #1",
                                  "began Pad > Root: #3"])
    }

    @Test func differentViewsEachGetTheirOwnDelivery() {
        var script = TouchScript(view("Root", 0, 0, 400, 400, [view("Left", 0, 0, 200, 400), view("Right", 200, 0, 200, 400)]))
        script.frame(.down(ContactID(1), Point(x: 300, y: 10)), .down(ContactID(2), Point(x: 10, y: 10)))
        #expect(script.take() == ["began Right > Root: #1", "began Left > Root: #2"])
    }

    @Test func exclusiveTouchViewBlocksOthersWhileTracking() {
        let layout = view("Root", 0, 0, 400, 400, [
            control("Exclusive", 0, 0, 200, 400) { $0.exclusiveTouch = true },
            control("Other", 200, 0, 200, 400),
        ])
        var script = TouchScript(layout)
        script.down(1, 10, 10)
        script.down(2, 300, 10)
        script.up(2)
        script.up(1)
        script.down(3, 300, 10)
        #expect(script.take() == ["began Exclusive: #1", "Exclusive touchDown #1", "ended Exclusive: #1",
                                  "Exclusive touchUpInside #1", "began Other: #3", "Other touchDown #3"])
    }

    @Test func exclusiveTouchViewGetsNothingWhileOthersTrack() {
        let layout = view("Root", 0, 0, 400, 400, [
            control("Exclusive", 0, 0, 200, 400) { $0.exclusiveTouch = true },
            control("Other", 200, 0, 200, 400),
        ])
        var script = TouchScript(layout)
        script.down(1, 300, 10)
        script.down(2, 10, 10)
        script.up(2)
        script.up(1)
        #expect(script.take() == ["began Other: #1", "Other touchDown #1", "ended Other: #1", "Other touchUpInside #1"])
    }

    @Test func tapCountGrowsForQuickTapsAtTheSamePlace() throws {
        var engine = Engine(tree: try ViewTree(root: view("Root", 0, 0, 400, 400)))
        var events: [EngineEvent] = []
        var taps: [Int] = []
        for (ms, x) in [(0, 100.0), (200, 110.0), (400, 105.0), (1200, 105.0), (1300, 300.0)] as [(Int64, Double)] {
            events.removeAll()
            engine.process(TouchFrame(time: Timestamp(microseconds: ms * 1000), changes: [.down(ContactID(0), Point(x: x, y: 100))]), into: &events)
            engine.process(TouchFrame(time: Timestamp(microseconds: (ms + 50) * 1000), changes: [.up(ContactID(0))]), into: &events)
            if case .touches(let e) = events[0] { taps.append(e.touches[0].tapCount) }
        }
        #expect(taps == [1, 2, 3, 1, 1])
    }
}

@Suite("Control tracking events")
struct ControlTests {
    /// A 100 x 100 button at (100, 100) with the default 70 pt tracking slop.
    var layout: ViewSpec { view("Root", 0, 0, 800, 800, [control("Button", 100, 100, 100, 100)]) }

    @Test func tapInside() {
        var script = TouchScript(layout)
        script.down(1, 150, 150)
        script.move(1, 155, 150)
        script.up(1)
        #expect(script.take() == ["began Button: #1", "Button touchDown #1", "moved Button: #1",
                                  "Button touchDragInside #1", "ended Button: #1", "Button touchUpInside #1"])
    }

    @Test func dragOutAndBackIn() {
        var script = TouchScript(layout)
        script.down(1, 150, 150)
        script.move(1, 260, 150)  // 60 pt right of the button: inside the 70 pt slop
        script.move(1, 275, 150)  // 75 pt: outside
        script.move(1, 300, 150)
        script.move(1, 150, 150)
        script.up(1)
        #expect(script.take() == [
            "began Button: #1", "Button touchDown #1",
            "moved Button: #1", "Button touchDragInside #1",
            "moved Button: #1", "Button touchDragExit #1",
            "moved Button: #1", "Button touchDragOutside #1",
            "moved Button: #1", "Button touchDragEnter #1",
            "ended Button: #1", "Button touchUpInside #1",
        ])
    }

    @Test func releaseOutside() {
        var script = TouchScript(layout)
        script.down(1, 150, 150)
        script.move(1, 400, 400)
        script.up(1)
        #expect(script.take() == ["began Button: #1", "Button touchDown #1", "moved Button: #1",
                                  "Button touchDragExit #1", "ended Button: #1", "Button touchUpOutside #1"])
    }

    @Test func cancel() {
        var script = TouchScript(layout)
        script.down(1, 150, 150)
        script.cancel(1)
        #expect(script.take() == ["began Button: #1", "Button touchDown #1", "cancelled Button: #1",
                                  "Button touchCancel #1"])
    }

    @Test func repeatedTouchDown() {
        var script = TouchScript(layout)
        script.down(1, 150, 150)
        script.up(1)
        script.wait(100)
        script.down(1, 152, 150)
        #expect(script.take() == ["began Button: #1", "Button touchDown #1", "ended Button: #1",
                                  "Button touchUpInside #1", "began Button: #2", "Button touchDown #2",
                                  "Button touchDownRepeat #2"])
    }

    @Test func ownTrackingSlop() {
        var script = TouchScript(view("Root", 0, 0, 800, 800, [control("Button", 100, 100, 100, 100) { $0.trackingSlop = 0 }]))
        script.down(1, 150, 150)
        script.move(1, 201, 150)
        script.up(1)
        #expect(script.take() == ["began Button: #1", "Button touchDown #1", "moved Button: #1",
                                  "Button touchDragExit #1", "ended Button: #1", "Button touchUpOutside #1"])
    }
}

@Suite("JSON numbers")
struct JSONNumberTests {
    @Test(arguments: [(20.0, "20.0"), (504.16666666666663, "504.1667"), (-0.5, "-0.5"), (0.0, "0.0"),
                      (-0.00001, "0.0"), (0.99995, "1.0"), (207.03125, "207.0313"), (1e15, "1000000000000000.0"),
                      (-1234.56789, "-1234.5679"), (Double.nan, "null"), (Double.infinity, "null"),
                      (1e20, "1e+20")])
    func fixedPointWithFourDecimals(value: Double, text: String) {
        var writer = JSONWriter()
        writer.number(value)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == text)
    }

    @Test(arguments: [(Int64(0), "0"), (7, "7"), (10, "10"), (-42, "-42"), (1_370_597_233_054_146, "1370597233054146"),
                      (Int64.min, "-9223372036854775808"), (Int64.max, "9223372036854775807")])
    func integers(value: Int64, text: String) {
        var writer = JSONWriter()
        writer.int(value)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == text)
    }

    /// Every width: each power of ten, the number before it and after it, both signs, as
    /// Swift spells them (the digit count is found by comparisons up to 12 digits).
    @Test func integersOfEveryWidth() {
        var values: [Int64] = [Int64.max, Int64.min, Int64.max - 1, Int64.min + 1]
        var power: Int64 = 1
        for _ in 0...18 {
            values += [power - 1, power, power + 1, -(power - 1), -power, -(power + 1)]
            if power <= Int64.max / 10 { power *= 10 }
        }
        for value in values {
            var writer = JSONWriter()
            writer.int(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
        }
    }
}

/// The text a ``DecimalText`` holds, written through a cursor as the encoder writes it.
private func text(of decimal: DecimalText) -> String {
    var bytes = [UInt8](repeating: 0, count: 32)
    let count = bytes.withUnsafeMutableBufferPointer { buffer -> Int in
        var cursor = JSONWriter.Cursor(buffer.baseAddress!)
        decimal.write(to: &cursor)
        return buffer.baseAddress!.distance(to: cursor.position)
    }
    return String(decoding: bytes[..<count], as: UTF8.self)
}

@Suite("Kept decimal text")
struct DecimalTextTests {
    /// Counted up one by one, the text is always the number's: every carry, every new digit.
    @Test func countingUpCarriesThroughEveryDigit() {
        var decimal = DecimalText(0)
        for value in Int64(0)...120_000 {
            #expect(decimal.value == value)
            if text(of: decimal) != String(value) {
                Issue.record("\(value) written as \(text(of: decimal))")
                return
            }
            decimal.increment()
        }
    }

    @Test(arguments: [Int64(9), 99, 999_999_999, 999_999_999_999_999_999, 1_234_567_899, 42])
    func carriesFromWideValues(start: Int64) {
        var decimal = DecimalText(start)
        decimal.increment()
        #expect(text(of: decimal) == String(start + 1))
        #expect(decimal.value == start + 1)
    }

    @Test(arguments: [Int64.min, -1, 0, 1_370_597_233_054_146, Int64.max])
    func setWritesAnyValue(value: Int64) {
        var decimal = DecimalText(7)
        decimal.set(value)
        #expect(text(of: decimal) == String(value))
    }
}

@Suite("Cursor copies")
struct CursorCopyTests {
    /// Every length the inline copies take (4 to 16 bytes, as overlapping words) and around
    /// them, from an unaligned source to an unaligned place, nothing written past the end.
    @Test func bytesOfEveryLengthCopyExactly() {
        let source = (0..<64).map { UInt8(65 + $0 % 26) }
        for offset in 0..<3 {
            for count in 0...40 {
                var target = [UInt8](repeating: 0, count: 64)
                let end = source.withUnsafeBufferPointer { from in
                    target.withUnsafeMutableBufferPointer { to -> Int in
                        var cursor = JSONWriter.Cursor(to.baseAddress! + offset)
                        cursor.bytes(from.baseAddress! + 1, count: count)
                        return to.baseAddress!.distance(to: cursor.position)
                    }
                }
                #expect(end == offset + count)
                #expect(Array(target[offset..<offset + count]) == Array(source[1..<1 + count]))
                #expect(target[..<offset].allSatisfy { $0 == 0 } && target[(offset + count)...].allSatisfy { $0 == 0 })
            }
        }
    }
}

@Suite("JSON strings")
struct JSONStringTests {
    @Test(arguments: [("BlackView", #""BlackView""#), ("say \"hi\"", #""say \"hi\"""#), ("a\\b", #""a\\b""#),
                      ("line\nbreak\t", #""line\nbreak\t""#), ("\u{1}", #""\u0001""#), ("café ☕", "\"café ☕\"")])
    func escapesOnlyWhatJSONRequires(value: String, json: String) {
        var writer = JSONWriter()
        writer.string(value)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == json)
    }
}
