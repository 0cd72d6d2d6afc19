import TestSupport
import XCTest
@testable import TFLiteKernels

/// The optimized elementwise kernels (and the 8-bit pair tables) against their reference twins on random shapes
/// (including sizes that are not multiples of the 16-lane vectors), broadcast patterns,
/// quantization parameters and fused activation clamps.
final class ElementwiseOptimizedTests: XCTestCase {
    private func randomShapes(_ rng: inout SeededGenerator) -> ([Int], [Int]) {
        let rank = Int.random(in: 1...4, using: &rng)
        var a: [Int] = [], b: [Int] = []
        for _ in 0..<rank {
            let d = Int.random(in: 1...(rank >= 3 ? 9 : 37), using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: a.append(1); b.append(d)
            case 1: a.append(d); b.append(1)
            default: a.append(d); b.append(d)
            }
        }
        return (a, b)
    }

    func testFloatBinaryMatchesReference() throws {
        var rng = SeededGenerator(seed: 11)
        let ops: [BinaryArithmeticReference.Operation] = [.add, .sub, .mul, .div, .maximum, .minimum, .squaredDifference]
        for trial in 0..<120 {
            let (sa, sb) = randomShapes(&rng)
            let layout = try BroadcastLayout(sa, sb)
            let op = ops[trial % ops.count]
            let a = rng.floats(sa.reduce(1, *), in: -4...4)
            let b = rng.floats(sb.reduce(1, *), in: 0.5...3)
            let (lo, hi): (Float, Float) = trial % 3 == 0 ? (0, 6) : (-.infinity, .infinity)
            var want = [Float](repeating: 0, count: layout.elementCount), got = want
            a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in
                want.withUnsafeMutableBufferPointer { pw in
                    BinaryArithmeticReference.float32(op, layout: layout, rows: 0..<layout.rowCount, pa.baseAddress!, pb.baseAddress!,
                                             pw.baseAddress!, activationMin: lo, activationMax: hi)
                }
                got.withUnsafeMutableBufferPointer { pg in
                    if layout.isElementwise {
                        BinaryArithmeticOptimized.float32Elementwise(op, range: 0..<layout.elementCount, pa.baseAddress!,
                                                                     pb.baseAddress!, pg.baseAddress!, activationMin: lo, activationMax: hi)
                    } else {
                        BinaryArithmeticOptimized.float32(op, layout: layout, rows: 0..<layout.rowCount, pa.baseAddress!,
                                                          pb.baseAddress!, pg.baseAddress!, activationMin: lo, activationMax: hi)
                    }
                }
            } }
            XCTAssertEqual(got, want, "\(op) \(sa) \(sb)")
        }
    }

    func testFloatActivationsWithinTolerance() {
        var rng = SeededGenerator(seed: 12)
        let functions: [ActivationReference.Float32Function] = [.logistic, .tanh, .hardSwish, .clamp(0, 6), .clamp(-1, 1),
                                                              .leakyRelu(alpha: 0.1)]
        for f in functions {
            for n in [1, 15, 16, 17, 100, 1023] {
                let x = rng.floats(n, in: -20...20)
                var want = [Float](repeating: 0, count: n), got = want
                x.withUnsafeBufferPointer { px in
                    want.withUnsafeMutableBufferPointer { ActivationReference.float32(f, range: 0..<n, px.baseAddress!, $0.baseAddress!) }
                    got.withUnsafeMutableBufferPointer { ActivationOptimized.float32(f, range: 0..<n, px.baseAddress!, $0.baseAddress!) }
                }
                for i in 0..<n {
                    XCTAssertEqual(got[i], want[i], accuracy: 2e-6 * max(1, abs(want[i])), "\(f) x=\(x[i])")
                }
            }
        }
    }

    private func randomAddParams(_ rng: inout SeededGenerator, signed: Bool, mul: Bool) -> (BinaryArithmeticReference.QuantizedAddParams, BinaryArithmeticReference.QuantizedMulParams) {
        let lo: Int32 = signed ? -128 : 0, hi: Int32 = signed ? 127 : 255
        func zp() -> Int32 { Int32.random(in: lo...hi, using: &rng) }
        func scale() -> Float { Float.random(in: 0.001...0.5, using: &rng) }
        let s1 = scale(), s2 = scale(), so = mul ? Float.random(in: 0.0005...0.05, using: &rng) : scale()
        let z1 = zp(), z2 = zp(), zo = zp()
        let amin = Bool.random(using: &rng) ? lo : min(hi, zo)
        let add = BinaryArithmeticReference.QuantizedAddParams(input1Scale: s1, input1ZeroPoint: z1, input2Scale: s2, input2ZeroPoint: z2,
                                                       outputScale: so, outputZeroPoint: zo, leftShift: 20,
                                                       activationMin: amin, activationMax: hi)
        let m = BinaryArithmeticReference.QuantizedMulParams(input1Scale: s1, input1ZeroPoint: z1, input2Scale: s2, input2ZeroPoint: z2,
                                                     outputScale: so, outputZeroPoint: zo, activationMin: amin, activationMax: hi)
        return (add, m)
    }

    func testInt8PairTablesMatchReference() throws {
        var rng = SeededGenerator(seed: 13)
        for trial in 0..<45 {
            let (sa, sb) = randomShapes(&rng)
            let layout = try BroadcastLayout(sa, sb)
            let (pAdd, pMul) = randomAddParams(&rng, signed: true, mul: trial % 3 == 2)
            let a = (0..<sa.reduce(1, *)).map { _ in Int8.random(in: .min ... .max, using: &rng) }
            let b = (0..<sb.reduce(1, *)).map { _ in Int8.random(in: .min ... .max, using: &rng) }
            var want = [Int8](repeating: 0, count: layout.elementCount), got = want
            a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in
                let x = pa.baseAddress!, y = pb.baseAddress!
                want.withUnsafeMutableBufferPointer { w in
                    switch trial % 3 {
                    case 0: BinaryArithmeticReference.quantizedAdd(layout: layout, rows: 0..<layout.rowCount, x, y, w.baseAddress!, pAdd)
                    case 1: BinaryArithmeticReference.quantizedAdd(layout: layout, rows: 0..<layout.rowCount, x, y, w.baseAddress!, pAdd, subtract: true)
                    default: BinaryArithmeticReference.quantizedMul(layout: layout, rows: 0..<layout.rowCount, x, y, w.baseAddress!, pMul)
                    }
                }
                let table: QuantizedPairTable
                switch trial % 3 {
                case 0: table = .add(signed: true, pAdd, subtract: false)
                case 1: table = .add(signed: true, pAdd, subtract: true)
                default: table = .mul(signed: true, pMul)
                }
                let ux = UnsafeRawPointer(x).assumingMemoryBound(to: UInt8.self), uy = UnsafeRawPointer(y).assumingMemoryBound(to: UInt8.self)
                got.withUnsafeMutableBufferPointer { g in
                    let o = UnsafeMutableRawPointer(g.baseAddress!).assumingMemoryBound(to: UInt8.self)
                    if layout.isElementwise {
                        table.apply(range: 0..<layout.elementCount, ux, uy, o)
                    } else {
                        table.apply(layout: layout, rows: 0..<layout.rowCount, ux, uy, o)
                    }
                }
            } }
            XCTAssertEqual(got, want, "trial \(trial) \(sa) \(sb)")
        }
    }

    /// The vector-built tables equal, entry for entry, the tables tabulated with the reference
    /// element functions (all 64K pairs, int8 and uint8, ADD, SUB and MUL).
    func testVectorBuiltPairTablesMatchElementFunctions() {
        var rng = SeededGenerator(seed: 16)
        var vectorBuilt = 0
        for trial in 0..<48 {
            let signed = trial % 2 == 0, mul = trial % 3 == 2, subtract = trial % 3 == 1
            let (pAdd, pMul) = randomAddParams(&rng, signed: signed, mul: mul)
            let got: QuantizedPairTable, want: QuantizedPairTable
            if mul {
                got = .mul(signed: signed, pMul)
                want = QuantizedPairTable(signed: signed) { BinaryArithmeticReference.quantizedMulElement($0, $1, pMul) }
                if QuantizedBinaryArithmeticOptimized.supports(pMul) { vectorBuilt += 1 }
            } else {
                got = .add(signed: signed, pAdd, subtract: subtract)
                want = QuantizedPairTable(signed: signed) {
                    BinaryArithmeticReference.quantizedAddElement($0, $1, pAdd, subtract: subtract)
                }
                if QuantizedBinaryArithmeticOptimized.supports(pAdd) { vectorBuilt += 1 }
            }
            XCTAssertEqual(got.entries, want.entries, "trial \(trial) signed \(signed) mul \(mul) subtract \(subtract)")
        }
        XCTAssertGreaterThan(vectorBuilt, 24, "most random parameters take the vector construction")
    }

    /// ADD and SUB tables equal the element function's on adversarial parameters: scales over
    /// twelve decades (sums that barely move the output, or move it every step), zero points
    /// at the ends of the code range and outside it, and one-code clamps.
    func testAddPairTablesMatchElementFunctionOnExtremeParameters() {
        var rng = SeededGenerator(seed: 61)
        for trial in 0..<64 {
            let signed = trial % 2 == 0, subtract = trial % 4 >= 2
            let lo: Int32 = signed ? -128 : 0, hi: Int32 = signed ? 127 : 255
            func scale() -> Float { Float(pow(10, Double.random(in: -7...5, using: &rng))) }
            func zp() -> Int32 { [lo, hi, lo + 1, hi - 1, Int32.random(in: lo...hi, using: &rng)][Int.random(in: 0..<5, using: &rng)] }
            let zo = trial % 16 == 15 ? hi + 300 : zp()
            let (amin, amax): (Int32, Int32)
            switch trial % 5 {
            case 0: (amin, amax) = (lo, hi)
            case 1: (amin, amax) = (zo.clamped(lo, hi), zo.clamped(lo, hi))
            case 2: (amin, amax) = (hi, hi)
            case 3: (amin, amax) = (lo, lo + 1)
            default: (amin, amax) = (max(lo, zo.clamped(lo, hi) - 3), hi)
            }
            let p = BinaryArithmeticReference.QuantizedAddParams(
                input1Scale: scale(), input1ZeroPoint: zp(), input2Scale: scale(), input2ZeroPoint: zp(),
                outputScale: scale(), outputZeroPoint: zo, leftShift: 20, activationMin: amin, activationMax: amax)
            let want = QuantizedPairTable(signed: signed) { BinaryArithmeticReference.quantizedAddElement($0, $1, p, subtract: subtract) }
            XCTAssertEqual(QuantizedPairTable.add(signed: signed, p, subtract: subtract).entries, want.entries,
                           "trial \(trial): \(p)")
        }
    }

    func testUInt8PairTablesMatchReference() throws {
        var rng = SeededGenerator(seed: 14)
        for trial in 0..<30 {
            let (sa, sb) = randomShapes(&rng)
            let layout = try BroadcastLayout(sa, sb)
            let (pAdd, pMul) = randomAddParams(&rng, signed: false, mul: trial % 2 == 1)
            let a = (0..<sa.reduce(1, *)).map { _ in UInt8.random(in: .min ... .max, using: &rng) }
            let b = (0..<sb.reduce(1, *)).map { _ in UInt8.random(in: .min ... .max, using: &rng) }
            var want = [UInt8](repeating: 0, count: layout.elementCount), got = want
            a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in
                let x = pa.baseAddress!, y = pb.baseAddress!
                want.withUnsafeMutableBufferPointer { w in
                    if trial % 2 == 0 {
                        BinaryArithmeticReference.quantizedAdd(layout: layout, rows: 0..<layout.rowCount, x, y, w.baseAddress!, pAdd)
                    } else {
                        BinaryArithmeticReference.quantizedMul(layout: layout, rows: 0..<layout.rowCount, x, y, w.baseAddress!, pMul)
                    }
                }
                let table: QuantizedPairTable = trial % 2 == 0 ? .add(signed: false, pAdd, subtract: false) : .mul(signed: false, pMul)
                got.withUnsafeMutableBufferPointer { g in
                    if layout.isElementwise {
                        table.apply(range: 0..<layout.elementCount, x, y, g.baseAddress!)
                    } else {
                        table.apply(layout: layout, rows: 0..<layout.rowCount, x, y, g.baseAddress!)
                    }
                }
            } }
            XCTAssertEqual(got, want, "trial \(trial) \(sa) \(sb)")
        }
    }

    func testPerChannelPreluMatchesTheReferenceBitForBit() throws {
        var rng = SeededGenerator(seed: 2817)
        for (xShape, alphaShape) in [([1, 6, 5, 16], [1, 1, 16]), ([2, 3, 37], [37]), ([1, 4, 3, 8], [1, 1, 1, 8]),
                                     ([1, 2, 3, 4], [3, 4]), ([2, 3], [2, 3]), ([3, 40], [1, 40]),
                                     // Short rows, many of them: stretches of whole repeated-alpha periods.
                                     ([1, 9, 7, 8], [1, 1, 8]), ([1, 41, 37], [37]), ([3, 50, 3], [3]), ([1, 33, 24], [24]),
                                     ([5, 63], [63]), ([1, 300, 2], [2]),
                                     // Rows of 64 channels and more, with and without a rest past the last vector.
                                     ([1, 5, 5, 64], [64]), ([2, 7, 80], [80]), ([1, 3, 3, 100], [1, 1, 100])] {
            let layout = try BroadcastLayout(xShape, alphaShape)
            XCTAssertTrue(layout.repeatsBAlongRows, "\(xShape) with alpha \(alphaShape)")
            var x = rng.floats(layout.elementCount, in: -5...5)
            for k in stride(from: 0, to: x.count, by: 7) { x[k] = [Float.nan, -0.0, 0.0, .infinity, -.infinity][k % 5] }
            var alpha = rng.floats(alphaShape.reduce(1, *), in: -2...2)
            alpha[0] = .nan
            var want = [Float](repeating: 0, count: x.count), got = [Float](repeating: 1, count: x.count)
            ActivationReference.preluFloat32(layout: layout, rows: 0..<layout.rowCount, x, alpha, &want)
            let split = layout.rowCount / 2
            got.withUnsafeMutableBufferPointer { out in
                ActivationOptimized.preluFloat32(rows: 0..<split, inner: layout.innerCount, x, alpha, out.baseAddress!)
                ActivationOptimized.preluFloat32(rows: split..<layout.rowCount, inner: layout.innerCount, x, alpha, out.baseAddress!)
            }
            XCTAssertEqual(got.map(\.bitPattern), want.map(\.bitPattern), "\(xShape) with alpha \(alphaShape)")
        }
        // Layouts where alpha does not simply repeat along the rows (one alpha for everything,
        // one per row, a broadcast in the middle) keep the general kernel.
        for (xShape, alphaShape) in [([5, 1], [1]), ([4, 5], [4, 1]), ([2, 3, 4], [2, 1, 4])] {
            XCTAssertFalse(try BroadcastLayout(xShape, alphaShape).repeatsBAlongRows, "\(xShape) with alpha \(alphaShape)")
        }
    }
}

/// The table-driven quantized softmax against the reference kernel.
final class ElementwiseSoftmaxTableTests: XCTestCase {
    func testSoftmaxTableMatchesReference() {
        var rng = SeededGenerator(seed: 15)
        for trial in 0..<40 {
            let beta = Float.random(in: 0.2...3, using: &rng), scale = Float.random(in: 0.005...0.5, using: &rng)
            let p = SoftmaxReference.QuantizedParams(beta: beta, inputScale: scale)
            let table = QuantizedSoftmaxTable(p)
            // Every fourth trial: YOLOv8's shape (rows of 16, more than one group of 16 rows) with
            // adversarial rows: constant (ties everywhere), or only the extremes −128 and 127.
            let adversarial = trial % 4 == 3
            let depth = adversarial ? 16 : Int.random(in: 1...70, using: &rng)
            let rows = adversarial ? 37 : Int.random(in: 1...5, using: &rng)
            let x = (0..<(depth * rows)).map { i -> Int8 in
                guard adversarial else { return Int8.random(in: .min ... .max, using: &rng) }
                switch i / depth % 3 {
                case 0: return Int8(truncatingIfNeeded: i / depth * 7)
                case 1: return Bool.random(using: &rng) ? .min : .max
                default: return Int8.random(in: .min ... .max, using: &rng)
                }
            }
            var want = [Int8](repeating: 0, count: x.count), got = want
            var want16 = [Int16](repeating: 0, count: x.count), got16 = want16
            x.withUnsafeBufferPointer { px in
                want.withUnsafeMutableBufferPointer { SoftmaxReference.int8(p, depth: depth, rows: 0..<rows, px.baseAddress!, $0.baseAddress!) }
                got.withUnsafeMutableBufferPointer { table.int8(depth: depth, rows: 0..<rows, px.baseAddress!, $0.baseAddress!) }
                want16.withUnsafeMutableBufferPointer { SoftmaxReference.int8ToInt16(p, depth: depth, rows: 0..<rows, px.baseAddress!, $0.baseAddress!) }
                got16.withUnsafeMutableBufferPointer { table.int8ToInt16(depth: depth, rows: 0..<rows, px.baseAddress!, $0.baseAddress!) }
            }
            XCTAssertEqual(got, want, "trial \(trial)")
            XCTAssertEqual(got16, want16, "trial \(trial) int16 output")
            let u = x.map { UInt8(bitPattern: $0) }
            var wantU = [UInt8](repeating: 0, count: x.count), gotU = wantU
            u.withUnsafeBufferPointer { pu in
                wantU.withUnsafeMutableBufferPointer { SoftmaxReference.uint8(p, depth: depth, rows: 0..<rows, pu.baseAddress!, $0.baseAddress!) }
                gotU.withUnsafeMutableBufferPointer { table.uint8(depth: depth, rows: 0..<rows, pu.baseAddress!, $0.baseAddress!) }
            }
            XCTAssertEqual(gotU, wantU, "trial \(trial) uint8")
            // Again with the exponentials in a poisoned workspace of the declared bytes.
            let workspace = PoisonedWorkspace(byteCount: QuantizedSoftmaxTable.workspaceBytes(depth: depth))
            var gotInWorkspace = [Int8](repeating: 0, count: x.count)
            x.withUnsafeBufferPointer { px in
                gotInWorkspace.withUnsafeMutableBufferPointer {
                    table.int8(depth: depth, rows: 0..<rows, px.baseAddress!, $0.baseAddress!, workspace: workspace.workspace)
                }
            }
            workspace.assertGuardIntact("trial \(trial)")
            XCTAssertEqual(gotInWorkspace, want, "trial \(trial) in a workspace")
        }
    }
}

private extension Int32 {
    func clamped(_ lo: Int32, _ hi: Int32) -> Int32 { Swift.min(hi, Swift.max(lo, self)) }
}
