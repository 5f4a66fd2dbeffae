#if canImport(Glibc)
import Glibc
#endif
import FleetBridge
import GestureServer
import GestureSystem
import SystemPackage

/// The sidecar's connection to gestured's socket, as a client like any other
/// (docs/protocol.md): non-blocking, read whenever readable, so the daemon never waits on the
/// sidecar (its lines are cut as they come and handed on at once; the broker's pace is the
/// queue's business). Requests wait in a small buffer until the socket takes them.
final class DaemonConnection {
    let descriptor: FileDescriptor
    private var framer = LineFramer(maxLineLength: FleetLimits.lineLimit)
    private var readBuffer = [UInt8](repeating: 0, count: 64 << 10)
    private var output: [UInt8] = []
    private var written = 0
    /// Touch deliveries read and not parsed (``DaemonLine/isTouchesWithoutBegan(_:)``).
    private(set) var skipped: UInt64 = 0

    init(path: String) throws(SystemError) {
        let address: UnixSocketAddress
        do {
            address = try UnixSocketAddress(path)
        } catch {
            throw SystemError(call: "connect", errno: .invalidArgument, subject: "\(path) (longer than a socket path may be)")
        }
        descriptor = try UnixSocket.open(.stream, nonBlocking: true, subject: path)
        do {
            try descriptor.connect(to: address)
        } catch {
            try? descriptor.close()
            throw error
        }
    }

    func close() { try? descriptor.close() }

    enum ReadResult {
        case lines([DaemonLine])
        case closed(String)
    }

    /// Everything readable now, cut into lines.
    func read() -> ReadResult {
        var lines: [DaemonLine] = []
        while true {
            let count: Int?
            do {
                count = try descriptor.readAvailable(into: &readBuffer, subject: "gestured's socket")
            } catch {
                return .closed("\(error)")
            }
            guard let count else { break }
            if count == 0 { return lines.isEmpty ? .closed("the daemon closed the connection") : .lines(lines) }
            framer.append(readBuffer[..<count])
            while let output = framer.nextRawLine() {
                switch output {
                case .line(let bytes):
                    if DaemonLine.isTouchesWithoutBegan(bytes) {
                        skipped += 1
                    } else {
                        lines.append(DaemonLine.parse(bytes))
                    }
                case .tooLong: return .closed("the daemon sent a line over \(FleetLimits.lineLimit) bytes")
                }
            }
            if count < readBuffer.count { break }
        }
        return .lines(lines)
    }

    func send(_ line: [UInt8]) {
        output += line
    }

    var wantsWrite: Bool { written < output.count }

    /// Writes what the socket takes; false when the connection failed.
    func flush() -> Bool {
        while written < output.count {
            do {
                let count = try output[written...].withUnsafeBytes { try descriptor.write($0) }
                written += count
            } catch let error as Errno where error == .wouldBlock || error == .interrupted {
                if error == .interrupted { continue }
                return true
            } catch {
                return false
            }
        }
        output.removeAll(keepingCapacity: output.capacity <= 64 << 10)
        written = 0
        return true
    }
}
