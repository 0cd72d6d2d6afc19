import TestSupport
import XCTest
@testable import TFLiteKernels

/// The pure-integer half-precision conversion against exact expectations and, where the
/// platform has it, Swift's own `Float16`.
final class DataMovementFloat16Tests: XCTestCase {
    func testKnownValues() {
        XCTAssertEqual(Float16Conversion.float(fromBits: 0x3C00), 1)
        XCTAssertEqual(Float16Conversion.float(fromBits: 0xC000), -2)
        XCTAssertEqual(Float16Conversion.float(fromBits: 0x7BFF), 65504)
        XCTAssertEqual(Float16Conversion.float(fromBits: 0x0001), 5.9604645e-8)
        XCTAssertEqual(Float16Conversion.float(fromBits: 0x8000).sign, .minus)
        XCTAssertEqual(Float16Conversion.float(fromBits: 0x7C00), .infinity)
        XCTAssertTrue(Float16Conversion.float(fromBits: 0x7E00).isNaN)
        XCTAssertEqual(Float16Conversion.bits(from: 1), 0x3C00)
        XCTAssertEqual(Float16Conversion.bits(from: 65520), 0x7C00, "rounds past the largest half to infinity")
        XCTAssertEqual(Float16Conversion.bits(from: 1 + 1.0 / 2048), 0x3C00, "tie rounds to even")
        XCTAssertEqual(Float16Conversion.bits(from: 1 + 3.0 / 2048), 0x3C02, "tie rounds to even")
        XCTAssertEqual(Float16Conversion.bits(from: 1e-9), 0)
    }

    /// Every finite half value survives half → float → half.
    func testEveryHalfRoundTrips() {
        for bits in 0...UInt16.max {
            let f = Float16Conversion.float(fromBits: bits)
            if f.isNaN {
                XCTAssertTrue(Float16Conversion.float(fromBits: Float16Conversion.bits(from: f)).isNaN)
                continue
            }
            XCTAssertEqual(Float16Conversion.bits(from: f), bits, "bits 0x\(String(bits, radix: 16))")
        }
    }

    /// The eight-lane array conversion gives every half value's exact bits (NaN payloads and
    /// signed zeros included), from every alignment and with every tail length.
    func testArrayConversionMatchesScalarOnEveryHalf() {
        let halves = (0...UInt16.max).map { $0 }
        for offset in 0..<3 {
            let count = halves.count - offset - (offset == 0 ? 0 : 5)
            var floats = [Float](repeating: -1234.5, count: count + 1)
            halves.withUnsafeBufferPointer { source in
                floats.withUnsafeMutableBufferPointer { Float16Conversion.convertToFloat(source.baseAddress! + offset, $0.baseAddress!, count: count) }
            }
            for k in 0..<count {
                let bits = halves[k + offset]
                XCTAssertEqual(floats[k].bitPattern, Float16Conversion.float(fromBits: bits).bitPattern,
                               "bits 0x\(String(bits, radix: 16)) at offset \(offset)")
            }
            XCTAssertEqual(floats[count], -1234.5, "nothing is written past count")
        }
    }

    #if !(os(macOS) && arch(x86_64))
    /// Agrees with the platform's Float16 on every half value and on random floats.
    func testMatchesPlatformFloat16() {
        for bits in 0...UInt16.max {
            let reference = Float(Float16(bitPattern: bits))
            let ours = Float16Conversion.float(fromBits: bits)
            if reference.isNaN { XCTAssertTrue(ours.isNaN) } else { XCTAssertEqual(ours.bitPattern, reference.bitPattern) }
        }
        var rng = SeededGenerator(seed: 16)
        for _ in 0..<200_000 {
            let x = Float(bitPattern: UInt32.random(in: 0...UInt32.max, using: &rng))
            if x.isNaN { continue }
            XCTAssertEqual(Float16Conversion.bits(from: x), Float16(x).bitPattern, "\(x)")
        }
    }
    #endif
}
