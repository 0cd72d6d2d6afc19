import TestSupport
import XCTest
@testable import TFLiteKernels

/// Optimized data-movement kernels against their reference twins: bit-identical results on
/// random geometries (odd sizes, up- and down-scaling, every sampling mode), whole and split
/// into row ranges as the thread pool does.
final class DataMovementOptimizedTests: XCTestCase {
    private let modes = [(false, false), (true, false), (false, true)]

    private func randomGeometry(_ rng: inout SeededGenerator, mode: (Bool, Bool)) -> ResizeParameters {
        ResizeParameters(batches: Int.random(in: 1...2, using: &rng),
                         inputHeight: Int.random(in: 1...9, using: &rng), inputWidth: Int.random(in: 1...9, using: &rng),
                         outputHeight: Int.random(in: 1...17, using: &rng), outputWidth: Int.random(in: 1...17, using: &rng),
                         depth: Int.random(in: 1...7, using: &rng), alignCorners: mode.0, halfPixelCenters: mode.1)
    }

    /// Row ranges as a thread pool might cut them.
    private func chunks(_ count: Int, _ rng: inout SeededGenerator) -> [Range<Int>] {
        var cuts = [0, count]
        for _ in 0..<3 { cuts.append(Int.random(in: 0...count, using: &rng)) }
        cuts.sort()
        return zip(cuts, cuts.dropFirst()).map { $0..<$1 }
    }

    func testBilinearFloatRowsMatchReference() {
        var rng = SeededGenerator(seed: 11)
        for trial in 0..<120 {
            let p = randomGeometry(&rng, mode: modes[trial % 3])
            let input = rng.floats(p.inputElementCount, in: -10...10)
            var expected = [Float](repeating: 0, count: p.outputElementCount)
            var actual = [Float](repeating: .nan, count: p.outputElementCount)
            ResizeBilinearReference.runFloat(p, input: input, output: &expected)
            let plan = ResizeRowsPlan(bilinear: p)
            for rows in chunks(plan.rowCount, &rng) {
                input.withUnsafeBufferPointer { x in actual.withUnsafeMutableBufferPointer { y in
                    ResizeOptimized.bilinearFloat(plan, rows: rows, input: x.baseAddress!, output: y.baseAddress!)
                } }
            }
            XCTAssertEqual(actual.map(\.bitPattern), expected.map(\.bitPattern), "\(p)")
            // Again with each chunk's weighted rows in a poisoned workspace of the declared bytes.
            actual = [Float](repeating: .nan, count: p.outputElementCount)
            for rows in chunks(plan.rowCount, &rng) {
                let workspace = PoisonedWorkspace(byteCount: ResizeOptimized.bilinearFloatWorkspaceBytes(plan))
                input.withUnsafeBufferPointer { x in actual.withUnsafeMutableBufferPointer { y in
                    ResizeOptimized.bilinearFloat(plan, rows: rows, input: x.baseAddress!, output: y.baseAddress!,
                                                  workspace: workspace.workspace)
                } }
                workspace.assertGuardIntact("\(p)")
            }
            XCTAssertEqual(actual.map(\.bitPattern), expected.map(\.bitPattern), "\(p) in a workspace")
        }
    }

    func testNearestRowsMatchReference() {
        var rng = SeededGenerator(seed: 12)
        for trial in 0..<120 {
            let p = randomGeometry(&rng, mode: modes[trial % 3])
            let size = [1, 2, 4, 8][trial % 4]
            let input = (0..<(p.inputElementCount * size)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
            var expected = [UInt8](repeating: 0, count: p.outputElementCount * size)
            var actual = [UInt8](repeating: 0xEE, count: expected.count)
            input.withUnsafeBytes { x in expected.withUnsafeMutableBytes { y in
                ResizeNearestNeighborReference.run(p, elementSize: size, input: x.baseAddress!, output: y.baseAddress!)
            } }
            let plan = ResizeRowsPlan(nearest: p)
            for rows in chunks(plan.rowCount, &rng) {
                input.withUnsafeBytes { x in actual.withUnsafeMutableBytes { y in
                    ResizeOptimized.nearest(plan, rows: rows, elementSize: size, input: x.baseAddress!, output: y.baseAddress!)
                } }
            }
            XCTAssertEqual(actual, expected, "\(p) element size \(size)")
        }
    }
}

/// The simplified transpose against the reference on random shapes with size-1 dimensions,
/// mergeable runs and every element width.
final class DataMovementTransposeBlockedTests: XCTestCase {
    func testMatchesReference() {
        var rng = SeededGenerator(seed: 13)
        var strategies: Set<String> = []
        for trial in 0..<400 {
            let rank = 1 + trial % 6
            var shape = (0..<rank).map { _ in [1, 1, 2, 3, 5, 40].randomElement(using: &rng)! }
            while shape.reduce(1, *) > 6000 { shape[shape.firstIndex(of: shape.max()!)!] = 3 }
            let perm = Array(0..<rank).shuffled(using: &rng)
            let size = [1, 2, 4, 8, 16][trial % 5]
            let reference = TransposePlan(inputShape: shape, permutation: perm)!
            let blocked = BlockedTransposePlan(inputShape: shape, permutation: perm)!
            XCTAssertEqual(blocked.outputShape, reference.outputShape)
            strategies.insert("\(blocked.strategy)".prefix(while: { $0 != "(" }).description)
            let input = (0..<(reference.elementCount * size)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 7) }
            var expected = [UInt8](repeating: 0, count: input.count), actual = [UInt8](repeating: 1, count: input.count)
            input.withUnsafeBytes { x in
                expected.withUnsafeMutableBytes { TransposeReference.run(reference, elementSize: size, input: x.baseAddress!, output: $0.baseAddress!) }
                actual.withUnsafeMutableBytes { TransposeOptimized.run(blocked, elementSize: size, input: x.baseAddress!, output: $0.baseAddress!) }
            }
            XCTAssertEqual(actual, expected, "shape \(shape) perm \(perm) strategy \(blocked.strategy)")
        }
        XCTAssertEqual(strategies, ["copy", "rows", "matrix", "reference"], "every strategy exercised")
    }

    /// Byte and 32-bit matrices (the 8 × 16 byte and 4 × 4 word register blocks and the
    /// element-by-element edges) against the reference: heights and widths around the block
    /// sizes, batches, the work split at random unit boundaries as the thread pool splits it.
    func testByteAndWordMatricesMatchReference() {
        var rng = SeededGenerator(seed: 14)
        for trial in 0..<300 {
            let size = trial % 3 == 0 ? 4 : 1
            let batches = rng.int(1...3), height = rng.int(1...41), width = rng.int(1...70)
            let shape = [batches, height, width], perm = [0, 2, 1]
            let reference = TransposePlan(inputShape: shape, permutation: perm)!
            let blocked = BlockedTransposePlan(inputShape: shape, permutation: perm)!
            let input = (0..<(reference.elementCount * size)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            var expected = [UInt8](repeating: 0, count: input.count), actual = [UInt8](repeating: 0xA5, count: input.count)
            let units = TransposeOptimized.workUnits(blocked, elementSize: size)
            let split = rng.int(0...units)
            input.withUnsafeBytes { x in
                expected.withUnsafeMutableBytes { TransposeReference.run(reference, elementSize: size, input: x.baseAddress!, output: $0.baseAddress!) }
                actual.withUnsafeMutableBytes { out in
                    for part in [0..<split, split..<units] {
                        TransposeOptimized.run(blocked, units: part, elementSize: size, input: x.baseAddress!, output: out.baseAddress!)
                    }
                }
            }
            XCTAssertEqual(actual, expected, "shape \(shape), \(size)-byte elements, strategy \(blocked.strategy)")
        }
    }

    /// The yolov8 head's transposes take the fast paths.
    func testModelShapesUseFastPaths() {
        if case .matrix(1, 6400, 144)? = BlockedTransposePlan(inputShape: [1, 80, 80, 144], permutation: [0, 3, 1, 2])?.strategy {
        } else { XCTFail("NHWC→NCHW should be one 2-D transpose") }
        if case .rows(_, 8400)? = BlockedTransposePlan(inputShape: [1, 4, 16, 8400], permutation: [0, 2, 1, 3])?.strategy {
        } else { XCTFail("inner dimension kept should copy rows") }
    }
}
