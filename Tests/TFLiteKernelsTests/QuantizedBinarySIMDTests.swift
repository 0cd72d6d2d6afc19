import TestSupport
import XCTest
@testable import TFLiteKernels

/// The vector 8-bit quantized ADD / SUB / MUL against the reference element functions:
/// every pair of input codes for random and extreme quantization parameters, then random
/// broadcast shapes through the row walk.
final class QuantizedBinarySIMDTests: XCTestCase {
    /// Scales from tiny to large, zero points at the ends of the type's range.
    private func randomQuantization(_ rng: inout SeededGenerator, signed: Bool) -> (scale: Float, zeroPoint: Int32) {
        let scale = Float(pow(2, Double.random(in: -12...3, using: &rng)))
        let zeroPoints: [Int32] = signed ? [-128, 127, 0, -1] : [0, 255, 128]
        let zp = Bool.random(using: &rng) ? zeroPoints.randomElement(using: &rng)!
                                          : Int32.random(in: (signed ? -128 : 0)...(signed ? 127 : 255), using: &rng)
        return (scale, zp)
    }

    private func activation(_ rng: inout SeededGenerator, signed: Bool) -> (Int32, Int32) {
        let lo: Int32 = signed ? -128 : 0, hi: Int32 = signed ? 127 : 255
        if Bool.random(using: &rng) { return (lo, hi) }
        let a = Int32.random(in: lo...hi, using: &rng), b = Int32.random(in: lo...hi, using: &rng)
        return (min(a, b), max(a, b))
    }

    /// Every (a, b) code pair, laid out as two 65536-element operands.
    private func allPairs<T: FixedWidthInteger>(_: T.Type) -> ([T], [T]) {
        var a = [T](), b = [T]()
        a.reserveCapacity(65536); b.reserveCapacity(65536)
        for hi in 0..<256 { for lo in 0..<256 {
            a.append(T(truncatingIfNeeded: hi)); b.append(T(truncatingIfNeeded: lo))
        } }
        return (a, b)
    }

    func testMulMatchesReferenceOnEveryCodePair() {
        var rng = SeededGenerator(seed: 51)
        let (ai, bi) = allPairs(Int8.self), (au, bu) = allPairs(UInt8.self)
        var tested = 0
        for trial in 0..<24 {
            let signed = trial % 2 == 0
            let qa = randomQuantization(&rng, signed: signed), qb = randomQuantization(&rng, signed: signed)
            let qo = randomQuantization(&rng, signed: signed)
            let (lo, hi) = activation(&rng, signed: signed)
            let p = BinaryArithmeticReference.QuantizedMulParams(input1Scale: qa.scale, input1ZeroPoint: qa.zeroPoint, input2Scale: qb.scale,
                                                        input2ZeroPoint: qb.zeroPoint, outputScale: qo.scale,
                                                        outputZeroPoint: qo.zeroPoint, activationMin: lo, activationMax: hi)
            guard QuantizedBinaryArithmeticOptimized.supports(p) else { continue }
            tested += 1
            if signed {
                var got = [Int8](repeating: 0, count: 65536)
                QuantizedBinaryArithmeticOptimized.mul(p, range: 0..<65536, ai, bi, &got)
                for i in 0..<65536 where Int32(got[i]) != BinaryArithmeticReference.quantizedMulElement(Int32(ai[i]), Int32(bi[i]), p) {
                    XCTFail("int8 MUL \(p): \(ai[i]) × \(bi[i]) gave \(got[i])"); break
                }
            } else {
                var got = [UInt8](repeating: 0, count: 65536)
                QuantizedBinaryArithmeticOptimized.mul(p, range: 0..<65536, au, bu, &got)
                for i in 0..<65536 where Int32(got[i]) != BinaryArithmeticReference.quantizedMulElement(Int32(au[i]), Int32(bu[i]), p) {
                    XCTFail("uint8 MUL \(p): \(au[i]) × \(bu[i]) gave \(got[i])"); break
                }
            }
        }
        XCTAssertGreaterThan(tested, 16, "most random MUL parameters are within the vector kernel's range")
    }

    func testAddAndSubMatchReferenceOnEveryCodePair() {
        var rng = SeededGenerator(seed: 52)
        let (ai, bi) = allPairs(Int8.self), (au, bu) = allPairs(UInt8.self)
        var tested = 0
        for trial in 0..<32 {
            let signed = trial % 2 == 0, subtract = trial % 4 >= 2
            let qa = randomQuantization(&rng, signed: signed), qb = randomQuantization(&rng, signed: signed)
            let qo = randomQuantization(&rng, signed: signed)
            let (lo, hi) = activation(&rng, signed: signed)
            let p = BinaryArithmeticReference.QuantizedAddParams(input1Scale: qa.scale, input1ZeroPoint: qa.zeroPoint, input2Scale: qb.scale,
                                                        input2ZeroPoint: qb.zeroPoint, outputScale: qo.scale,
                                                        outputZeroPoint: qo.zeroPoint, leftShift: 20, activationMin: lo, activationMax: hi)
            guard QuantizedBinaryArithmeticOptimized.supports(p) else { continue }
            tested += 1
            if signed {
                var got = [Int8](repeating: 0, count: 65536)
                QuantizedBinaryArithmeticOptimized.add(p, subtract: subtract, range: 0..<65536, ai, bi, &got)
                for i in 0..<65536
                where Int32(got[i]) != BinaryArithmeticReference.quantizedAddElement(Int32(ai[i]), Int32(bi[i]), p, subtract: subtract) {
                    XCTFail("int8 \(subtract ? "SUB" : "ADD") \(p): \(ai[i]), \(bi[i]) gave \(got[i])"); break
                }
            } else {
                var got = [UInt8](repeating: 0, count: 65536)
                QuantizedBinaryArithmeticOptimized.add(p, subtract: subtract, range: 0..<65536, au, bu, &got)
                for i in 0..<65536
                where Int32(got[i]) != BinaryArithmeticReference.quantizedAddElement(Int32(au[i]), Int32(bu[i]), p, subtract: subtract) {
                    XCTFail("uint8 \(subtract ? "SUB" : "ADD") \(p): \(au[i]), \(bu[i]) gave \(got[i])"); break
                }
            }
        }
        XCTAssertGreaterThan(tested, 16, "most random ADD parameters are within the vector kernel's range")
    }

    func testBroadcastRowsMatchReference() throws {
        var rng = SeededGenerator(seed: 53)
        let shapes: [([Int], [Int])] = [
            ([1, 40, 40, 64], [1, 40, 40, 64]), ([2, 3, 37], [2, 3, 1]), ([2, 3, 1], [2, 3, 37]), ([5, 33], [33]),
            ([33], [5, 33]), ([1, 4, 17], [3, 1, 17]), ([16], [16]), ([7, 1], [7, 1]), ([1], [300]), ([3, 1, 31], [1, 1, 1]),
        ]
        for (trial, (sa, sb)) in shapes.enumerated() {
            let layout = try BroadcastLayout(sa, sb)
            let a = (0..<sa.reduce(1, *)).map { _ in Int8.random(in: .min ... .max, using: &rng) }
            let b = (0..<sb.reduce(1, *)).map { _ in Int8.random(in: .min ... .max, using: &rng) }
            let qa = randomQuantization(&rng, signed: true), qb = randomQuantization(&rng, signed: true)
            let qo = randomQuantization(&rng, signed: true)
            let mp = BinaryArithmeticReference.QuantizedMulParams(input1Scale: qa.scale, input1ZeroPoint: qa.zeroPoint, input2Scale: qb.scale,
                                                         input2ZeroPoint: qb.zeroPoint, outputScale: qo.scale,
                                                         outputZeroPoint: qo.zeroPoint, activationMin: -128, activationMax: 127)
            let ap = BinaryArithmeticReference.QuantizedAddParams(input1Scale: qa.scale, input1ZeroPoint: qa.zeroPoint, input2Scale: qb.scale,
                                                         input2ZeroPoint: qb.zeroPoint, outputScale: qo.scale,
                                                         outputZeroPoint: qo.zeroPoint, leftShift: 20,
                                                         activationMin: -100, activationMax: 120)
            var want = [Int8](repeating: 0, count: layout.elementCount), got = want
            if QuantizedBinaryArithmeticOptimized.supports(mp) {
                BinaryArithmeticReference.quantizedMul(layout: layout, rows: 0..<layout.rowCount, a, b, &want, mp)
                // Two uneven row chunks, as a thread split would give.
                let mid = layout.rowCount / 3
                QuantizedBinaryArithmeticOptimized.mul(mp, layout: layout, rows: 0..<mid, a, b, &got)
                QuantizedBinaryArithmeticOptimized.mul(mp, layout: layout, rows: mid..<layout.rowCount, a, b, &got)
                XCTAssertEqual(got, want, "MUL \(sa) \(sb)")
            }
            if QuantizedBinaryArithmeticOptimized.supports(ap) {
                let subtract = trial % 2 == 1
                BinaryArithmeticReference.quantizedAdd(layout: layout, rows: 0..<layout.rowCount, a, b, &want, ap, subtract: subtract)
                QuantizedBinaryArithmeticOptimized.add(ap, subtract: subtract, layout: layout, rows: 0..<layout.rowCount, a, b, &got)
                XCTAssertEqual(got, want, "ADD/SUB \(sa) \(sb)")
            }
        }
    }
}
