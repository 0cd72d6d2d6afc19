import TestSupport
import XCTest
import TFLiteKernels

/// `DepthMultiplierExpansion` against the layout it promises (output channel `c·m + j` of a
/// pixel holds input channel `c`), on random channel counts and multipliers, for bytes and for
/// float bit patterns (NaN payloads and negative zeros included), in runs of pixels as the
/// interpreter splits them, with guard elements after each output.
final class DepthMultiplierExpansionTests: XCTestCase {
    func testBytesRepeatEachChannelInPlaceOfItsOutputChannels() {
        var rng = SeededGenerator(seed: 2026_11_28)
        for _ in 0..<60 {
            let (pixels, channels, multiplier) = (Int.random(in: 0...37, using: &rng), Int.random(in: 1...9, using: &rng),
                                                  Int.random(in: 1...11, using: &rng))
            let input = (0..<(pixels * channels)).map { _ in UInt8.random(in: .min ... .max, using: &rng) }
            let expandedCount = pixels * channels * multiplier
            var output = [UInt8](repeating: 0xA5, count: expandedCount + 16)
            let split = Int.random(in: 0...pixels, using: &rng)
            input.withUnsafeBufferPointer { x in
                output.withUnsafeMutableBufferPointer { y in
                    // Two runs of pixels, as two chunks of rows would be.
                    DepthMultiplierExpansion.expand(x.baseAddress!, channels: channels, multiplier: multiplier, pixels: split,
                                                    into: y.baseAddress!)
                    DepthMultiplierExpansion.expand(x.baseAddress! + split * channels, channels: channels, multiplier: multiplier,
                                                    pixels: pixels - split, into: y.baseAddress! + split * channels * multiplier)
                }
            }
            let want = (0..<expandedCount).map { k in input[(k / (channels * multiplier)) * channels + (k % (channels * multiplier)) / multiplier] }
            XCTAssertEqual(Array(output[..<expandedCount]), want, "\(pixels) pixels × \(channels) channels × \(multiplier)")
            XCTAssertEqual(Array(output[expandedCount...]), [UInt8](repeating: 0xA5, count: 16), "guard bytes")
        }
    }

    func testFloatBitPatternsPassUnchanged() {
        let specials: [Float] = [-0.0, 0.0, .nan, -.nan, Float(bitPattern: 0x7FA0_0001), .infinity, -.infinity,
                                 .leastNonzeroMagnitude, -.greatestFiniteMagnitude, 1.5]
        let input = specials.map(\.bitPattern)
        let (channels, multiplier) = (5, 3)
        var output = [UInt32](repeating: 0, count: input.count * multiplier)
        input.withUnsafeBufferPointer { x in
            output.withUnsafeMutableBufferPointer { y in
                DepthMultiplierExpansion.expand(x.baseAddress!, channels: channels, multiplier: multiplier,
                                                pixels: input.count / channels, into: y.baseAddress!)
            }
        }
        XCTAssertEqual(output, input.flatMap { [UInt32](repeating: $0, count: multiplier) })
    }
}
