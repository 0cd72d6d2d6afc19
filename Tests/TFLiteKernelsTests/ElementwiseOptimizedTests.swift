import TestSupport
import XCTest
@testable import TFLiteKernels

/// The optimized elementwise kernels against their reference twins on random shapes
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
        let ops: [BinaryArithmetic.Operation] = [.add, .sub, .mul, .div, .maximum, .minimum, .squaredDifference]
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
                    BinaryArithmetic.float32(op, layout: layout, rows: 0..<layout.rowCount, pa.baseAddress!, pb.baseAddress!,
                                             pw.baseAddress!, activationMin: lo, activationMax: hi)
                }
                got.withUnsafeMutableBufferPointer { pg in
                    if layout.isElementwise {
                        OptimizedBinaryArithmetic.float32Elementwise(op, range: 0..<layout.elementCount, pa.baseAddress!,
                                                                     pb.baseAddress!, pg.baseAddress!, activationMin: lo, activationMax: hi)
                    } else {
                        OptimizedBinaryArithmetic.float32(op, layout: layout, rows: 0..<layout.rowCount, pa.baseAddress!,
                                                          pb.baseAddress!, pg.baseAddress!, activationMin: lo, activationMax: hi)
                    }
                }
            } }
            XCTAssertEqual(got, want, "\(op) \(sa) \(sb)")
        }
    }

    func testFloatActivationsWithinTolerance() {
        var rng = SeededGenerator(seed: 12)
        let functions: [ActivationKernels.Float32Function] = [.logistic, .tanh, .hardSwish, .clamp(0, 6), .clamp(-1, 1),
                                                              .leakyRelu(alpha: 0.1)]
        for f in functions {
            for n in [1, 15, 16, 17, 100, 1023] {
                let x = rng.floats(n, in: -20...20)
                var want = [Float](repeating: 0, count: n), got = want
                x.withUnsafeBufferPointer { px in
                    want.withUnsafeMutableBufferPointer { ActivationKernels.float32(f, range: 0..<n, px.baseAddress!, $0.baseAddress!) }
                    got.withUnsafeMutableBufferPointer { OptimizedActivation.float32(f, range: 0..<n, px.baseAddress!, $0.baseAddress!) }
                }
                for i in 0..<n {
                    XCTAssertEqual(got[i], want[i], accuracy: 2e-6 * max(1, abs(want[i])), "\(f) x=\(x[i])")
                }
            }
        }
    }

    private func randomAddParams(_ rng: inout SeededGenerator, signed: Bool, mul: Bool) -> (BinaryArithmetic.QuantizedAddParams, BinaryArithmetic.QuantizedMulParams) {
        let lo: Int32 = signed ? -128 : 0, hi: Int32 = signed ? 127 : 255
        func zp() -> Int32 { Int32.random(in: lo...hi, using: &rng) }
        func scale() -> Float { Float.random(in: 0.001...0.5, using: &rng) }
        let s1 = scale(), s2 = scale(), so = mul ? Float.random(in: 0.0005...0.05, using: &rng) : scale()
        let z1 = zp(), z2 = zp(), zo = zp()
        let amin = Bool.random(using: &rng) ? lo : min(hi, zo)
        let add = BinaryArithmetic.QuantizedAddParams(input1Scale: s1, input1ZeroPoint: z1, input2Scale: s2, input2ZeroPoint: z2,
                                                       outputScale: so, outputZeroPoint: zo, leftShift: 20,
                                                       activationMin: amin, activationMax: hi)
        let m = BinaryArithmetic.QuantizedMulParams(input1Scale: s1, input1ZeroPoint: z1, input2Scale: s2, input2ZeroPoint: z2,
                                                     outputScale: so, outputZeroPoint: zo, activationMin: amin, activationMax: hi)
        return (add, m)
    }

    func testQuantizedInt8AddSubMulBitExact() throws {
        var rng = SeededGenerator(seed: 13)
        for trial in 0..<150 {
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
                    case 0: BinaryArithmetic.quantizedAdd(layout: layout, rows: 0..<layout.rowCount, x, y, w.baseAddress!, pAdd)
                    case 1: BinaryArithmetic.quantizedAdd(layout: layout, rows: 0..<layout.rowCount, x, y, w.baseAddress!, pAdd, subtract: true)
                    default: BinaryArithmetic.quantizedMul(layout: layout, rows: 0..<layout.rowCount, x, y, w.baseAddress!, pMul)
                    }
                }
                got.withUnsafeMutableBufferPointer { g in
                    let n = layout.elementCount, rows = 0..<layout.rowCount, o = g.baseAddress!
                    switch (trial % 3, layout.isElementwise) {
                    case (0, true): OptimizedQuantizedArithmetic.addInt8(range: 0..<n, x, y, o, pAdd)
                    case (0, false): OptimizedQuantizedArithmetic.addInt8(layout: layout, rows: rows, x, y, o, pAdd)
                    case (1, true): OptimizedQuantizedArithmetic.addInt8(range: 0..<n, x, y, o, pAdd, subtract: true)
                    case (1, false): OptimizedQuantizedArithmetic.addInt8(layout: layout, rows: rows, x, y, o, pAdd, subtract: true)
                    case (_, true): OptimizedQuantizedArithmetic.mulInt8(range: 0..<n, x, y, o, pMul)
                    default: OptimizedQuantizedArithmetic.mulInt8(layout: layout, rows: rows, x, y, o, pMul)
                    }
                }
            } }
            XCTAssertEqual(got, want, "trial \(trial) \(sa) \(sb)")
        }
    }

    func testQuantizedUInt8AddMulBitExact() throws {
        var rng = SeededGenerator(seed: 14)
        for trial in 0..<100 {
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
                        BinaryArithmetic.quantizedAdd(layout: layout, rows: 0..<layout.rowCount, x, y, w.baseAddress!, pAdd)
                    } else {
                        BinaryArithmetic.quantizedMul(layout: layout, rows: 0..<layout.rowCount, x, y, w.baseAddress!, pMul)
                    }
                }
                got.withUnsafeMutableBufferPointer { g in
                    if trial % 2 == 0 {
                        OptimizedQuantizedArithmetic.addUInt8(layout: layout, rows: 0..<layout.rowCount, x, y, g.baseAddress!, pAdd)
                    } else {
                        OptimizedQuantizedArithmetic.mulUInt8(layout: layout, rows: 0..<layout.rowCount, x, y, g.baseAddress!, pMul)
                    }
                }
            } }
            XCTAssertEqual(got, want, "trial \(trial) \(sa) \(sb)")
        }
    }
}
