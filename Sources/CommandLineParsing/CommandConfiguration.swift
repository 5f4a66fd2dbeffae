/// A command's name and the text its help starts with.
public struct CommandConfiguration: Sendable {
    public var name: String
    public var abstract: String
    public var discussion: String

    public init(name: String, abstract: String, discussion: String = "") {
        (self.name, self.abstract, self.discussion) = (name, abstract, discussion)
    }
}
