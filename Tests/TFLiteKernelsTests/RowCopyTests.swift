import TestSupport
import XCTest
@testable import TFLiteKernels

/// The row-split CONCATENATION and strided-window copies against the reference loops, on
/// random shapes and element sizes, run in uneven row chunks as the thread pool splits them.
/// The reference strided copy is a plain loop nest (not the optimized copies' `StridedOdometer`),
/// itself checked against element-by-element index arithmetic here, and the odometer is checked
/// on its own, so a counter bug cannot hide in both sides of the comparison.
final class RowCopyTests: XCTestCase {
    private func randomBytes(_ count: Int, _ rng: inout SeededGenerator) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }

    /// Calls `body` on consecutive chunks of `0..<count` of growing sizes.
    private func chunks(_ count: Int, _ body: (Range<Int>) -> Void) {
        var start = 0, step = 1
        while start < count { let end = min(count, start + step); body(start..<end); start = end; step = step * 2 + 1 }
    }

    func testConcatenationMatchesReference() {
        var rng = SeededGenerator(seed: 71)
        for trial in 0..<60 {
            let outer = Int.random(in: 1...40, using: &rng)
            let inputCount = Int.random(in: 1...4, using: &rng)
            // Byte counts around the inline-copy boundaries (16, 256) and zero-sized inputs.
            let inner = (0..<inputCount).map { _ in [0, 1, 3, 15, 16, 17, 32, 100, 255, 256, 300].randomElement(using: &rng)! }
            let inputs = inner.map { randomBytes(outer * $0, &rng) }
            let rowBytes = inner.reduce(0, +)
            guard rowBytes > 0 else { continue }
            var want = [UInt8](repeating: 0, count: outer * rowBytes), got = want
            // Inputs in buffers of their own (at least one byte, so every pointer is valid).
            let buffers = inputs.map { bytes -> UnsafeMutableRawPointer in
                let p = UnsafeMutableRawPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
                bytes.withUnsafeBytes { p.copyMemory(from: $0.baseAddress ?? UnsafeRawPointer(p), byteCount: bytes.count) }
                return p
            }
            defer { buffers.forEach { $0.deallocate() } }
            let pointers = buffers.map { UnsafeRawPointer($0) }
            want.withUnsafeMutableBytes { w in
                ConcatenationReference.run(outerCount: outer, innerByteCounts: inner, inputs: pointers, output: w.baseAddress!)
            }
            got.withUnsafeMutableBytes { g in
                chunks(outer) { RowCopyOptimized.concatenate(outer: $0, innerByteCounts: inner, rowBytes: rowBytes, inputs: pointers, output: g.baseAddress!) }
            }
            XCTAssertEqual(got, want, "trial \(trial): \(outer) rows of \(inner)")
        }
    }

    func testStridedWindowRunsMatchReference() {
        var rng = SeededGenerator(seed: 72)
        var tested = 0
        for trial in 0..<80 {
            let rank = Int.random(in: 1...5, using: &rng)
            let shape = (0..<rank).map { _ in Int.random(in: 1...7, using: &rng) }
            var starts: [Int] = [], counts: [Int] = [], steps: [Int] = []
            for d in 0..<rank {
                // Outer steps forwards and backwards (STRIDED_SLICE with negative strides).
                let step = d == rank - 1 ? 1 : [-2, -1, 1, 2].randomElement(using: &rng)!
                let start = Int.random(in: 0..<shape[d], using: &rng)
                let maxCount = step > 0 ? (shape[d] - start + step - 1) / step : start / -step + 1
                starts.append(start); steps.append(step); counts.append(Int.random(in: 1...maxCount, using: &rng))
            }
            let window = StridedWindow(inputShape: shape, starts: starts, counts: counts, steps: steps)
            guard let runs = RowCopyOptimized.runCount(window) else { continue }
            tested += 1
            let elementSize = [1, 2, 4, 8].randomElement(using: &rng)!
            let input = randomBytes(shape.reduce(1, *) * elementSize, &rng)
            var want = [UInt8](repeating: 0, count: window.elementCount * elementSize), got = want
            input.withUnsafeBytes { src in
                want.withUnsafeMutableBytes { StridedCopyReference.run(window, elementSize: elementSize, input: src.baseAddress!, output: $0.baseAddress!) }
                got.withUnsafeMutableBytes { g in
                    chunks(runs) { RowCopyOptimized.stridedRuns(window, runs: $0, elementSize: elementSize, input: src.baseAddress!, output: g.baseAddress!) }
                }
            }
            XCTAssertEqual(got, want, "trial \(trial): \(shape) starts \(starts) counts \(counts) steps \(steps)")
        }
        XCTAssertGreaterThan(tested, 60)
        // A non-unit innermost step is left to the reference loop.
        XCTAssertNil(RowCopyOptimized.runCount(StridedWindow(inputShape: [4, 6], starts: [0, 0], counts: [4, 3], steps: [1, 2])))
    }

    /// The window element at row-major output position `p`, from its own digits:
    /// `base + Σ digit[d] · step[d]` (no counter carried between elements).
    private func inputOffset(of p: Int, base: Int, counts: [Int], steps: [Int]) -> Int {
        var rest = p, offset = base
        for d in stride(from: counts.count - 1, through: 0, by: -1) {
            offset += (rest % counts[d]) * steps[d]
            rest /= counts[d]
        }
        return offset
    }

    /// The reference copy, any innermost step (the optimized copies take only 1), against
    /// element-by-element index arithmetic on an input whose values are their own indices.
    func testReferenceStridedCopyMatchesIndexArithmetic() {
        var rng = SeededGenerator(seed: 73)
        for trial in 0..<80 {
            let rank = Int.random(in: 0...5, using: &rng)
            let shape = (0..<rank).map { _ in Int.random(in: 1...6, using: &rng) }
            var starts: [Int] = [], counts: [Int] = [], steps: [Int] = []
            for d in 0..<rank {
                let step = [-3, -2, -1, 1, 2, 3].randomElement(using: &rng)!
                let start = Int.random(in: 0..<shape[d], using: &rng)
                let maxCount = step > 0 ? (shape[d] - start + step - 1) / step : start / -step + 1
                starts.append(start); steps.append(step); counts.append(Int.random(in: 1...maxCount, using: &rng))
            }
            let window = StridedWindow(inputShape: shape, starts: starts, counts: counts, steps: steps)
            let input = (0..<Int32(shape.reduce(1, *))).map { $0 }
            var got = [Int32](repeating: -1, count: window.elementCount)
            input.withUnsafeBytes { src in
                got.withUnsafeMutableBytes { StridedCopyReference.run(window, elementSize: 4, input: src.baseAddress!, output: $0.baseAddress!) }
            }
            let want = (0..<window.elementCount).map {
                Int32(inputOffset(of: $0, base: window.baseOffset, counts: window.counts, steps: window.elementSteps))
            }
            XCTAssertEqual(got, want, "trial \(trial): \(shape) starts \(starts) counts \(counts) steps \(steps)")
        }
    }

    /// `StridedOdometer` started at any position visits the following positions in order with
    /// the offsets their digits give, and reports the wrap after the last one.
    func testStridedOdometerOffsetsFollowTheirDigits() {
        var rng = SeededGenerator(seed: 74)
        for trial in 0..<200 {
            let digits = Int.random(in: 1...5, using: &rng)
            let counts = (0..<digits).map { _ in Int.random(in: 1...4, using: &rng) }
            let steps = (0..<digits).map { _ in Int.random(in: -20...20, using: &rng) }
            let total = counts.reduce(1, *), base = Int.random(in: 0...1000, using: &rng)
            let start = Int.random(in: 0..<total, using: &rng)
            var visited: [Int] = [], advanced: [Bool] = []
            counts.withUnsafeBufferPointer { c in
                steps.withUnsafeBufferPointer { s in
                    withUnsafeTemporaryAllocation(of: Int.self, capacity: digits) { index in
                        var odometer = StridedOdometer(counts: c.baseAddress!, steps: s.baseAddress!, index: index.baseAddress!,
                                                       last: digits - 1, position: start, base: base)
                        for _ in start..<total {
                            visited.append(odometer.offset)
                            advanced.append(odometer.advance())
                        }
                    }
                }
            }
            XCTAssertEqual(visited, (start..<total).map { inputOffset(of: $0, base: base, counts: counts, steps: steps) },
                           "trial \(trial): counts \(counts) steps \(steps) from \(start)")
            XCTAssertEqual(advanced, (start..<total).map { $0 < total - 1 }, "trial \(trial): wraps exactly after the last position")
        }
    }
}
