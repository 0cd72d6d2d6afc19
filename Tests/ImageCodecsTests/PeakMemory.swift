import Foundation

/// The peak resident memory of the test process so far, in bytes (`getrusage`): a test that
/// must not allocate an image's pixels compares it before and after (the peak never drops, so
/// only a rise above the earlier peak shows).
enum PeakMemory {
    static var residentBytes: Int {
        var usage = rusage()
        #if os(Linux)
        _ = getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
        #else
        _ = getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)  // bytes on Darwin
        #endif
    }
}
