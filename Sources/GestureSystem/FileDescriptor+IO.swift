#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Reading, writing and closing on swift-system's `FileDescriptor`, with the project's error
/// (``SystemError``: errno and the call's name) and the non-blocking outcomes the event loop
/// needs spelled out instead of hidden in errno.
extension FileDescriptor {
    /// Opens `path` (open(2), through swift-system, `EINTR` retried).
    public static func open(path: String, _ mode: AccessMode, options: OpenOptions = [.closeOnExec],
                            permissions: FilePermissions? = nil) throws(SystemError) -> FileDescriptor {
        try mapErrno("open", subject: path) {
            try FileDescriptor.open(FilePath(path), mode, options: options, permissions: permissions)
        }
    }

    /// read(2): the count read (0 at the end of the stream), or `nil` when a non-blocking
    /// descriptor has nothing now (`EAGAIN`). `EINTR` is retried.
    public func readAvailable(into buffer: UnsafeMutableRawBufferPointer, subject: String = "") throws(SystemError) -> Int? {
        do {
            return try read(into: buffer, retryOnInterrupt: true)
        } catch let error as Errno where error == .wouldBlock || error == .resourceTemporarilyUnavailable {
            return nil
        } catch let error as Errno {
            throw SystemError(call: "read", errno: error, subject: subject)
        } catch {
            throw SystemError(call: "read", errno: .ioError, subject: subject)
        }
    }

    /// read(2) into the whole of `buffer`, as the form with a buffer pointer does.
    public func readAvailable(into buffer: inout [UInt8], subject: String = "") throws(SystemError) -> Int? {
        let result = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SystemError) -> Int? in try readAvailable(into: raw, subject: subject) }
        }
        return try result.get()
    }

    /// Reads one fixed-size record (a timerfd's expiration count, a signalfd_siginfo) with
    /// read(2): `nil` when none is pending (`EAGAIN`); a short read is an error (`EIO`), since
    /// these descriptors return whole records or nothing.
    public func readRecord<T>(_ type: T.Type, call: String) throws(SystemError) -> T? {
        let record = UnsafeMutableRawBufferPointer.allocate(byteCount: MemoryLayout<T>.size,
                                                           alignment: MemoryLayout<T>.alignment)
        defer { record.deallocate() }
        guard let count = try readAvailable(into: record, subject: call) else { return nil }
        guard count == MemoryLayout<T>.size else { throw SystemError(call: call, errno: .ioError) }
        return record.load(as: T.self)
    }

    /// write(2) until every byte is written (short writes and `EINTR` retried), for blocking
    /// descriptors: stdout, stderr, a file being recorded.
    ///
    /// A loop of its own over the bytes in place: swift-system's `writeAll` takes any
    /// sequence, and its generic path (the sequence's type looked up by mangled name, its
    /// contiguous storage asked for through witnesses) cost more than the write's own work,
    /// once a frame for `run --stdout` (docs/performance.md, "Measured reasons behind the
    /// code's shape").
    public func writeAll(_ bytes: [UInt8], subject: String) throws(SystemError) {
        let result = bytes.withUnsafeBytes { buffer -> Errno? in
            var written = 0
            while written < buffer.count {
                do {
                    written += try write(UnsafeRawBufferPointer(rebasing: buffer[written...]), retryOnInterrupt: true)
                } catch let error as Errno {
                    return error
                } catch {
                    // swift-system throws nothing but Errno.
                    return .ioError
                }
            }
            return nil
        }
        if let result { throw SystemError(call: "write", errno: result, subject: subject) }
    }

    /// write(2) of all of `buffer`, in place (the virtual panel's converted events), `EINTR`
    /// retried, a short write continued.
    public func writeAll(_ buffer: UnsafeRawBufferPointer, subject: String) throws(SystemError) {
        var written = 0
        while written < buffer.count {
            do {
                written += try write(UnsafeRawBufferPointer(rebasing: buffer[written...]), retryOnInterrupt: true)
            } catch let error as Errno {
                throw SystemError(call: "write", errno: error, subject: subject)
            } catch {
                // swift-system throws nothing but Errno.
                throw SystemError(call: "write", errno: .ioError, subject: subject)
            }
        }
    }

    /// send(2) with `MSG_NOSIGNAL | MSG_DONTWAIT` on a connected socket: the count sent, or
    /// `nil` when the socket buffer is full (`EAGAIN`). A vanished peer is `EPIPE`, never
    /// `SIGPIPE`. `EINTR` is retried.
    public func sendNonBlocking(_ bytes: [UInt8]) throws(SystemError) -> Int? {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(SystemError) -> Int? in try sendNonBlocking(buffer) }
        }
        return try result.get()
    }

    /// ``sendNonBlocking(_:)-([UInt8])`` of the bytes `buffer` points to.
    public func sendNonBlocking(_ buffer: UnsafeRawBufferPointer) throws(SystemError) -> Int? {
        while true {
            let sent = Glibc.send(rawValue, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            if sent >= 0 { return sent }
            let error = SystemError.currentErrno
            switch error {
            case .interrupted: continue
            case .wouldBlock, .resourceTemporarilyUnavailable: return nil
            default: throw SystemError(call: "send", errno: error)
            }
        }
    }

    /// Makes the descriptor non-blocking and close-on-exec (fcntl(2) `F_GETFL`/`F_SETFL`
    /// `O_NONBLOCK`, `F_SETFD` `FD_CLOEXEC`): for descriptors this process did not open itself
    /// (accepted connections, a socket systemd passed).
    public func makeNonBlockingAndCloseOnExec(subject: String = "") throws(SystemError) {
        let flags = try systemCall("fcntl(F_GETFL)", subject: subject) { fcntl(rawValue, F_GETFL) }
        try systemCall("fcntl(F_SETFL)", subject: subject) { fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) }
        try systemCall("fcntl(F_SETFD)", subject: subject) { fcntl(rawValue, F_SETFD, FD_CLOEXEC) }
    }

    /// close(2) of a descriptor that only reads or signals (a socket, a pipe, a timerfd, an
    /// epoll or inotify instance, an input device). Its error is not worth acting on: Linux
    /// releases the descriptor whatever close returns (retrying could close another one), and
    /// nothing written can be lost on these. Files being written use ``closeAfterWriting(subject:)``.
    public func closeReleasing() {
        _ = try? close()
    }

    /// close(2) of a file this process wrote: an error (`EIO`, `ENOSPC` on NFS) means data was
    /// lost, and the caller must say so.
    public func closeAfterWriting(subject: String) throws(SystemError) {
        try mapErrno("close", subject: subject) { try close() }
    }
}
