import TestSupport
import XCTest
@testable import TFLiteKernels

/// Direct checks of the elementwise reference kernels against hand-computed values and
/// brute-force NumPy-style broadcasting. Bit-exactness against the reference runtime is
/// covered by the golden cases (GoldenOpTests.testElementwiseFamily).
final class ElementwiseReferenceTests: XCTestCase {
    /// Index of `outIndex` in an input of shape `shape` broadcast onto `out`.
    private func broadcastIndex(_ outIndex: Int, out: [Int], shape: [Int]) -> Int {
        var rest = outIndex, idx = 0, step = 1
        let padded = [Int](repeating: 1, count: out.count - shape.count) + shape
        for d in stride(from: out.count - 1, through: 0, by: -1) {
            let coord = rest % out[d]; rest /= out[d]
            if padded[d] != 1 { idx += coord * step }
            step *= padded[d]
        }
        return idx
    }

    func testBroadcastLayoutMatchesBruteForceOnRandomShapes() throws {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<200 {
            let rank = Int.random(in: 0...6, using: &rng)
            var a: [Int] = [], b: [Int] = []
            for _ in 0..<rank {
                let d = Int.random(in: 1...4, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: a.append(d); b.append(d)
                case 1: a.append(1); b.append(d)
                default: a.append(d); b.append(1)
                }
            }
            let dropA = Int.random(in: 0...a.count, using: &rng)
            a.removeFirst(Int.random(in: 0...1, using: &rng) == 0 ? dropA : 0)
            let layout = try BroadcastLayout(a, b)
            let out = layout.outputShape
            let xa = (0..<a.reduce(1, *)).map { Float($0) }
            let xb = (0..<b.reduce(1, *)).map { Float($0) * 1000 }
            var got = [Float](repeating: -1, count: layout.elementCount)
            xa.withUnsafeBufferPointer { pa in xb.withUnsafeBufferPointer { pb in got.withUnsafeMutableBufferPointer { po in
                BinaryArithmeticReference.float32(.add, layout: layout, rows: 0..<layout.rowCount, pa.baseAddress!, pb.baseAddress!, po.baseAddress!)
            } } }
            for i in 0..<layout.elementCount {
                let want = xa[broadcastIndex(i, out: out, shape: a)] + xb[broadcastIndex(i, out: out, shape: b)]
                XCTAssertEqual(got[i], want, "a=\(a) b=\(b) at \(i)")
            }
        }
    }

    func testIncompatibleShapesThrow() {
        XCTAssertThrowsError(try BroadcastLayout([2, 3], [4, 3]))
        XCTAssertThrowsError(try BroadcastLayout([2, -1], [2, 1]))
        XCTAssertEqual(BroadcastLayout.broadcastShape([5, 1, 3], [4, 1]), [5, 4, 3])
    }

    func testQuantizedAddUsesTwentyBitLeftShift() {
        // Equal scales: 0.5 multipliers; output scale equal → plain integer add with zero points.
        let p = BinaryArithmeticReference.QuantizedAddParams(input1Scale: 0.1, input1ZeroPoint: 3, input2Scale: 0.1, input2ZeroPoint: -2,
                                                     outputScale: 0.1, outputZeroPoint: 1, leftShift: 20,
                                                     activationMin: -128, activationMax: 127)
        XCTAssertEqual(p.input1Multiplier.multiplier, 1 << 30)
        XCTAssertEqual(p.input1Multiplier.shift, 0)
        XCTAssertEqual(BinaryArithmeticReference.quantizedAddElement(13, 8, p, subtract: false), (13 - 3) + (8 + 2) + 1)
        XCTAssertEqual(BinaryArithmeticReference.quantizedAddElement(13, 8, p, subtract: true), (13 - 3) - (8 + 2) + 1)
        XCTAssertEqual(BinaryArithmeticReference.quantizedAddElement(127, 127, p, subtract: false), 127, "saturates at the clamp")
    }

    func testFixedPointExpAndReciprocal() {
        // exp(0) is one (saturated Q0.31), exp(-1) ≈ 0.3679, 1/(1+0.5) ≈ 0.6667.
        XCTAssertEqual(GemmlowpFixedPoint.expOnNegativeValues(0, integerBits: 5), Int32.max)
        let minusOne = -(Int32(1) << 26)   // -1.0 in Q5.26
        let e = Double(GemmlowpFixedPoint.expOnNegativeValues(minusOne, integerBits: 5)) / Double(1 << 31)
        XCTAssertEqual(e, 0.36787944, accuracy: 1e-6)
        let r = Double(GemmlowpFixedPoint.oneOverOnePlusXForXIn01(1 << 30)) / Double(1 << 31)
        XCTAssertEqual(r, 2.0 / 3.0, accuracy: 1e-6)
    }

    func testQuantizedSoftmaxSumsToOne() {
        let p = SoftmaxReference.QuantizedParams(beta: 1, inputScale: 0.1)
        let x: [Int8] = [-128, -20, 0, 30, 127, 127, 5, -5]
        var y = [Int8](repeating: 0, count: x.count)
        x.withUnsafeBufferPointer { px in y.withUnsafeMutableBufferPointer { py in
            SoftmaxReference.int8(p, depth: x.count, rows: 0..<1, px.baseAddress!, py.baseAddress!)
        } }
        let probabilities = y.map { (Double($0) + 128) / 256 }
        XCTAssertEqual(probabilities.reduce(0, +), 1, accuracy: 0.02)
        XCTAssertEqual(y[4], y[5])
        XCTAssertEqual(y[0], -128)
    }

    func testLogisticTableIsMonotonicAndCentered() {
        let t = ActivationReference.LookupTable8.logistic(signed: true, inputScale: 0.1, inputZeroPoint: 0,
                                                        outputScale: 1.0 / 256, outputZeroPoint: -128)
        XCTAssertEqual(Int8(bitPattern: t.entries[0]), 0, "sigmoid(0) = 0.5 → 128 - 128")
        var previous = Int.min
        for v in Int8.min...Int8.max {
            let q = Int(Int8(bitPattern: t.entries[Int(UInt8(bitPattern: v))]))
            XCTAssertGreaterThanOrEqual(q, previous)
            previous = q
        }
    }

    func testReductionPlanShapesAndNegativeAxes() throws {
        let p = try ReductionPlan(inputShape: [2, 3, 4], axes: [-1, 0, 2], keepDims: false)
        XCTAssertEqual(p.outputShape, [3])
        XCTAssertEqual(p.reducedCount, 8)
        let k = try ReductionPlan(inputShape: [2, 3, 4], axes: [1], keepDims: true)
        XCTAssertEqual(k.outputShape, [2, 1, 4])
        XCTAssertThrowsError(try ReductionPlan(inputShape: [2, 3], axes: [2], keepDims: false))
        let x = (0..<24).map { Float($0) }
        var y = [Float](repeating: 0, count: 8)
        x.withUnsafeBufferPointer { px in y.withUnsafeMutableBufferPointer { py in
            ReductionReference.float32(.maximum, plan: k, px.baseAddress!, py.baseAddress!)
        } }
        XCTAssertEqual(y, [8, 9, 10, 11, 20, 21, 22, 23])
    }

    /// The float sums run over runs of the trailing kept dimensions (`forEachRun`, 16 lanes at a
    /// time): each output's additions stay in the element-by-element odometer's order, bit for bit.
    func testFloatSumsOverRunsAddInTheElementOrder() throws {
        var rng = SeededGenerator(seed: 2814)
        for (shape, axes) in [([2, 5, 3, 37], [1, 2]), ([1, 7, 7, 40], [1, 2]), ([3, 4, 33], [0]), ([4, 6, 5], [2]),
                              ([2, 3, 4, 5], [0, 2]), ([19], [0]), ([2, 17], [])] {
            let plan = try ReductionPlan(inputShape: shape, axes: axes, keepDims: false)
            let x = (0..<shape.reduce(1, *)).map { _ in rng.float() * Float(1 << Int.random(in: 0...20, using: &rng)) }
            var want = [Float](repeating: 0, count: plan.outputCount), peak = [Float](repeating: -.greatestFiniteMagnitude, count: plan.outputCount)
            plan.forEach { i, o in want[o] = want[o] + x[i]; peak[o] = x[i] > peak[o] ? x[i] : peak[o] }
            var sum = [Float](repeating: .nan, count: plan.outputCount), mean = sum, maximum = sum
            x.withUnsafeBufferPointer { px in
                ReductionReference.float32(.sum, plan: plan, px.baseAddress!, &sum)
                ReductionReference.meanFloat32(plan: plan, px.baseAddress!, &mean)
                ReductionReference.float32(.maximum, plan: plan, px.baseAddress!, &maximum)
            }
            XCTAssertEqual(sum.map(\.bitPattern), want.map(\.bitPattern), "sum \(shape) over \(axes)")
            XCTAssertEqual(mean.map(\.bitPattern), want.map { ($0 / Float(plan.reducedCount)).bitPattern }, "mean \(shape) over \(axes)")
            XCTAssertEqual(maximum, peak, "maximum \(shape) over \(axes)")
        }
    }

    /// Rows that tie, hold signed zeros, infinities and NaN in every position, for the lane-wise
    /// float REDUCE_MAX / REDUCE_MIN and ARG_MAX / ARG_MIN over the last axis.
    private func adversarialRows(depth: Int, rng: inout SeededGenerator) -> [[Float]] {
        var rows: [[Float]] = []
        rows.append((0..<depth).map { _ in Float(Int.random(in: -3...3, using: &rng)) })          // many ties
        rows.append((0..<depth).map { $0 % 3 == 0 ? -0.0 : (Bool.random(using: &rng) ? 0.0 : -1) })  // zeros of both signs
        rows.append((0..<depth).map { $0 % 5 == 1 ? 0.0 : (Bool.random(using: &rng) ? -0.0 : -2) })
        rows.append((0..<depth).map { $0 % 7 == 2 ? -0.0 : 1.5 })
        rows.append([Float](repeating: -.infinity, count: depth))
        rows.append([Float](repeating: .infinity, count: depth))
        rows.append([Float](repeating: 0, count: depth))
        // The first zero in a later lane than a zero of the other sign: lanes meet -0.0 first.
        var late = [Float](repeating: -1, count: depth)
        (late[15], late[16]) = (0.0, -0.0)
        rows.append(late)
        rows.append(late.map { -$0 })
        for position in [0, 5, 17, depth - 1] {                                                       // a NaN
            var row = rng.floats(depth, in: -4...4)
            row[position] = .nan
            rows.append(row)
        }
        rows.append(rng.floats(depth, in: -1000...1000))
        return rows
    }

    func testFloatExtremaOverTheLastAxisMatchTheElementFold() throws {
        var rng = SeededGenerator(seed: 2816)
        for depth in [32, 33, 47, 80, 96] {
            let rows = adversarialRows(depth: depth, rng: &rng)
            let plan = try ReductionPlan(inputShape: [rows.count, depth], axes: [1], keepDims: false)
            let x = rows.flatMap { $0 }
            for (op, better) in [(ReductionReference.Operation.maximum, { (v: Float, acc: Float) in v > acc }),
                                 (.minimum, { (v: Float, acc: Float) in v < acc })] {
                var got = [Float](repeating: .nan, count: rows.count)
                x.withUnsafeBufferPointer { ReductionReference.float32(op, plan: plan, $0.baseAddress!, &got) }
                let want = rows.map { row in
                    row.reduce(op == .maximum ? -Float.greatestFiniteMagnitude : .greatestFiniteMagnitude) { better($1, $0) ? $1 : $0 }
                }
                XCTAssertEqual(got.map(\.bitPattern), want.map(\.bitPattern), "\(op) over rows of \(depth)")
            }
            for isMax in [true, false] {
                var got = [Int32](repeating: -1, count: rows.count), want = got
                x.withUnsafeBufferPointer { px in
                    ArgMinMaxReference.argMinMax(isMax: isMax, type: .float32, outer: rows.count, axisSize: depth, inner: 1,
                                                 px.baseAddress!, &got, outputIsInt64: false)
                    ArgMinMaxReference.run(isMax: isMax, outer: rows.count, axisSize: depth, inner: 1, px.baseAddress!, &want)
                }
                XCTAssertEqual(got, want, "\(isMax ? "ARG_MAX" : "ARG_MIN") over rows of \(depth)")
            }
        }
    }

    func testIntegerDivisionByZeroThrows() throws {
        let layout = try BroadcastLayout([3], [3])
        let a: [Int32] = [7, -7, 1], b: [Int32] = [2, 2, 0]
        var out = [Int32](repeating: 0, count: 3)
        XCTAssertThrowsError(try a.withUnsafeBufferPointer { pa in try b.withUnsafeBufferPointer { pb in
            try out.withUnsafeMutableBufferPointer { po in
                try BinaryArithmeticReference.int32(.floorDiv, layout: layout, rows: 0..<1, pa.baseAddress!, pb.baseAddress!, po.baseAddress!)
            } } })
        let c: [Int32] = [2, 2, 3]
        try a.withUnsafeBufferPointer { pa in try c.withUnsafeBufferPointer { pc in try out.withUnsafeMutableBufferPointer { po in
            try BinaryArithmeticReference.int32(.floorDiv, layout: layout, rows: 0..<1, pa.baseAddress!, pc.baseAddress!, po.baseAddress!)
        } } }
        XCTAssertEqual(out, [3, -4, 0])
    }
}
