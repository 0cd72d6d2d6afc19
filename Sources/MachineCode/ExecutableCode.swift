#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Machine code in pages of its own, executable and never writable at the same time (W^X):
/// the bytes are copied into read-write pages, which are then switched to read+execute.
/// The pages are unmapped when the last reference goes away, so callers must keep the object
/// alive while any function pointer into it may run.
public final class ExecutableCode: @unchecked Sendable {
    /// Why executable memory could not be made.
    public enum Failure: Error, Equatable, Sendable {
        /// This platform has no way here to map executable pages.
        case unsupportedPlatform
        /// `mmap` refused read-write pages (errno).
        case mapFailed(Int32)
        /// `mprotect` refused read+execute (errno): the OS forbids generated code.
        case protectFailed(Int32)
    }

    /// Start of the code (read+execute).
    public let base: UnsafeRawPointer
    /// Bytes of code.
    public let count: Int
    private let mappedBytes: Int

    /// Maps `code` executable. `code` must be non-empty.
    /// - Throws: `Failure` when the OS does not give executable pages.
    public init(_ code: [UInt8]) throws {
        precondition(!code.isEmpty, "no code to map")
        #if (os(Linux) || os(macOS)) && arch(x86_64)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let size = (code.count + page - 1) / page * page
        guard let raw = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              raw != MAP_FAILED else { throw Failure.mapFailed(errno) }
        code.withUnsafeBytes { raw.copyMemory(from: $0.baseAddress!, byteCount: code.count) }
        guard mprotect(raw, size, PROT_READ | PROT_EXEC) == 0 else {
            let error = errno
            munmap(raw, size)
            throw Failure.protectFailed(error)
        }
        base = UnsafeRawPointer(raw)
        count = code.count
        mappedBytes = size
        #else
        throw Failure.unsupportedPlatform
        #endif
    }

    /// The address `offset` bytes into the code (a function entry).
    /// Precondition: `offset < count`.
    public func address(at offset: Int) -> UnsafeRawPointer {
        precondition(offset >= 0 && offset < count, "entry outside the code")
        return base + offset
    }

    /// Names the functions in this code for profilers: when the environment variable
    /// `LITEVISION_PERF_MAP` is `1`, appends one line per function ("start size name", hex) to
    /// `/tmp/perf-<pid>.map`, the file Linux `perf` reads for code it finds no symbols for.
    /// Does nothing otherwise, or when the file cannot be written (profiling is best effort).
    /// - Parameter symbols: each function's name and entry offset, in any order; a function ends
    ///   where the next by offset begins (the last at `count`). Of names given the same offset,
    ///   all but the last are functions left empty (not generated at this level).
    public func describeForProfilers(_ symbols: [(name: String, offset: Int)]) {
        #if os(Linux)
        guard let flag = getenv("LITEVISION_PERF_MAP"), String(cString: flag) == "1",
              let file = fopen("/tmp/perf-\(getpid()).map", "a") else { return }
        defer { fclose(file) }
        // By address; names at one address keep their order (all but the last are empty functions).
        let ordered = symbols.enumerated()
            .sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }.map(\.element)
        for (index, symbol) in ordered.enumerated() where symbol.offset >= 0 && symbol.offset < count {
            let end = index + 1 < ordered.count ? min(ordered[index + 1].offset, count) : count
            guard end > symbol.offset else { continue }
            let start = UInt(bitPattern: base + symbol.offset)
            fputs("\(String(start, radix: 16)) \(String(end - symbol.offset, radix: 16)) \(symbol.name)\n", file)
        }
        #endif
    }

    deinit {
        #if (os(Linux) || os(macOS)) && arch(x86_64)
        munmap(UnsafeMutableRawPointer(mutating: base), mappedBytes)
        #endif
    }
}
