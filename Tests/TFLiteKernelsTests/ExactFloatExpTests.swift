#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport
import XCTest
@testable import TFLiteKernels

/// `ExactFloatExp` equals the C library's `expf` bit for bit, and the optimized float LOGISTIC
/// equals the reference's (hybrid models quantize LOGISTIC outputs on the fly: one ulp can
/// move a value across a rounding boundary and change thousands of outputs).
final class ExactFloatExpTests: XCTestCase {
    func testExpMatchesTheCLibraryBitForBit() {
        var rng = SeededGenerator(seed: 71)
        var inputs: [Float] = [0, -0, 1, -1, 0.5, -9, 16.619047, 88, -88, 88.72284, -103.97, -104, 89,
                               .infinity, -.infinity, .nan, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                               -.greatestFiniteMagnitude]
        // Every float of |x| < 20 at a stride, and random bit patterns.
        var bits: UInt32 = 0
        while bits < 0x41A0_0000 {
            inputs.append(Float(bitPattern: bits)); inputs.append(-Float(bitPattern: bits))
            bits &+= 997
        }
        for _ in 0..<200_000 { inputs.append(Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))) }
        var differing: [Float] = []
        for x in inputs {
            let ours = ExactFloatExp.exp(x), libm = expf(x)
            if ours.bitPattern != libm.bitPattern && !(ours.isNaN && libm.isNaN) { differing.append(x) }
        }
        XCTAssertEqual(differing.count, 0, "differs from expf at \(differing.prefix(5)) (of \(inputs.count) inputs)")
    }

    func testOptimizedLogisticIsBitExactWithTheReference() {
        var rng = SeededGenerator(seed: 72)
        var x = (0..<100_000).map { _ in rng.float() * 20 }
        x += [-9, -9.000001, 16.619047, 16.62, 0, -0, 0.5, -0.5, .infinity, -.infinity, .nan, -200, 200]
        var reference = [Float](repeating: 0, count: x.count), optimized = [Float](repeating: .nan, count: x.count)
        ActivationReference.float32(.logistic, range: 0..<x.count, x, &reference)
        ActivationOptimized.float32(.logistic, range: 0..<x.count, x, &optimized)
        XCTAssertNil(TolerantCompare.exactMismatch(optimized.map(Double.init), reference.map(Double.init)))
    }
}
