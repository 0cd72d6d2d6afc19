/// A deterministic share of a work-item list: shard `index` of `count` owns the items whose
/// ordinal `k` (position among the list's items, from 0) satisfies `k % count == index`.
///
/// Round-robin by ordinal needs no look-ahead (works on a stream), gives shards sizes that
/// differ by at most one, and keeps every existing item in its shard when items are appended
/// to the list. Every item belongs to exactly one shard.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// This shard's number, `0..<count`.
    public let index: Int
    /// How many shards the list is split into.
    public let count: Int

    /// The whole list as one shard.
    public static let all = Shard(validIndex: 0, count: 1)

    /// Creates shard `index` of `count`.
    /// - Throws: ``BatchRunError/invalidOptions(_:)`` unless `count >= 1` and `0 <= index < count`.
    public init(index: Int, count: Int) throws {
        guard count >= 1 else { throw BatchRunError.invalidOptions("the shard count must be at least 1 (got \(count))") }
        guard (0..<count).contains(index) else {
            throw BatchRunError.invalidOptions("the shard index must be in 0..<\(count) (got \(index))")
        }
        self.index = index
        self.count = count
    }

    private init(validIndex: Int, count: Int) {
        index = validIndex
        self.count = count
    }

    /// Parses `I/N` (e.g. `3/8`).
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw BatchRunError.invalidOptions("a shard is written I/N, e.g. 0/4 (got \(text))")
        }
        try self.init(index: index, count: count)
    }

    /// The shard to process given the options and the environment, in this order:
    /// `--shard I/N`; else `JOB_COMPLETION_INDEX` (set by Kubernetes Indexed Jobs) with the total
    /// from `shardCount` or the `LITEVISION_SHARD_COUNT` variable; else the whole list.
    /// - Throws: ``BatchRunError/invalidOptions(_:)`` for malformed values, or a completion
    ///   index without a total (processing the whole list in every pod would multiply the work).
    public static func resolve(option: String?, shardCount: Int?, environment: [String: String]) throws -> Shard {
        if let option {
            let shard = try Shard(parsing: option)
            if let shardCount, shardCount != shard.count {
                throw BatchRunError.invalidOptions("--shard \(option) contradicts --shard-count \(shardCount)")
            }
            return shard
        }
        guard let indexText = environment["JOB_COMPLETION_INDEX"] else {
            if let shardCount, shardCount != 1 {
                throw BatchRunError.invalidOptions("--shard-count needs --shard I/N or JOB_COMPLETION_INDEX")
            }
            return .all
        }
        guard let index = Int(indexText) else {
            throw BatchRunError.invalidOptions("JOB_COMPLETION_INDEX must be an integer (got \(indexText))")
        }
        var count = shardCount
        if count == nil, let countText = environment["LITEVISION_SHARD_COUNT"] {
            guard let parsed = Int(countText) else {
                throw BatchRunError.invalidOptions("LITEVISION_SHARD_COUNT must be an integer (got \(countText))")
            }
            count = parsed
        }
        guard let count else {
            throw BatchRunError.invalidOptions(
                "JOB_COMPLETION_INDEX is set but the shard total is not: pass --shard-count N or set LITEVISION_SHARD_COUNT (the Job's completions)")
        }
        return try Shard(index: index, count: count)
    }

    /// Whether the item at `ordinal` belongs to this shard.
    public func owns(ordinal: Int) -> Bool { ordinal % count == index }

    /// `I/N`.
    public var description: String { "\(index)/\(count)" }
}
