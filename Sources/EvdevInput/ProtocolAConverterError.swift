/// A libmtdev call that failed while setting up a `ProtocolAConverter`, with the call's name,
/// its errno and the device it was for.
public struct ProtocolAConverterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C function that failed (`mtdev_new`, `mtdev_init`).
    public var call: String
    /// The errno it reported (`ENOMEM` when `mtdev_new` returned NULL).
    public var errno: Int32
    /// The name of the device the converter was for.
    public var device: String

    public var description: String {
        "\(call) failed with errno \(errno) while setting up protocol A conversion for \"\(device)\""
    }
}
