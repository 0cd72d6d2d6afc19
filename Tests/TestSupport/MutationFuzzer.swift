import Foundation

/// A bounded, seeded mutation fuzzer for readers of untrusted bytes (PNG, y4m, `.npy`,
/// manifests, models). Each execution mutates a seed (byte flips, interesting values,
/// truncation, duplication of a span, insertion) and hands it to the body; the body returns
/// normally or throws, and anything else (a trap, an allocation failure) kills the process.
///
/// - `FUZZ_SECONDS` (default 2) bounds the time per target; CI keeps the default, and
///   `Scripts/fuzz.sh formats SECONDS` runs longer under memory and time limits.
/// - When `FUZZ_CRASH_DIR` is set, the input about to run is written to
///   `FUZZ_CRASH_DIR/<name>.current` first, so after a crash the script keeps it as a reproducer.
public struct MutationFuzzer {
    /// Outcome counts of one run.
    public struct Summary: CustomStringConvertible {
        public var executions = 0
        public var rejected = 0
        public var accepted = 0
        public var description: String { "\(executions) executions (\(rejected) rejected, \(accepted) accepted), 0 crashes" }
    }

    private let name: String
    private let seeds: [[UInt8]]
    private var rng: SeededGenerator

    /// A fuzzer named `name` (used in the printed summary and the reproducer file name).
    public init(name: String, seeds: [[UInt8]], seed: UInt64 = 17) {
        precondition(!seeds.isEmpty, "a fuzzer needs at least one seed")
        self.name = name
        self.seeds = seeds
        rng = SeededGenerator(seed: seed)
    }

    /// Seconds per target from `FUZZ_SECONDS` (default 2).
    public static var budget: Double {
        Double(ProcessInfo.processInfo.environment["FUZZ_SECONDS"] ?? "") ?? 2
    }

    /// Runs `body` on the seeds, then on mutations until the time budget is spent.
    @discardableResult
    public mutating func run(seconds: Double = MutationFuzzer.budget, _ body: ([UInt8]) throws -> Void) -> Summary {
        let crashFile = ProcessInfo.processInfo.environment["FUZZ_CRASH_DIR"].map { "\($0)/\(name).current" }
        // One descriptor rewritten in place: a few microseconds per input, not a file creation.
        let crashDescriptor = crashFile.map { open($0, O_CREAT | O_WRONLY | O_TRUNC, 0o644) } ?? -1
        var summary = Summary()
        let end = Date().addingTimeInterval(seconds)
        var index = 0
        while index < seeds.count || Date() < end {
            let input = index < seeds.count ? seeds[index] : mutate(seeds[Int.random(in: 0..<seeds.count, using: &rng)])
            index += 1
            if crashDescriptor >= 0 {
                _ = ftruncate(crashDescriptor, 0)
                _ = input.withUnsafeBytes { pwrite(crashDescriptor, $0.baseAddress, $0.count, 0) }
            }
            do { try body(input); summary.accepted += 1 } catch { summary.rejected += 1 }
            summary.executions += 1
        }
        if let crashFile, crashDescriptor >= 0 {
            close(crashDescriptor)
            unlink(crashFile)
        }
        print("fuzz \(name): \(summary)")
        return summary
    }

    private mutating func mutate(_ seed: [UInt8]) -> [UInt8] {
        var bytes = seed
        for _ in 0..<Int.random(in: 1...6, using: &rng) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0 where !bytes.isEmpty:
                bytes[position] ^= UInt8(1) << UInt8.random(in: 0...7, using: &rng)
            case 1 where !bytes.isEmpty:
                bytes[position] = [0, 1, 0x7F, 0x80, 0xFF, 0xFE][Int.random(in: 0..<6, using: &rng)]
            case 2 where bytes.count >= 4:
                // A 32-bit little-endian "interesting" value (sizes, counts, offsets).
                let value: UInt32 = [0, 1, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0x4000_0000][Int.random(in: 0..<6, using: &rng)]
                let start = min(position, bytes.count - 4)
                for k in 0..<4 { bytes[start + k] = UInt8((value >> (8 * UInt32(k))) & 0xFF) }
            case 3:
                bytes.removeLast(Int.random(in: 0...min(bytes.count, 64), using: &rng))
            case 4 where !bytes.isEmpty && bytes.count < 1 << 20:
                let end = min(bytes.count, position + Int.random(in: 1...32, using: &rng))
                bytes.insert(contentsOf: bytes[position..<end], at: position)
            default:
                bytes.insert(UInt8.random(in: 0...255, using: &rng), at: min(position, bytes.count))
            }
        }
        return bytes
    }
}
