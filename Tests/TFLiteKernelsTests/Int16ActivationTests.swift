import XCTest
@testable import TFLiteKernels

/// Contracts of the int16 LOGISTIC / TANH / SOFTMAX pieces that the goldens (family `int16x8`)
/// do not reach: the table path's accepted input scales, the interpolated table's ends, and
/// the fixed-point functions' symmetries on every code.
final class Int16ActivationTests: XCTestCase {
    func testTableRescalingFollowsTheReferenceAndRejectsWhatItCannotApply() throws {
        let unit = try XCTUnwrap(ActivationReference.Int16SigmoidTableParams.general(inputScale: 1))
        XCTAssertEqual(unit.multiplier, 24576)   // 12288, doubled once
        XCTAssertEqual(unit.rightShift, 1)
        let five = try XCTUnwrap(ActivationReference.Int16SigmoidTableParams.general(inputScale: 5))
        XCTAssertEqual(five.multiplier, 61440)
        XCTAssertEqual(five.rightShift, 0)
        // Products would pass 32 bits; the multiplier would truncate to 0.
        XCTAssertNil(ActivationReference.Int16SigmoidTableParams.general(inputScale: 6))
        XCTAssertNil(ActivationReference.Int16SigmoidTableParams.general(inputScale: 1e-15))
        XCTAssertNil(ActivationReference.Int16SigmoidTableParams.general(inputScale: .infinity))
    }

    func testInterpolatedTableReadsBothEndsInBounds() {
        let table = Int16InterpolatedTable(inputScale: 1.0 / 65535, inputZeroPoint: -32768,
                                           outputScale: 2.0 / 65535, outputZeroPoint: 0) { 1 / (1 + $0) }
        XCTAssertEqual(table.entries.count, 513)
        XCTAssertEqual(table.lookup(-32768), table.entries[0])            // 1/(1+0) = 1 → 32767
        XCTAssertEqual(table.entries[0], 32767)
        XCTAssertEqual(table.entries[512], 16384)                         // 1/2
        XCTAssertLessThanOrEqual(abs(Int(table.lookup(32767)) - 16384), 1)
    }

    func testFixedPointLogisticAndTanhSymmetries() {
        XCTAssertEqual(GemmlowpFixedPoint16.logistic(0), 16384)
        XCTAssertEqual(GemmlowpFixedPoint16.tanh(0), 0)
        for code in Int16(-32767)...Int16.max {
            let l = Int(GemmlowpFixedPoint16.logistic(code)), m = Int(GemmlowpFixedPoint16.logistic(-code))
            XCTAssertLessThanOrEqual(abs(l + m - 32767), 1, "logistic(\(code)) + logistic(\(-code))")
            XCTAssertEqual(GemmlowpFixedPoint16.tanh(-code), -GemmlowpFixedPoint16.tanh(code), "tanh(\(code))")
        }
        XCTAssertGreaterThan(GemmlowpFixedPoint16.logistic(.max), 32700)
        XCTAssertLessThan(GemmlowpFixedPoint16.logistic(.min), 70)
    }

    func testSoftmaxRowOfEqualValuesIsUniform() {
        let p = SoftmaxReference.Int16Params(beta: 1, inputScale: 0.001)
        for depth in [1, 2, 7, 64] {
            let x = [Int16](repeating: -32768, count: depth)
            var out = [Int16](repeating: 0, count: depth)
            x.withUnsafeBufferPointer { xp in
                out.withUnsafeMutableBufferPointer { SoftmaxReference.int16(p, depth: depth, rows: 0..<1, xp.baseAddress!, $0.baseAddress!) }
            }
            XCTAssertEqual(Set(out).count, 1, "depth \(depth)")
            XCTAssertLessThanOrEqual(abs(Int(out[0]) * depth - 32768), depth, "depth \(depth): \(out[0])")
        }
    }
}
