#if canImport(Glibc)
import Glibc
#endif

/// The terminal standard output writes to, for text laid out to its width (help).
public enum Terminal {
    /// Columns to lay text out in: `$COLUMNS` when it is a number (environ(7): it overrides the
    /// terminal's size), else the width ioctl(2) `TIOCGWINSZ` reports for standard output, else
    /// 80 (not a terminal: a pipe, a file).
    public static func columns() -> Int {
        if let text = getenv("COLUMNS"), let columns = Int(String(cString: text)) { return columns }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
