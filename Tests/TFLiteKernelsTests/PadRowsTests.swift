import TestSupport
import XCTest
@testable import TFLiteKernels

/// The row-split PAD against the reference on random ranks, paddings (including none, and
/// padding only the innermost dimension) and element widths, run in uneven row chunks.
final class PadRowsTests: XCTestCase {
    func testChunkedRowsMatchReference() throws {
        var rng = SeededGenerator(seed: 91)
        for trial in 0..<200 {
            let rank = 1 + trial % 6
            let shape = (0..<rank).map { _ in Int.random(in: 0...5, using: &rng) == 0 ? 1 : Int.random(in: 1...6, using: &rng) }
            let before = (0..<rank).map { _ in Bool.random(using: &rng) ? 0 : Int.random(in: 0...3, using: &rng) }
            let after = (0..<rank).map { _ in Bool.random(using: &rng) ? 0 : Int.random(in: 0...3, using: &rng) }
            let size = [1, 2, 4, 8, 16][trial % 5]
            let plan = try XCTUnwrap(PadPlan(inputShape: shape, before: before, after: after))
            let input = (0..<(shape.reduce(1, *) * size)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let value = (0..<size).map { UInt8(0xC0 + $0) }
            var expected = [UInt8](repeating: 0, count: plan.elementCount * size), actual = [UInt8](repeating: 0x11, count: expected.count)
            let rows = PadOptimized.rowCount(plan)
            XCTAssertEqual(rows * PadOptimized.rowBytes(plan, elementSize: size), expected.count)
            var cuts = [0, rows] + (0..<3).map { _ in Int.random(in: 0...rows, using: &rng) }
            cuts.sort()
            input.withUnsafeBytes { x in value.withUnsafeBytes { v in
                expected.withUnsafeMutableBytes { PadReference.run(plan, elementSize: size, input: x.baseAddress!, padValue: v.baseAddress!, output: $0.baseAddress!) }
                actual.withUnsafeMutableBytes { y in
                    for (lo, hi) in zip(cuts, cuts.dropFirst()) {
                        PadOptimized.run(plan, rows: lo..<hi, elementSize: size, input: x.baseAddress!, padValue: v.baseAddress!, output: y.baseAddress!)
                    }
                }
            } }
            XCTAssertEqual(actual, expected, "shape \(shape) before \(before) after \(after) size \(size)")
        }
    }
}
