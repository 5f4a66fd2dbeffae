#if canImport(Glibc)
import Glibc
#endif

/// The process's resource limits the daemon sizes itself by (getrlimit(2)).
public enum ResourceLimits {
    /// `RLIMIT_NOFILE`: how many descriptors the process may have open (the soft limit, which
    /// is what `EMFILE` enforces, and the hard one it could be raised to); `Int.max` for
    /// `RLIM_INFINITY`. systemd sets both from the unit's `LimitNOFILE=`.
    public static func openFiles() throws(SystemError) -> (soft: Int, hard: Int) {
        var limit = rlimit()
        try systemCall("getrlimit(RLIMIT_NOFILE)") { getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) }
        // RLIM_INFINITY is all ones, which Glibc's module cannot import as a constant.
        func value(_ raw: rlim_t) -> Int { raw > rlim_t(Int.max) ? Int.max : Int(raw) }
        return (value(limit.rlim_cur), value(limit.rlim_max))
    }
}
