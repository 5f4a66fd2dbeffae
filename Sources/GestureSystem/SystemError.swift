#if canImport(Glibc)
import Glibc
#endif

/// A failed system or library call: which call, on what (a device path, a socket path), and
/// the errno it left, with the C library's text for it.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    public var call: String
    public var errno: Int32
    /// What the call was made on (a path), or empty.
    public var subject: String

    public init(call: String, errno: Int32, subject: String = "") {
        self.call = call
        self.errno = errno
        self.subject = subject
    }

    /// `strerror(errno)`.
    public var reason: String { String(cString: strerror(errno)) }

    public var description: String {
        subject.isEmpty ? "\(call) failed: \(reason) (errno \(errno))"
            : "\(call) failed on \(subject): \(reason) (errno \(errno))"
    }
}

/// Runs a call that returns -1 and sets errno on failure, retrying `EINTR`, and throws a
/// ``SystemError`` naming `call` otherwise. Returns the call's non-negative result.
@discardableResult
public func retryingInterrupts<T: BinaryInteger>(_ call: String, subject: String = "",
                                                 _ body: () -> T) throws(SystemError) -> T {
    while true {
        let result = body()
        if result >= 0 { return result }
        let error = Glibc.errno
        if error == EINTR { continue }
        throw SystemError(call: call, errno: error, subject: subject)
    }
}
