@testable import BatchDetection
import XCTest

/// Shards: every item in exactly one shard, `I/N` parsing, and the Kubernetes environment.
final class ShardTests: XCTestCase {
    func testEveryItemIsInExactlyOneShardForSeveralCounts() throws {
        for count in [1, 2, 3, 4, 7, 16, 250] {
            let shards = try (0..<count).map { try Shard(index: $0, count: count) }
            var sizes = [Int](repeating: 0, count: count)
            for ordinal in 0..<1000 {
                let owners = shards.filter { $0.owns(ordinal: ordinal) }
                XCTAssertEqual(owners.count, 1, "item \(ordinal) with \(count) shards")
                sizes[owners[0].index] += 1
            }
            XCTAssertLessThanOrEqual(sizes.max()! - sizes.min()!, 1, "shard sizes \(sizes) are balanced")
        }
    }

    func testParsingIOverN() throws {
        XCTAssertEqual(try Shard(parsing: "3/8"), try Shard(index: 3, count: 8))
        for bad in ["8/8", "-1/4", "1/0", "1", "a/b", "1/2/3", ""] {
            XCTAssertThrowsError(try Shard(parsing: bad), bad)
        }
    }

    func testKubernetesIndexedJobEnvironment() throws {
        XCTAssertEqual(try Shard.resolve(option: nil, shardCount: nil, environment: [:]), .all)
        XCTAssertEqual(try Shard.resolve(option: nil, shardCount: 5, environment: ["JOB_COMPLETION_INDEX": "2"]),
                       try Shard(index: 2, count: 5))
        XCTAssertEqual(try Shard.resolve(option: nil, shardCount: nil,
                                         environment: ["JOB_COMPLETION_INDEX": "4", "LITEVISION_SHARD_COUNT": "6"]),
                       try Shard(index: 4, count: 6))
        XCTAssertEqual(try Shard.resolve(option: "1/3", shardCount: nil, environment: ["JOB_COMPLETION_INDEX": "0"]),
                       try Shard(index: 1, count: 3), "--shard wins over the environment")
        XCTAssertThrowsError(try Shard.resolve(option: nil, shardCount: nil, environment: ["JOB_COMPLETION_INDEX": "1"]),
                             "an index without a total would process everything in every pod")
        XCTAssertThrowsError(try Shard.resolve(option: nil, shardCount: 3, environment: ["JOB_COMPLETION_INDEX": "3"]))
        XCTAssertThrowsError(try Shard.resolve(option: "1/3", shardCount: 4, environment: [:]))
        XCTAssertThrowsError(try Shard.resolve(option: nil, shardCount: 4, environment: [:]))
    }
}
