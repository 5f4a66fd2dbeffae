import CMosquitto
import FleetBridge

/// One libmosquitto client, driven by the sidecar's event loop on its one thread
/// (docs/fleet.md, "One thread"): the caller watches ``socket`` and calls ``read()``,
/// ``write()`` and ``misc()``; libmosquitto runs the callbacks inside those calls, on that
/// same thread, so nothing here is shared between threads and nothing needs a lock.
/// mosquitto_loop_start (libmosquitto's own thread) is never used.
final class MosquittoClient {
    private let handle: OpaquePointer
    var onConnect: (Int32) -> Void = { _ in }
    var onDisconnect: (Int32) -> Void = { _ in }
    var onPublish: (Int32) -> Void = { _ in }
    var onMessage: (String, [UInt8], Bool) -> Void = { _, _, _ in }
    /// libmosquitto's last error-level log line (an OpenSSL verification failure says why only
    /// there), for the sidecar's one line about a failed connection.
    private(set) var lastError: String?

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A libmosquitto error code (`mosq_err_t`).
    struct Code: Error, CustomStringConvertible {
        var rawValue: Int32
        var description: String { MosquittoClient.describe(rawValue) }
    }

    init(clientID: String, settings: FleetSettings, username: String?, password: String?,
         will: OutboundMessage) throws(Failure) {
        mosquitto_lib_init()
        guard let handle = mosquitto_new(clientID, true, nil) else {
            throw Failure(description: "mosquitto_new failed (out of memory)")
        }
        self.handle = handle
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        try check(mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311), "protocol version")
        if username != nil || password != nil {
            try check(mosquitto_username_pw_set(handle, username, password), "username and password")
        }
        try check(will.payload.withUnsafeBytes {
            mosquitto_will_set(handle, will.topic, Int32($0.count), $0.baseAddress, will.qos, will.retain)
        }, "last will")
        if let tls = settings.tls {
            try check(mosquitto_tls_set(handle, tls.caFile, nil, tls.certificateFile, tls.keyFile, nil),
                      "TLS files (broker.tls)")
        }
        mosquitto_connect_callback_set(handle) { _, object, code in
            MosquittoClient.from(object).onConnect(code)
        }
        mosquitto_disconnect_callback_set(handle) { _, object, code in
            MosquittoClient.from(object).onDisconnect(code)
        }
        mosquitto_publish_callback_set(handle) { _, object, mid in
            MosquittoClient.from(object).onPublish(mid)
        }
        mosquitto_message_callback_set(handle) { _, object, message in
            guard let message = message?.pointee, let topic = message.topic else { return }
            let payload = message.payloadlen > 0 && message.payload != nil
                ? Array(UnsafeRawBufferPointer(start: message.payload, count: Int(message.payloadlen))) : []
            MosquittoClient.from(object).onMessage(String(cString: topic), payload, message.retain)
        }
        mosquitto_log_callback_set(handle) { _, object, level, text in
            guard level & (MOSQ_LOG_ERR | MOSQ_LOG_WARNING) != 0, let text else { return }
            MosquittoClient.from(object).lastError = String(cString: text)
        }
    }

    deinit {
        mosquitto_destroy(handle)
    }

    private static func from(_ object: UnsafeMutableRawPointer?) -> MosquittoClient {
        Unmanaged<MosquittoClient>.fromOpaque(object!).takeUnretainedValue()
    }

    private func check(_ code: Int32, _ what: String) throws(Failure) {
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            throw Failure(description: "\(what): \(Self.describe(code))")
        }
    }

    static func describe(_ code: Int32) -> String {
        String(cString: mosquitto_strerror(code))
    }

    static func describeConnack(_ code: Int32) -> String {
        String(cString: mosquitto_connack_string(code))
    }

    func clearLastError() { lastError = nil }

    /// Starts connecting without blocking (the TCP connect and TLS handshake go on in
    /// ``read()``/``write()``); `address` as in the settings. A host name is resolved here
    /// (getaddrinfo, blocking): give the broker's address, or a name /etc/hosts resolves, where
    /// DNS may hang.
    func connect(_ address: FleetSettings.BrokerAddress, keepalive: Int, first: Bool) -> Int32 {
        if !first { return mosquitto_reconnect_async(handle) }
        switch address {
        case .tcp(let host, let port): return mosquitto_connect_async(handle, host, Int32(port), Int32(keepalive))
        }
    }

    var socket: Int32 { mosquitto_socket(handle) }
    var wantsWrite: Bool { mosquitto_want_write(handle) }

    func read() -> Int32 { mosquitto_loop_read(handle, 1) }
    func write() -> Int32 { mosquitto_loop_write(handle, 1) }
    func misc() -> Int32 { mosquitto_loop_misc(handle) }

    /// mosquitto_publish; the message id (for ``onPublish``) or the error code.
    func publish(_ message: OutboundMessage) -> Result<Int32, Code> {
        var mid: Int32 = 0
        let code = message.payload.withUnsafeBytes {
            mosquitto_publish(handle, &mid, message.topic, Int32($0.count), $0.baseAddress, message.qos, message.retain)
        }
        return code == MOSQ_ERR_SUCCESS.rawValue ? .success(mid) : .failure(Code(rawValue: code))
    }

    func subscribe(_ topic: String, qos: Int32) -> Int32 {
        mosquitto_subscribe(handle, nil, topic, qos)
    }

    func disconnect() -> Int32 { mosquitto_disconnect(handle) }
}
