#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// A failed system or library call: which call, on what (a device path, a socket path), and
/// the errno it left, with the C library's text for it.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    public var call: String
    public var errno: Errno
    /// What the call was made on (a path), or empty.
    public var subject: String

    public init(call: String, errno: Errno, subject: String = "") {
        (self.call, self.errno, self.subject) = (call, errno, subject)
    }

    /// `strerror(errno)`.
    public var reason: String { String(cString: strerror(errno.rawValue)) }

    public var description: String {
        subject.isEmpty ? "\(call) failed: \(reason) (errno \(errno.rawValue))"
            : "\(call) failed on \(subject): \(reason) (errno \(errno.rawValue))"
    }

    /// The errno the C library left in this thread.
    public static var currentErrno: Errno { Errno(rawValue: Glibc.errno) }
}

/// Runs a call that returns -1 and sets errno on failure, retrying `EINTR`, and throws a
/// ``SystemError`` naming `call` otherwise. Returns the call's non-negative result. Every raw
/// call of the project goes through this or a wrapper built on it, in this module.
@discardableResult
public func systemCall<T: BinaryInteger>(_ call: String, subject: String = "",
                                         _ body: () -> T) throws(SystemError) -> T {
    while true {
        let result = body()
        if result >= 0 { return result }
        let error = SystemError.currentErrno
        if error == .interrupted { continue }
        throw SystemError(call: call, errno: error, subject: subject)
    }
}

/// Maps the untyped `Errno` that swift-system's `FileDescriptor` methods throw to a
/// ``SystemError`` naming the call.
func mapErrno<T>(_ call: String, subject: String = "", _ body: () throws -> T) throws(SystemError) -> T {
    do {
        return try body()
    } catch let error as Errno {
        throw SystemError(call: call, errno: error, subject: subject)
    } catch {
        // swift-system throws nothing but Errno.
        throw SystemError(call: call, errno: .ioError, subject: subject)
    }
}
