import TestSupport
import XCTest
@testable import TFLiteKernels

final class ByteRowSumTests: XCTestCase {
    /// The vector sum equals the element sum, signed and unsigned, at lengths around the
    /// 16-byte step and the 256-step flush of the 16-bit lanes (4096 bytes), on all-255 and
    /// all-128 rows (the largest lane totals, and the most negative signed bytes) and on random
    /// bytes, from unaligned starts.
    func testSumsEqualElementSums() {
        var rng = SeededGenerator(seed: 71)
        let lengths = [0, 1, 15, 16, 17, 31, 255, 4095, 4096, 4097, 4111, 8192 + 48, 20_000]
        for count in lengths {
            for fill in 0..<3 {
                let bytes: [UInt8] = (0..<(count + 3)).map { _ in
                    fill == 0 ? 255 : fill == 1 ? 128 : UInt8.random(in: .min ... .max, using: &rng)
                }
                bytes.withUnsafeBytes { raw in
                    let start = raw.baseAddress! + 3
                    let unsigned = (0..<count).reduce(Int32(0)) { $0 + Int32(bytes[3 + $1]) }
                    let signed = (0..<count).reduce(Int32(0)) { $0 + Int32(Int8(bitPattern: bytes[3 + $1])) }
                    XCTAssertEqual(ByteRowSum.sum(start, count: count, signed: false), unsigned, "unsigned, \(count) bytes, fill \(fill)")
                    XCTAssertEqual(ByteRowSum.sum(start, count: count, signed: true), signed, "signed, \(count) bytes, fill \(fill)")
                }
            }
        }
    }
}
