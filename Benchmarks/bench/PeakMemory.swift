import Foundation

/// The process's peak resident set size. On Linux the peak can be reset between models
/// (`/proc/self/clear_refs`), so each row reports its own peak; elsewhere, and when the reset
/// is not permitted, the value is the process-wide peak so far (``isPerRow`` tells which).
enum PeakMemory {
    /// Whether the last ``reset()`` succeeded, i.e. peaks are per benchmark row.
    nonisolated(unsafe) private(set) static var isPerRow = false

    /// Resets the recorded peak to the current resident size when the system allows it.
    static func reset() {
        #if os(Linux)
        isPerRow = FileManager.default.isWritableFile(atPath: "/proc/self/clear_refs")
            && ((try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil)
        #else
        isPerRow = false
        #endif
    }

    /// Peak resident set size in bytes: `VmHWM` on Linux, else `getrusage`'s maximum.
    static func peakBytes() -> Int {
        #if os(Linux)
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
           let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) {
            return kilobytes * 1024
        }
        #endif
        guard let usage = processResourceUsage() else { return 0 }
        #if os(Linux)
        return Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
        #else
        return Int(usage.ru_maxrss)  // bytes on Darwin
        #endif
    }
}

/// `getrusage(RUSAGE_SELF)`, or nil when the call fails.
func processResourceUsage() -> rusage? {
    var usage = rusage()
    #if os(Linux)
    let who = __rusage_who_t(RUSAGE_SELF.rawValue)
    #else
    let who = RUSAGE_SELF
    #endif
    return getrusage(who, &usage) == 0 ? usage : nil
}
