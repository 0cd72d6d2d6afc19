@testable import TFLiteInterpreter
import TestSupport
import XCTest

final class ChunkSharesTests: XCTestCase {
    /// Each thread claims its own contiguous share first, in order: thread `w` of `n` the
    /// chunks `w·c/n ..< (w+1)·c/n`.
    func testThreadsClaimTheirOwnShareInOrderFirst() {
        var shares = ChunkShares(chunkCount: 8, threadCount: 2)
        XCTAssertEqual(shares.claim(worker: 1), 4)
        XCTAssertEqual(shares.claim(worker: 0), 0)
        XCTAssertEqual(shares.claim(worker: 0), 1)
        XCTAssertEqual(shares.claim(worker: 1), 5)
        var three = ChunkShares(chunkCount: 7, threadCount: 3)
        XCTAssertEqual([2, 1, 0].map { three.claim(worker: $0) }, [4, 2, 0])
    }

    /// A thread whose share is used up takes the last unclaimed chunk of the share with the
    /// most left, and never a chunk already claimed.
    func testIdleThreadStealsFromTheEndOfTheLargestShare() {
        var shares = ChunkShares(chunkCount: 8, threadCount: 2)
        for expected in 0..<4 { XCTAssertEqual(shares.claim(worker: 0), expected) }
        XCTAssertEqual(shares.claim(worker: 0), 7, "steals the last of worker 1's share")
        XCTAssertEqual(shares.claim(worker: 1), 4, "worker 1 still starts at its share's beginning")
        XCTAssertEqual(shares.claim(worker: 0), 6)
        XCTAssertEqual(shares.claim(worker: 1), 5)
        XCTAssertNil(shares.claim(worker: 0))
        XCTAssertNil(shares.claim(worker: 1))
        XCTAssertFalse(shares.hasUnclaimedChunk)
    }

    /// A reset (the pool's one job, reused call after call) claims exactly as fresh shares do,
    /// whatever the earlier call claimed.
    func testResetSharesClaimAsFreshOnes() {
        for threadCount in 1...5 {
            var reused = ChunkShares(chunkCount: 9, threadCount: threadCount)
            for chunkCount in [0, 1, 3, 8, 13, 2] {
                _ = reused.claim(worker: 0)  // leave the earlier call part claimed
                reused.reset(chunkCount: chunkCount)
                var fresh = ChunkShares(chunkCount: chunkCount, threadCount: threadCount)
                XCTAssertEqual(reused.chunkCount, chunkCount)
                for step in 0..<(chunkCount + 2) {
                    let worker = (step * 7) % threadCount
                    XCTAssertEqual(reused.claim(worker: worker), fresh.claim(worker: worker),
                                   "\(threadCount) threads, \(chunkCount) chunks, claim \(step)")
                }
            }
        }
    }

    /// Worker 0's first claim is chunk 0 for any split, fewer chunks than threads included
    /// (the indexed `parallelFor` runs chunk 0 on its caller).
    func testWorkerZerosFirstClaimIsChunkZero() {
        for chunkCount in 1...40 {
            for threadCount in 1...12 {
                var shares = ChunkShares(chunkCount: chunkCount, threadCount: threadCount)
                XCTAssertEqual(shares.claim(worker: 0), 0, "\(chunkCount) chunks, \(threadCount) threads")
            }
        }
    }

    /// Whatever order the threads claim in, every chunk is claimed exactly once, then nil;
    /// more threads than chunks leave some shares empty.
    func testEveryChunkIsClaimedExactlyOnce() {
        var rng = SeededGenerator(seed: 83)
        for chunkCount in [0, 1, 2, 5, 8, 13, 64] {
            for threadCount in [1, 2, 3, 4, 9] {
                var shares = ChunkShares(chunkCount: chunkCount, threadCount: threadCount)
                var claimed: [Int] = []
                while let chunk = shares.claim(worker: Int.random(in: 0..<threadCount, using: &rng)) { claimed.append(chunk) }
                XCTAssertEqual(claimed.sorted(), Array(0..<chunkCount), "\(chunkCount) chunks, \(threadCount) threads")
                XCTAssertNil(shares.claim(worker: 0))
            }
        }
    }
}
