import TestSupport
import XCTest
@testable import TFLiteKernels

/// The simplified transpose run in work-unit chunks (as the thread pool splits it) against
/// the reference, for every strategy and element width.
final class TransposeUnitsTests: XCTestCase {
    func testChunkedUnitsMatchReference() {
        var rng = SeededGenerator(seed: 81)
        var strategies: Set<String> = []
        for trial in 0..<300 {
            let rank = 1 + trial % 6
            var shape = (0..<rank).map { _ in [1, 2, 3, 5, 33, 70].randomElement(using: &rng)! }
            while shape.reduce(1, *) > 40_000 { shape[shape.firstIndex(of: shape.max()!)!] = 3 }
            let perm = Array(0..<rank).shuffled(using: &rng)
            let size = [1, 2, 4, 8][trial % 4]
            let reference = TransposePlan(inputShape: shape, permutation: perm)!
            let blocked = BlockedTransposePlan(inputShape: shape, permutation: perm)!
            strategies.insert("\(blocked.strategy)".prefix(while: { $0 != "(" }).description)
            let input = (0..<(reference.elementCount * size)).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ $0 >> 9) }
            var expected = [UInt8](repeating: 0, count: input.count), actual = [UInt8](repeating: 0xA5, count: input.count)
            let units = TransposeOptimized.workUnits(blocked, elementSize: size)
            XCTAssertGreaterThan(TransposeOptimized.unitBytes(blocked, elementSize: size), 0)
            var cuts = [0, units] + (0..<3).map { _ in Int.random(in: 0...units, using: &rng) }
            cuts.sort()
            input.withUnsafeBytes { x in
                expected.withUnsafeMutableBytes { TransposeReference.run(reference, elementSize: size, input: x.baseAddress!, output: $0.baseAddress!) }
                actual.withUnsafeMutableBytes { y in
                    for (lo, hi) in zip(cuts, cuts.dropFirst()) {
                        TransposeOptimized.run(blocked, units: lo..<hi, elementSize: size, input: x.baseAddress!, output: y.baseAddress!)
                    }
                }
            }
            XCTAssertEqual(actual, expected, "shape \(shape) perm \(perm) strategy \(blocked.strategy) units \(cuts)")
        }
        XCTAssertEqual(strategies, ["copy", "rows", "matrix", "reference"], "every strategy exercised")
    }
}
