import TestSupport
import XCTest
@testable import TFLiteKernels

/// Reference data-movement kernels against direct index arithmetic on random shapes, for
/// every element width; plus the plans' rejection of bad parameters.
final class DataMovementReferenceTests: XCTestCase {
    /// Row-major offset of `index` in `shape`.
    private func offset(_ index: [Int], _ shape: [Int]) -> Int {
        zip(index, shape).reduce(0) { $0 * $1.1 + $1.0 }
    }

    /// All indices of `shape` in row-major order.
    private func indices(_ shape: [Int]) -> [[Int]] {
        var result: [[Int]] = [[]]
        for d in shape { result = result.flatMap { prefix in (0..<d).map { prefix + [$0] } } }
        return result
    }

    private func randomShape(_ rank: Int, _ rng: inout SeededGenerator, maxDim: Int = 4) -> [Int] {
        (0..<rank).map { _ in Int.random(in: 1...maxDim, using: &rng) }
    }

    /// Runs `body` on input bytes holding `count` distinct UInt64 values narrowed to `size`.
    private func bytes(_ count: Int, size: Int) -> [UInt8] {
        (0..<(count * size)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / size) }
    }

    private func element(_ data: [UInt8], _ i: Int, _ size: Int) -> ArraySlice<UInt8> { data[(i * size)..<((i + 1) * size)] }

    func testTransposeMatchesIndexArithmetic() {
        var rng = SeededGenerator(seed: 1)
        for trial in 0..<60 {
            let rank = 1 + trial % 6
            let shape = randomShape(rank, &rng)
            let perm = Array(0..<rank).shuffled(using: &rng)
            let size = [1, 2, 4, 8, 16][trial % 5]
            let plan = TransposePlan(inputShape: shape, permutation: perm)!
            let input = bytes(plan.elementCount, size: size)
            var output = [UInt8](repeating: 0, count: input.count)
            input.withUnsafeBytes { i in output.withUnsafeMutableBytes { o in
                TransposeReference.run(plan, elementSize: size, input: i.baseAddress!, output: o.baseAddress!)
            } }
            for (k, outIndex) in indices(plan.outputShape).enumerated() {
                var inIndex = [Int](repeating: 0, count: rank)
                for d in 0..<rank { inIndex[perm[d]] = outIndex[d] }
                XCTAssertEqual(element(output, k, size), element(input, offset(inIndex, shape), size),
                               "shape \(shape) perm \(perm)")
            }
        }
        XCTAssertNil(TransposePlan(inputShape: [2, 3], permutation: [0, 0]))
        XCTAssertNil(TransposePlan(inputShape: [1, 1, 1, 1, 1, 1, 1], permutation: Array(0..<7)))
    }

    func testPadMatchesIndexArithmetic() {
        var rng = SeededGenerator(seed: 2)
        for trial in 0..<40 {
            let rank = 1 + trial % 6
            let shape = randomShape(rank, &rng, maxDim: 3)
            let before = (0..<rank).map { _ in Int.random(in: 0...2, using: &rng) }
            let after = (0..<rank).map { _ in Int.random(in: 0...2, using: &rng) }
            let size = [1, 2, 4, 8][trial % 4]
            let plan = PadPlan(inputShape: shape, before: before, after: after)!
            let input = bytes(shape.reduce(1, *), size: size)
            let pad = [UInt8](repeating: 0xAB, count: size)
            var output = [UInt8](repeating: 0, count: plan.elementCount * size)
            input.withUnsafeBytes { i in pad.withUnsafeBytes { p in output.withUnsafeMutableBytes { o in
                PadReference.run(plan, elementSize: size, input: i.baseAddress!, padValue: p.baseAddress!, output: o.baseAddress!)
            } } }
            for (k, outIndex) in indices(plan.outputShape).enumerated() {
                let inIndex = (0..<rank).map { outIndex[$0] - before[$0] }
                let inside = (0..<rank).allSatisfy { inIndex[$0] >= 0 && inIndex[$0] < shape[$0] }
                let expected = inside ? element(input, offset(inIndex, shape), size) : pad[...]
                XCTAssertEqual(element(output, k, size), expected)
            }
        }
        XCTAssertNil(PadPlan(inputShape: [2], before: [-1], after: [0]))
        XCTAssertNil(PadPlan(inputShape: [2, 2], before: [1], after: [0]))
    }

    func testStridedSliceMatchesIndexArithmetic() throws {
        var rng = SeededGenerator(seed: 3)
        for trial in 0..<80 {
            let rank = 1 + trial % 5
            let shape = randomShape(rank, &rng, maxDim: 6)
            let begin = shape.map { Int32(Int.random(in: (-$0 - 1)...($0 + 1), using: &rng)) }
            let end = shape.map { Int32(Int.random(in: (-$0 - 1)...($0 + 1), using: &rng)) }
            let strides = (0..<rank).map { _ in Int32([-3, -2, -1, 1, 2, 3].randomElement(using: &rng)!) }
            let masks = (0..<2).map { _ in Int32.random(in: 0..<(1 << rank), using: &rng) }
            let plan = try StridedSlicePlan(inputShape: shape, parameters: StridedSliceParameters(
                begin: begin, end: end, strides: strides, beginMask: masks[0], endMask: masks[1]))
            // Per-axis positions the numpy-style slice visits.
            var positions: [[Int]] = []
            for d in 0..<rank {
                let n = shape[d], s = Int(strides[d])
                var b = Int(begin[d]), e = Int(end[d])
                if masks[0] >> d & 1 == 1 { b = s > 0 ? 0 : n - 1 } else {
                    if b < 0 { b += n }
                    b = s > 0 ? min(max(b, 0), n) : min(max(b, -1), n - 1)
                }
                if masks[1] >> d & 1 == 1 { e = s > 0 ? n : -1 } else {
                    if e < 0 { e += n }
                    e = s > 0 ? min(max(e, 0), n) : min(max(e, -1), n - 1)
                }
                positions.append(Array(stride(from: b, to: e, by: s)))
            }
            XCTAssertEqual(plan.outputShape, positions.map(\.count), "shape \(shape) \(begin) \(end) \(strides)")
            let input = bytes(shape.reduce(1, *), size: 4)
            var output = [UInt8](repeating: 0, count: plan.elementCount * 4)
            input.withUnsafeBytes { i in output.withUnsafeMutableBytes { o in
                StridedSliceReference.run(plan, elementSize: 4, input: i.baseAddress!, output: o.baseAddress!)
            } }
            for (k, outIndex) in indices(plan.outputShape).enumerated() {
                let inIndex = (0..<rank).map { positions[$0][outIndex[$0]] }
                XCTAssertEqual(element(output, k, 4), element(input, offset(inIndex, shape), 4))
            }
        }
        XCTAssertThrowsError(try StridedSlicePlan(inputShape: [3], parameters: StridedSliceParameters(
            begin: [0], end: [3], strides: [0])))
        XCTAssertThrowsError(try StridedSlicePlan(inputShape: [3], parameters: StridedSliceParameters(
            begin: [0, 1], end: [3], strides: [1])))
    }

    func testMirrorPadTileBroadcast() {
        let input: [Int32] = [1, 2, 3, 4, 5, 6]   // 2×3
        func run(_ plan: IndexedCopyPlan) -> [Int32] {
            var out = [Int32](repeating: 0, count: plan.elementCount)
            input.withUnsafeBytes { i in out.withUnsafeMutableBytes { o in
                IndexedCopyReference.run(plan, elementSize: 4, input: i.baseAddress!, output: o.baseAddress!)
            } }
            return out
        }
        XCTAssertEqual(run(.mirrorPad(inputShape: [2, 3], before: [0, 2], after: [0, 1], reflect: true)),
                       [3, 2, 1, 2, 3, 2, 6, 5, 4, 5, 6, 5])
        XCTAssertEqual(run(.mirrorPad(inputShape: [2, 3], before: [1, 2], after: [0, 0], reflect: false)),
                       [2, 1, 1, 2, 3, 2, 1, 1, 2, 3, 5, 4, 4, 5, 6])
        XCTAssertEqual(run(.tile(inputShape: [2, 3], multiples: [1, 2])), [1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6])
        XCTAssertEqual(run(.broadcast(inputShape: [3], outputShape: [2, 3])), [1, 2, 3, 1, 2, 3])
    }

    func testResizeNearestIndices() {
        // Half-pixel, 3 → 6: 0 0 1 1 2 2; aligned corners, 3 → 5: 0 1 1 2 2 (round half away).
        XCTAssertEqual((0..<6).map { ResizeNearestNeighborReference.sourceIndex($0, inputSize: 3, outputSize: 6,
                                                                       alignCorners: false, halfPixelCenters: true) },
                       [0, 0, 1, 1, 2, 2])
        XCTAssertEqual((0..<5).map { ResizeNearestNeighborReference.sourceIndex($0, inputSize: 3, outputSize: 5,
                                                                       alignCorners: true, halfPixelCenters: false) },
                       [0, 1, 1, 2, 2])
    }

    func testQuantizeRoundsHalfAwayAndSaturates() {
        let x: [Float] = [0.5, -0.5, 1.5, 1000, -1000, .nan]
        var q = [Int8](repeating: 0, count: x.count)
        QuantizeReference.affine(x, count: x.count, scale: 1, zeroPoint: 0, output: &q)
        XCTAssertEqual(q, [1, -1, 2, 127, -128, 0])
        var r = [UInt8](repeating: 0, count: 3)
        let i8: [Int8] = [-128, 0, 127]
        QuantizeReference.requantize(i8, count: 3, inputZeroPoint: 0, multiplier: QuantizedMultiplier(1.0),
                            outputZeroPoint: 128, output: &r)
        XCTAssertEqual(r, [0, 128, 255])
    }

    func testTopKKeepsIndexOrderOnTies() {
        let x: [Float] = [3, 1, 3, 2, 3]
        var values = [Float](repeating: 0, count: 3)
        var indices = [Int32](repeating: 0, count: 3)
        var scratch = [Int32](repeating: 0, count: 5)
        scratch.withUnsafeMutableBufferPointer {
            TopKReference.run(rowCount: 1, rowSize: 5, k: 3, input: x, values: &values, indices: &indices, scratch: $0)
        }
        XCTAssertEqual(values, [3, 3, 3])
        XCTAssertEqual(indices, [0, 2, 4])
    }
}
