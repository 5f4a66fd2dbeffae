#if canImport(Glibc)
import Glibc
#endif
import GestureSystem
import SystemPackage

/// The udev properties the virtual panel takes from the panel: those that place it on a screen
/// (`LIBINPUT_CALIBRATION_MATRIX`, `WL_OUTPUT`) or a seat (`WL_SEAT`, `ID_SEAT`). A uinput
/// device has no parent a local rule could match on, so gestured writes the panel's values to
/// a file in its runtime directory before it creates the copy, and the package's udev rule
/// (`systemd/70-gestured-touchscreen.rules`) imports that file into the copy's entry
/// (`IMPORT{file}`) and marks it ``marker``=1 (docs/routing.md, "udev properties").
///
/// The fuzz is not among them: the copy declares the panel's own fuzz (``PanelCopy``) and
/// libinput's own rule moves it into `LIBINPUT_FUZZ_*` on the copy as it did on the panel.
public enum PanelCopyProperties {
    /// The property the package's rule sets on every copy.
    public static let marker = "GESTURED_PANEL_COPY"
    /// The panel's properties the copy takes, when the panel has them.
    public static let copied = ["LIBINPUT_CALIBRATION_MATRIX", "WL_OUTPUT", "WL_SEAT", "ID_SEAT"]
    /// The file the package's rule imports (the service's `RuntimeDirectory=gestured`).
    public static let defaultFile = "/run/gestured/panel-copy.properties"
    /// A value longer than this is not copied (udev's own line limit is larger; a matrix is
    /// about 60 bytes, an output name a few).
    public static let maximumValueBytes = 256

    /// The file's text: one `KEY="VALUE"` line per copied property the panel has, in
    /// ``copied``'s order. A value with a quote, a backslash or a control character, or
    /// longer than ``maximumValueBytes``, is left out (udev's `KEY="VALUE"` has no escapes).
    public static func contents(from panel: [String: String]?) -> (text: String, skipped: [String]) {
        var text = ""
        var skipped: [String] = []
        for key in copied {
            guard let value = panel?[key] else { continue }
            guard value.utf8.count <= maximumValueBytes, !value.utf8.contains(where: isUnwritable) else {
                skipped.append(key)
                continue
            }
            text += "\(key)=\"\(value)\"\n"
        }
        return (text, skipped)
    }

    /// A byte udev's `KEY="VALUE"` cannot carry: a control character, a quote or a backslash.
    private static func isUnwritable(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7f || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Writes `text` to `path` whole: to `path.new`, then renamed over `path`, so udev never
    /// reads half a file.
    public static func write(_ text: String, to path: String) throws(SystemError) {
        let temporary = path + ".new"
        let fd = try FileDescriptor.open(path: temporary, .writeOnly, options: [.create, .truncate, .closeOnExec],
                                         permissions: [.ownerReadWrite, .groupRead, .otherRead])
        do {
            try fd.writeAll(Array(text.utf8), subject: temporary)
        } catch {
            fd.closeReleasing()
            throw error
        }
        try fd.closeAfterWriting(subject: temporary)
        try systemCall("rename", subject: path) { rename(temporary, path) }
    }
}
