/// Every finger down on one screen after one input frame, for an overlay that draws each where
/// it is — including the fingers a recognizer took from their view, which no delivery carries
/// any more (docs/events.md `contacts`). Made only while a subscriber asks
/// (``GesturePipeline/listsContacts``), once per frame in which a contact began, moved or ended.
public struct ContactsEvent: Hashable, Sendable {
    /// The most contacts one event lists: the panel's slots the contact tracker follows
    /// (``ContactTracker/maximumSlots``), so every finger down fits (docs/limits.md).
    public static let maximumContacts = ContactTracker.maximumSlots

    public var time: Timestamp
    /// The fingers down, and those that lifted or were cancelled in this frame, in the order
    /// their touches began; at most ``maximumContacts``.
    public var contacts: [Contact]

    public init(time: Timestamp, contacts: [Contact]) {
        (self.time, self.contacts) = (time, contacts)
    }

    /// One finger of a ``ContactsEvent``.
    public struct Contact: Hashable, Sendable {
        /// The touch's id, as its `touches` and `gesture` events name it.
        public var id: TouchID
        public var phase: Phase
        /// Screen points.
        public var location: Point
        /// The hit view's id (`nil`: the touch hit no view).
        public var view: String?
        /// In the hit view's own coordinates (the screen's when it hit no view).
        public var viewLocation: Point
        /// The recognizer whose gesture has taken the touch (under way, or finished with it in
        /// this frame; the touch part of its gesture), nil when none has; the first in the
        /// touch's order when several have.
        public var recognizer: String?
        /// Where the touch goes, when the configuration routes touches (docs/routing.md).
        public var route: Route?

        public init(id: TouchID, phase: Phase, location: Point, view: String?, viewLocation: Point,
                    recognizer: String?, route: Route?) {
            (self.id, self.phase, self.location, self.view, self.viewLocation, self.recognizer, self.route) =
                (id, phase, location, view, viewLocation, recognizer, route)
        }
    }

    /// What happened to a contact in the frame: `stationary` for a finger down that did not move.
    public enum Phase: String, Hashable, Sendable {
        case began, moved, stationary, ended, cancelled
    }
}
