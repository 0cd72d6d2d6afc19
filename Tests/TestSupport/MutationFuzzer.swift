import Foundation

/// A bounded, seeded mutation fuzzer for readers of untrusted bytes (PNG, y4m, `.npy`,
/// manifests, models). Each execution mutates a seed (byte flips, interesting values,
/// truncation, duplication of a span, insertion) and hands it to the body; the body returns
/// normally or throws, and anything else (a trap, an allocation failure) kills the process.
///
/// - Before any mutation it replays the seeds, then every file saved in the replay corpus
///   ``replayDirectory(name:)`` (`Tests/Fixtures/fuzz/<name>/`): inputs that once crashed the
///   target, saved there by `Scripts/fuzz.sh formats` (never copied by hand). A saved input that
///   crashes again fails every test run until the bug is fixed.
/// - `FUZZ_SECONDS` (default 2) bounds the time per target; CI keeps the default,
///   `Scripts/fuzz.sh formats SECONDS` runs longer under memory and time limits, and
///   `FUZZ_SECONDS=0` replays the seeds and the corpus only (`Scripts/fuzz.sh replay-asan`).
/// - When `FUZZ_CRASH_DIR` is set, the input about to run is written to
///   `FUZZ_CRASH_DIR/<name>.current` first, so after a crash the script can save it into the
///   replay corpus.
public struct MutationFuzzer {
    /// Outcome counts of one run.
    public struct Summary: CustomStringConvertible {
        public var executions = 0
        public var rejected = 0
        public var accepted = 0
        /// Saved inputs of the replay corpus that ran (included in ``executions``).
        public var replayed = 0
        public var description: String {
            "\(executions) executions (\(rejected) rejected, \(accepted) accepted, \(replayed) replayed from the corpus), 0 crashes"
        }
    }

    private let name: String
    private let seeds: [[UInt8]]
    /// The saved inputs of the replay corpus, replayed after the seeds and never mutated.
    private let replays: [[UInt8]]
    private var rng: SeededGenerator

    /// A fuzzer named `name` (used in the printed summary and the reproducer file name) that
    /// replays the saved inputs in `replayDirectory` (default ``replayDirectory(name:)``).
    public init(name: String, seeds: [[UInt8]], seed: UInt64 = 17, replayDirectory: URL? = nil) {
        precondition(!seeds.isEmpty, "a fuzzer needs at least one seed")
        self.name = name
        self.seeds = seeds
        replays = Self.savedInputs(in: replayDirectory ?? Self.replayDirectory(name: name))
        rng = SeededGenerator(seed: seed)
    }

    /// `Tests/Fixtures/fuzz/<name>/`: the inputs that crashed the target named `name`.
    public static func replayDirectory(name: String) -> URL {
        TestPaths.fixturesDirectory.appendingPathComponent("fuzz").appendingPathComponent(name)
    }

    /// Every file of `directory` (hidden files and `README.md` aside), in name order; none when
    /// the directory is absent.
    public static func savedInputs(in directory: URL) -> [[UInt8]] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted()
        return names.compactMap { try? [UInt8](Data(contentsOf: directory.appendingPathComponent($0))) }
    }

    /// Seconds per target from `FUZZ_SECONDS` (default 2).
    public static var budget: Double {
        Double(ProcessInfo.processInfo.environment["FUZZ_SECONDS"] ?? "") ?? 2
    }

    /// Runs `body` on the seeds, then on the saved inputs of the replay corpus, then on
    /// mutations of the seeds until the time budget is spent.
    @discardableResult
    public mutating func run(seconds: Double = MutationFuzzer.budget, _ body: ([UInt8]) throws -> Void) -> Summary {
        let crashFile = ProcessInfo.processInfo.environment["FUZZ_CRASH_DIR"].map { "\($0)/\(name).current" }
        // One descriptor rewritten in place: a few microseconds per input, not a file creation.
        let crashDescriptor = crashFile.map { open($0, O_CREAT | O_WRONLY | O_TRUNC, 0o644) } ?? -1
        var summary = Summary()
        summary.replayed = replays.count
        let end = Date().addingTimeInterval(seconds)
        var index = 0
        let fixed = seeds + replays
        while index < fixed.count || Date() < end {
            let input = index < fixed.count ? fixed[index] : mutate(seeds[Int.random(in: 0..<seeds.count, using: &rng)])
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
