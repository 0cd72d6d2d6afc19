import TestSupport
import XCTest
@testable import TFLiteKernels

/// The vector same-type 8-bit softmax rows against the reference kernel on edge rows: depths
/// around the 16-lane blocks (YOLOv8's distribution-focal-loss rows are 16 wide), constant
/// rows, rows spanning the whole code range, and extreme betas and input scales.
final class SoftmaxVectorTests: XCTestCase {
    private func rows(_ rng: inout SeededGenerator, depth: Int, count: Int) -> [Int8] {
        var x: [Int8] = []
        for r in 0..<count {
            switch r % 4 {
            case 0: x += Array(repeating: Int8.random(in: .min ... .max, using: &rng), count: depth)
            case 1: x += (0..<depth).map { $0 % 2 == 0 ? Int8.min : Int8.max }
            default: x += (0..<depth).map { _ in Int8.random(in: .min ... .max, using: &rng) }
            }
        }
        return x
    }

    func testVectorRowsMatchReference() {
        var rng = SeededGenerator(seed: 61)
        let settings: [(beta: Float, scale: Float)] = [(1, 0.22119), (1, 1e-4), (1, 2.0), (0.01, 0.1), (20, 0.5), (1, 0.00390625)]
        for (beta, scale) in settings {
            let p = SoftmaxReference.QuantizedParams(beta: beta, inputScale: scale)
            let table = QuantizedSoftmaxTable(p)
            for depth in [1, 2, 15, 16, 17, 31, 32, 48, 80, 257] {
                let count = 37  // groups of 16 rows share their reciprocals: two full groups, a partial one
                let x = rows(&rng, depth: depth, count: count)
                var want = [Int8](repeating: 0, count: x.count), got = want
                SoftmaxReference.int8(p, depth: depth, rows: 0..<count, x, &want)
                // Two chunks of rows, as a thread split would give.
                table.int8(depth: depth, rows: 0..<4, x, &got)
                table.int8(depth: depth, rows: 4..<21, x, &got)
                table.int8(depth: depth, rows: 21..<count, x, &got)
                XCTAssertEqual(got, want, "int8 beta \(beta) scale \(scale) depth \(depth)")
                let u = x.map { UInt8(bitPattern: $0) }
                var wantU = [UInt8](repeating: 0, count: x.count), gotU = wantU
                SoftmaxReference.uint8(p, depth: depth, rows: 0..<count, u, &wantU)
                table.uint8(depth: depth, rows: 0..<count, u, &gotU)
                XCTAssertEqual(gotU, wantU, "uint8 beta \(beta) scale \(scale) depth \(depth)")
            }
        }
    }

    /// The 16-lane reciprocal equals the scalar one on every power of two, its neighbours, the
    /// extremes and 200,000 random positive sums, at the softmax's and the division's integer bits.
    func testVectorReciprocalMatchesScalar() {
        var rng = SeededGenerator(seed: 62)
        var values: [Int32] = [1, 2, 3, Int32.max, Int32.max - 1]
        for k in 0..<31 { values += [Int32(1) << k, (Int32(1) << k) &+ 1, max(1, (Int32(1) << k) &- 1)] }
        values += (0..<200_000).map { _ in Int32.random(in: 1 ... .max, using: &rng) }
        values += (0..<20_000).map { _ in Int32.random(in: 1 ... (1 << 24), using: &rng) }
        for digits in [12, 31] {
            for start in stride(from: 0, to: values.count - 15, by: 16) {
                let lanes = Array(values[start..<(start + 16)])
                var value = [Int32](repeating: 0, count: 16), bits = value
                FixedPointReciprocalSIMD.reciprocals(lanes, integerDigits: digits, values: &value, bitsOverUnit: &bits)
                for l in 0..<16 {
                    let (want, wantBits) = GemmlowpFixedPoint.reciprocal(lanes[l], integerDigits: digits)
                    XCTAssertEqual(value[l], want, "1/\(lanes[l]) at \(digits) integer bits")
                    XCTAssertEqual(Int(bits[l]), wantBits, "bits over unit of \(lanes[l])")
                }
            }
        }
    }
}
