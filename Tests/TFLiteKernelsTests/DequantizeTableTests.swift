import XCTest
import TFLiteKernels

/// `DequantizeTable` against `DequantizeReference.affine`, bit for bit, on every code of both
/// signednesses with scales and zero points at their extremes, in split ranges.
final class DequantizeTableTests: XCTestCase {
    func testEveryCodeMatchesTheReference() {
        let scales: [Float] = [0.0039215689, 1, 0.1, 3.4e38, 1.2e-38, .leastNonzeroMagnitude, 0.0072534713]
        for scale in scales {
            for (signed, zeroPoints) in [(true, [Int32(-128), 0, 127, 5]), (false, [Int32(0), 128, 255, 77])] {
                for zeroPoint in zeroPoints {
                    let codes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
                    var want = [Float](repeating: 0, count: codes.count), got = [Float](repeating: .nan, count: codes.count)
                    codes.withUnsafeBufferPointer { c in
                        if signed {
                            let s = UnsafeRawPointer(c.baseAddress!).assumingMemoryBound(to: Int8.self)
                            DequantizeReference.affine(s, count: codes.count, scale: scale, zeroPoint: zeroPoint, output: &want)
                        } else {
                            DequantizeReference.affine(c.baseAddress!, count: codes.count, scale: scale, zeroPoint: zeroPoint,
                                                       output: &want)
                        }
                        let table = DequantizeTable(scale: scale, zeroPoint: zeroPoint, signed: signed)
                        got.withUnsafeMutableBufferPointer { out in
                            table.run(c.baseAddress!, output: out.baseAddress!, range: 0..<333)
                            table.run(c.baseAddress!, output: out.baseAddress!, range: 333..<codes.count)
                        }
                    }
                    XCTAssertEqual(got.map(\.bitPattern), want.map(\.bitPattern),
                                   "scale \(scale), zero point \(zeroPoint), \(signed ? "int8" : "uint8")")
                }
            }
        }
    }
}
