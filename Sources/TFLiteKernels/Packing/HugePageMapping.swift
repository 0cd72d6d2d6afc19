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
///
/// In a virtual machine whose balloon device reports free memory to the host (virtio-balloon
/// free page reporting, as Firecracker and QEMU offer), huge pages are off unless
/// `LITEVISION_HUGE_PAGES=1` asks for them: the guest hands its free 2 MiB blocks back to the
/// host, so a huge page is mostly a block the host must back afresh on its first write, and
/// clearing it cost up to 3 ms (AMD Zen 4 Firecracker VM, 2026-11-28). Cold starts a few
/// seconds apart there: MediaPipe's hand landmark model 78 ms with huge pages against 32
/// without, its pose detector 133 against 106, face_detection_full_range 24 against 14;
/// efficientnet_lite0 16 against 21 and ssd_fish_uint8 were the models they still helped.
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
    /// pages, the environment does not opt out, and the host does not take free blocks back
    /// unless the environment opts in (``isOffered(kernelSetting:environment:freePagesReported:)``,
    /// decided once per process; another OS gives false).
    public static let isAvailable: Bool = {
        #if os(Linux)
        let balloonFeatures = directoryEntries(balloonDevices).filter { $0.hasPrefix("virtio") }
            .compactMap { firstLine(of: balloonDevices + "/" + $0 + "/features") }
        return isOffered(kernelSetting: firstLine(of: "/sys/kernel/mm/transparent_hugepage/enabled"),
                         environment: getenv("LITEVISION_HUGE_PAGES").map { String(cString: $0) },
                         freePagesReported: reportsFreePages(balloonFeatures: balloonFeatures))
        #else
        return false
        #endif
    }()

    /// Whether huge pages are used, given the kernel's `enabled` setting (e.g. `always [madvise]
    /// never`; nil when unreadable), `LITEVISION_HUGE_PAGES` (nil when unset) and whether a
    /// balloon device reports free pages to the host: never unless the setting selects `always`
    /// or `madvise`; then never for `0`, `off`, `false` or `no`, always for `1`, `on`, `true` or
    /// `yes`, and otherwise unless free pages are reported. A pure function, for tests.
    public static func isOffered(kernelSetting: String?, environment: String?, freePagesReported: Bool = false) -> Bool {
        guard let kernelSetting, kernelSetting.contains("[always]") || kernelSetting.contains("[madvise]") else { return false }
        switch environment?.lowercased() {
        case "0", "off", "false", "no": return false
        case "1", "on", "true", "yes": return true
        default: return !freePagesReported
        }
    }

    /// Whether one of the virtio balloon devices whose `features` strings are given (sysfs: one
    /// `0`/`1` character per feature bit, bit 0 first) offers free page reporting (bit 5,
    /// `VIRTIO_BALLOON_F_REPORTING`). A pure function, for tests.
    public static func reportsFreePages(balloonFeatures: [String]) -> Bool {
        balloonFeatures.contains { $0.utf8.count > 5 && $0.utf8.dropFirst(5).first == UInt8(ascii: "1") }
    }

    /// Where Linux lists the devices bound to the virtio balloon driver.
    private static let balloonDevices = "/sys/bus/virtio/drivers/virtio_balloon"

    /// The first line of the text file at `path` (at most 255 bytes), or nil when unreadable.
    private static func firstLine(of path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        guard fgets(&line, Int32(line.count), file) != nil else { return nil }
        return String(decoding: line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The names in the directory at `path` (none when it cannot be read).
    private static func directoryEntries(_ path: String) -> [String] {
        #if os(Linux)
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
        #else
        return []
        #endif
    }
}
