@testable import TFLiteInterpreter
import TestSupport
import XCTest

final class ArenaPlannerTests: XCTestCase {
    /// The invariant: tensors live at the same time never share bytes; offsets are aligned.
    private func assertValid(_ requests: [ArenaPlanner.Request], _ plan: ArenaPlanner.Plan,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(plan.offsets.count, requests.count, file: file, line: line)
        for i in requests.indices {
            XCTAssertEqual(plan.offsets[i] % 64, 0, "offset \(plan.offsets[i]) not aligned", file: file, line: line)
            XCTAssertLessThanOrEqual(plan.offsets[i] + requests[i].byteCount, plan.arenaByteCount, file: file, line: line)
            for j in requests.indices where j > i && requests[i].isLive(togetherWith: requests[j]) {
                let a = plan.offsets[i]..<(plan.offsets[i] + requests[i].byteCount)
                let b = plan.offsets[j]..<(plan.offsets[j] + requests[j].byteCount)
                XCTAssertFalse(a.overlaps(b), "requests \(i) \(requests[i]) and \(j) \(requests[j]) overlap",
                               file: file, line: line)
            }
        }
    }

    func testChainReusesMemory() {
        // a -> b -> c -> d: each tensor only overlaps its neighbours, so two slots suffice.
        let requests = (0..<4).map { ArenaPlanner.Request(byteCount: 1000, firstUse: $0, lastUse: $0 + 1) }
        let plan = ArenaPlanner.plan(requests)
        assertValid(requests, plan)
        XCTAssertEqual(plan.arenaByteCount, 2 * 1024)
    }

    func testDisjointLifetimesShareOffsetZero() {
        let requests = [ArenaPlanner.Request(byteCount: 100, firstUse: 0, lastUse: 0),
                        ArenaPlanner.Request(byteCount: 300, firstUse: 1, lastUse: 1)]
        let plan = ArenaPlanner.plan(requests)
        XCTAssertEqual(plan.offsets, [0, 0])
        XCTAssertEqual(plan.arenaByteCount, 320)
    }

    /// Greedy by size puts the 256-byte step-0 tensor and the 192-byte step-4 one at offset 0,
    /// which pushes the long-lived 128-byte tensor to 192 and the 64-byte one to 320 (384
    /// bytes); in order of first use every tensor fits under the step-0 peak of 320 bytes.
    func testPlanKeepsTheSmallerGreedyOrder() {
        typealias R = ArenaPlanner.Request
        let requests = [R(byteCount: 128, firstUse: 1, lastUse: 4), R(byteCount: 64, firstUse: 0, lastUse: 1),
                        R(byteCount: 256, firstUse: 0, lastUse: 0), R(byteCount: 192, firstUse: 4, lastUse: 4)]
        let plan = ArenaPlanner.plan(requests)
        assertValid(requests, plan)
        XCTAssertEqual(ArenaPlanner.peakLiveByteCount(requests), 320)
        XCTAssertEqual(plan.arenaByteCount, 320)
        XCTAssertEqual(plan.offsets, [0, 256, 0, 128])
    }

    func testZeroSizedAndEmpty() {
        XCTAssertEqual(ArenaPlanner.plan([]).arenaByteCount, 0)
        let requests = [ArenaPlanner.Request(byteCount: 0, firstUse: 0, lastUse: 3),
                        ArenaPlanner.Request(byteCount: 64, firstUse: 0, lastUse: 3)]
        let plan = ArenaPlanner.plan(requests)
        assertValid(requests, plan)
        XCTAssertEqual(plan.arenaByteCount, 64)
    }

    func testRandomizedPlansNeverOverlapLiveTensors() {
        var rng = SeededGenerator(seed: 42)
        for _ in 0..<300 {
            let steps = Int.random(in: 1...40, using: &rng)
            let count = Int.random(in: 1...60, using: &rng)
            let requests = (0..<count).map { _ -> ArenaPlanner.Request in
                let first = Int.random(in: 0..<steps, using: &rng)
                let last = Int.random(in: first..<steps, using: &rng)
                return ArenaPlanner.Request(byteCount: Int.random(in: 0...5000, using: &rng), firstUse: first, lastUse: last)
            }
            let plan = ArenaPlanner.plan(requests)
            assertValid(requests, plan)
            // Never worse than giving every tensor its own slot, never better than the peak live set.
            let naive = requests.reduce(0) { $0 + ArenaPlanner.alignUp($1.byteCount, 64) }
            XCTAssertLessThanOrEqual(plan.arenaByteCount, naive)
            // The sweep agrees with counting every step by brute force (the oracle).
            let peak = ArenaPlanner.peakLiveByteCount(requests)
            let bruteForce = (0..<steps).map { step in
                requests.filter { $0.firstUse <= step && step <= $0.lastUse }.reduce(0) { $0 + $1.byteCount }
            }.max() ?? 0
            XCTAssertEqual(peak, bruteForce)
            XCTAssertGreaterThanOrEqual(plan.arenaByteCount, peak)
        }
    }

    /// Lifetimes are inclusive: a tensor that ends at a step is live together with one that
    /// starts at that step, not with one that starts at the next.
    func testPeakLiveBytesCountsInclusiveLifetimes() {
        typealias R = ArenaPlanner.Request
        XCTAssertEqual(ArenaPlanner.peakLiveByteCount([]), 0)
        XCTAssertEqual(ArenaPlanner.peakLiveByteCount([R(byteCount: 100, firstUse: 0, lastUse: 1),
                                                        R(byteCount: 30, firstUse: 1, lastUse: 2)]), 130)
        XCTAssertEqual(ArenaPlanner.peakLiveByteCount([R(byteCount: 100, firstUse: 0, lastUse: 0),
                                                        R(byteCount: 30, firstUse: 1, lastUse: 2)]), 100)
        // a -> b -> c -> d chain of 1000-byte tensors: two live at once.
        XCTAssertEqual(ArenaPlanner.peakLiveByteCount((0..<4).map { R(byteCount: 1000, firstUse: $0, lastUse: $0 + 1) }), 2000)
    }
}
