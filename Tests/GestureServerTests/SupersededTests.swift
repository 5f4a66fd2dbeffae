#if canImport(Glibc)
import Glibc
#endif
import Testing

/// `superseded` (docs/protocol.md § Changing the layout): the client whose `layout.set` set the
/// layout in force is told, and only it, when another client's `layout.set` replaces it; over
/// the server's real socket.
@Suite("Superseded layouts")
struct SupersededTests {
    static func layoutSet(_ id: Int, _ root: String) -> String {
        #"{"type":"layout.set","id":\#(id),"layout":{"id":"\#(root)","frame":[0,0,100,100]}}"#
    }

    @Test func theEarlierSetterAloneIsToldWhoTookTheLayout() throws {
        let harness = try ServerHarness()
        let first = try harness.connect(), second = try harness.connect(), watcher = try harness.subscriber()

        try first.send(Self.layoutSet(1, "first"))
        try harness.settle()
        #expect(first.take().map(\.type) == ["reply"])
        // Nobody set a layout before: nobody to tell.
        #expect(second.take().isEmpty)
        #expect(watcher.take().map(\.type) == ["layout"])

        try second.send(Self.layoutSet(2, "second"))
        try harness.settle()
        #expect(second.take().map(\.type) == ["reply"])
        let layoutEvent = try #require(watcher.take().first)
        let notices = first.take()
        #expect(notices.map(\.type) == ["superseded"])
        let notice = try #require(notices.first).object
        #expect(notice["what"] as? String == "layout")
        #expect(notice["revision"] as? Int == 3)
        // The seq and time of the `layout` event of the new layout.
        #expect(notice["seq"] as? Int == layoutEvent.object["seq"] as? Int)
        #expect(notice["time"] as? Int == layoutEvent.object["time"] as? Int)
        // The new setter, by the credentials the kernel gave and its program's name.
        let by = try #require(notice["by"] as? String)
        #expect(by.hasSuffix("pid \(getpid()) uid \(getuid()) gid \(getgid())"), "\(by)")
        #expect(by.count > "pid \(getpid()) uid \(getuid()) gid \(getgid())".count, "the program's name is missing: \(by)")
        #expect((notice["message"] as? String)?.contains(by) == true)

        // The setter replacing its own layout tells nobody.
        try second.send(Self.layoutSet(3, "again"))
        try harness.settle()
        #expect(second.take().map(\.type) == ["reply"])
        #expect(first.take().isEmpty)

        // Taken back: now the second one is told.
        try first.send(Self.layoutSet(4, "back"))
        try harness.settle()
        #expect(first.take().map(\.type) == ["reply"])
        #expect(second.take().map(\.type) == ["superseded"])
        #expect(watcher.take().map(\.type) == ["layout", "layout"])
    }

    @Test func aSetterThatLeftIsToldNothingAndANewOneIsRemembered() throws {
        let harness = try ServerHarness()
        let first = try harness.connect(), second = try harness.connect(), third = try harness.connect()
        try first.send(Self.layoutSet(1, "first"))
        try harness.settle()
        #expect(first.take().map(\.type) == ["reply"])
        // Gone: the server sees the end of its input and removes it.
        _ = shutdown(first.socket.rawValue, Int32(SHUT_RDWR))
        try harness.settle()

        try second.send(Self.layoutSet(2, "second"))
        try harness.settle()
        #expect(second.take().map(\.type) == ["reply"])
        #expect(third.take().isEmpty)

        try third.send(Self.layoutSet(3, "third"))
        try harness.settle()
        #expect(third.take().map(\.type) == ["reply"])
        #expect(second.take().map(\.type) == ["superseded"])
    }

    @Test func anInvalidLayoutSupersedesNobody() throws {
        let harness = try ServerHarness()
        let first = try harness.connect(), second = try harness.connect()
        try first.send(Self.layoutSet(1, "first"))
        try harness.settle()
        _ = first.take()
        try second.send(#"{"type":"layout.set","id":2,"layout":{"id":"bad","frame":[0,0,-1,100]}}"#)
        try harness.settle()
        #expect(second.take().map(\.type) == ["error"])
        #expect(first.take().isEmpty)
    }

    /// A reload that installs the configuration's layout forgets the setter; one that leaves
    /// the layout as it is does not.
    @Test(arguments: [(true, [String]()), (false, ["superseded"])])
    func aReloadThatReplacesTheLayoutForgetsItsSetter(_ changesLayout: Bool, _ told: [String]) throws {
        let harness = try ServerHarness()
        harness.owner.reloadChangesLayout = changesLayout
        let first = try harness.connect(), second = try harness.connect()
        try first.send(Self.layoutSet(1, "first"))
        try first.send(#"{"type":"reload","id":2}"#)
        try harness.settle()
        #expect(first.take().map(\.type) == ["reply", "reply"])
        try second.send(Self.layoutSet(3, "second"))
        try harness.settle()
        #expect(second.take().map(\.type) == ["reply"])
        #expect(first.take().map(\.type) == told)
    }
}
