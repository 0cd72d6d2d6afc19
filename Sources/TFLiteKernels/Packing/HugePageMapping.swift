#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Zeroed anonymous memory whose start is 2 MiB aligned and whose whole 2 MiB blocks, up to a
/// given size, Linux is asked to back with transparent huge pages (`MADV_HUGEPAGE`): one fault,
/// one allocation and one clear per 2 MiB instead of 512 of each. For memory written whole soon
/// after it is made: the packed weights (``PackingRegion``) and the interpreter's arena.
///
/// The kernel backs a block with a whole huge page when the first byte in it is written, so a
/// block holds all its 2 MiB once touched: ask for huge pages only where the bytes will all be
/// used. The rest of the mapping has 4 KiB pages. Unmapped when the object goes.
///
/// Without transparent huge pages on request (their `enabled` setting is `never`, or not Linux),
/// or with `LITEVISION_HUGE_PAGES=0` in the environment, there is no mapping (`init` fails) and
/// callers allocate as they otherwise would. The opt-out is for servers that would rather not
/// have a model load wait while the kernel compacts memory to find a huge page (its `defrag`
/// setting `madvise`, the usual default, lets it for memory advised so); where it finds none it
/// falls back to 4 KiB pages by itself.
public final class HugePageMapping: @unchecked Sendable {
    /// Size of a transparent huge page on x86-64 and the alignment of ``start``.
    public static var hugePageBytes: Int { 2 << 20 }

    /// Start of the `byteCount` usable bytes, 2 MiB aligned.
    public let start: UnsafeMutableRawPointer
    /// Usable bytes from ``start`` (as asked, rounded up to a whole huge page).
    public let byteCount: Int
    /// What `mmap` returned and its length (unmapped in `deinit`).
    private let mapping: (start: UnsafeMutableRawPointer, byteCount: Int)

    /// Maps `byteCount` zeroed bytes, asking for huge pages on the whole huge pages of the
    /// first `hugeByteCount`; fails when that is none, when the system offers no transparent
    /// huge pages, or when it refuses the mapping. With `reserveOnly`, the mapping is address
    /// space that costs no commit charge until written (`MAP_NORESERVE`).
    public init?(byteCount: Int, hugeByteCount: Int, reserveOnly: Bool = false) {
        #if os(Linux)
        let huge = Self.hugePageBytes
        let hugeBytes = min(byteCount, hugeByteCount) / huge * huge
        guard Self.isAvailable, hugeBytes > 0, byteCount <= Int.max / 2 - huge else { return nil }
        let rounded = (byteCount + huge - 1) / huge * huge
        let length = rounded + huge  // room to align the start
        let flags = MAP_PRIVATE | MAP_ANONYMOUS | (reserveOnly ? MAP_NORESERVE : 0)
        guard let raw = mmap(nil, length, PROT_READ | PROT_WRITE, flags, -1, 0), raw != MAP_FAILED else { return nil }
        let aligned = (Int(bitPattern: raw) + huge - 1) / huge * huge
        guard let start = UnsafeMutableRawPointer(bitPattern: aligned),
              madvise(start, hugeBytes, MADV_HUGEPAGE) == 0 else {
            munmap(raw, length)
            return nil
        }
        mapping = (raw, length)
        self.start = start
        self.byteCount = rounded
        #else
        return nil
        #endif
    }

    deinit { munmap(mapping.start, mapping.byteCount) }

    /// The bytes of a `byteCount` block to put on huge pages: its whole 2 MiB blocks, and one
    /// more when the rest is at least `minimumRest` bytes (the callers' rules: the arena's,
    /// ``AlignedBuffer``, and a ``PackingRegion``'s); 0 for a count that is not positive or
    /// would overflow when rounded up.
    public static func hugeByteCount(for byteCount: Int, roundingUpRestsOf minimumRest: Int) -> Int {
        let huge = hugePageBytes
        guard byteCount > 0, byteCount <= Int.max - huge else { return 0 }
        let whole = byteCount / huge * huge
        return byteCount - whole >= minimumRest ? whole + huge : whole
    }

    /// Gives back the pages of `range` (offsets from ``start``, whole 4 KiB pages inside it):
    /// reading them again gives zeros. A huge page the range cuts is split first.
    public func release(_ range: Range<Int>) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let lower = (max(0, range.lowerBound) + page - 1) / page * page
        let upper = min(byteCount, range.upperBound) / page * page
        guard upper > lower else { return }
        madvise(start + lower, upper - lower, MADV_DONTNEED)
    }

    /// Whether mappings are made: the kernel backs `MADV_HUGEPAGE` memory with transparent huge
    /// pages and the environment does not opt out (``isOffered(kernelSetting:environment:)``,
    /// decided once per process; another OS gives false).
    public static let isAvailable: Bool = {
        #if os(Linux)
        var setting: String?
        if let file = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r") {
            defer { fclose(file) }
            var line = [CChar](repeating: 0, count: 128)
            if fgets(&line, Int32(line.count), file) != nil {
                setting = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        return isOffered(kernelSetting: setting, environment: getenv("LITEVISION_HUGE_PAGES").map { String(cString: $0) })
        #else
        return false
        #endif
    }()

    /// Whether huge pages are used, given the kernel's `enabled` setting (e.g. `always [madvise]
    /// never`; nil when unreadable) and `LITEVISION_HUGE_PAGES` (nil when unset): the setting
    /// selects `always` or `madvise`, and the variable is not `0`, `off`, `false` or `no`.
    /// A pure function, for tests.
    public static func isOffered(kernelSetting: String?, environment: String?) -> Bool {
        if let environment, ["0", "off", "false", "no"].contains(environment.lowercased()) { return false }
        guard let kernelSetting else { return false }
        return kernelSetting.contains("[always]") || kernelSetting.contains("[madvise]")
    }
}
