import MachineCode
import TestSupport
import XCTest
@testable import TFLiteKernels

/// The generated AVX2 requantization (`Requantization16AVX2`, run through
/// `DepthwiseRequantize16AVX2`, which every AVX2 GEMM and depthwise epilogue shares) against the
/// reference's `multiplyByQuantizedMultiplier`, offset and clamp, byte for byte, whatever level
/// this process runs at: both layouts of the AVX2 form's blocks (high-word blocks, and blocks
/// with a channel that does not shift right), residual offsets (right shifts above 22),
/// clamps that take negatives to the minimum and clamps that do not, whole-range clamps left
/// to the stores' saturation, uint8 and int8, every
/// right shift 0...31, multipliers at their extremes, random and extreme accumulators, and the
/// right shift's ties.
final class AVX2RequantizationTests: XCTestCase {
    func testGeneratedRequantizationMatchesTheReference() throws {
        guard let cpu = CPUFeatures.current?.supportedLevel, cpu >= .avx2 else {
            throw XCTSkip("this CPU has no AVX2+FMA: the AVX2 requantization cannot run here")
        }
        let kernels = try GeneratedKernels(level: .avx2)
        defer { withExtendedLifetime(kernels) {} }
        var rng = SeededGenerator(seed: 95)
        let channels = 48, pixels = 6
        var layouts: Set<String> = []
        var typeRangeBlocks = 0
        for round in 0..<400 {
            let signed = round % 2 == 0
            let (lowest, highest): (Int32, Int32) = signed ? (-128, 127) : (0, 255)
            let offset = round % 5 == 0 ? (signed ? -128 : 0) : Int32(rng.int(Int(lowest)...Int(highest)))
            // Full range, a RELU-like clamp from the offset (negatives skip their addend), or a random one.
            let (low, high): (Int32, Int32) = switch round % 3 {
            case 0: (lowest, highest)
            case 1: (offset, highest)
            default: { let a = Int32(rng.int(Int(lowest)...Int(highest))); return (a, Int32(rng.int(Int(a)...Int(highest)))) }()
            }
            // Block 0: one right shift, at least 1 (high word); block 1: one channel without a
            // right shift among random ones; block 2: random shifts, some above 22 (residual offsets).
            let uniform = rng.int(1...31)
            let shifts: [Int] = (0..<channels).map { c in
                switch c / 16 {
                case 0: uniform
                case 1: c == 16 + round % 16 ? 0 : rng.int(0...31)
                default: rng.int(0...1) == 0 ? rng.int(23...31) : rng.int(1...31)
                }
            }
            let multipliers: [Int32] = (0..<channels).map { _ in
                rng.int(0...4) == 0 ? [0, 1 << 30, Int32.max, (1 << 30) + 1][rng.int(0...3)] : Int32(rng.int((1 << 30)...Int(Int32.max)))
            }
            let q = QuantizedConvolutionParameters(
                inputOffset: 0, filterOffset: 0, outputOffset: offset,
                outputMultipliers: (0..<channels).map { QuantizedMultiplier(multiplier: multipliers[$0], shift: -shifts[$0]) },
                activationMin: low, activationMax: high)
            let requantizer = ConvRequantizer(q, unsignedRounding: true)
            for block in 0..<3 {
                let flag = requantizer.roundingTerms(atChannel: 16 * block)
                    .load(fromByteOffset: ConvRequantizer.residualFlagBytes, as: Int64.self)
                let highWord = shifts[(16 * block)..<(16 * block + 16)].allSatisfy { $0 >= 1 }
                XCTAssertEqual(flag & ConvRequantizer.highWordFlag != 0, highWord, "block \(block)")
                layouts.insert("\(highWord ? "high word" : "unsigned"), residual \(flag & ConvRequantizer.residualOffsetFlag != 0), "
                               + "clamped negatives \(flag & ConvRequantizer.clampedNegativesFlag != 0)")
                XCTAssertEqual(flag & ConvRequantizer.typeRangeClampFlag != 0, (low, high) == (lowest, highest), "block \(block)")
                typeRangeBlocks += (low, high) == (lowest, highest) ? 1 : 0
            }
            // x = (Int32) sum + bias: the bias carries the value (extremes, ties), the sums move it per pixel.
            let bias: [Int32] = (0..<channels).map { c in
                let s = shifts[c]
                switch rng.int(0...3) {
                case 0: return [Int32.min, Int32.max, Int32.min + 1, -1, 0, 1][rng.int(0...5)]
                case 1 where s > 0 && multipliers[c] == 1 << 30:
                    // m = 2^30 halves x: x = 2·(k·2^s ± 2^(s−1)) + {−1, 0, 1} lands on and beside the shift's ties.
                    let y = (Int64(rng.int(-3...3)) << Int64(s)) + (rng.int(0...1) == 0 ? 1 : -1) * (Int64(1) << Int64(s - 1))
                    return Int32(truncatingIfNeeded: 2 * y + Int64(rng.int(-1...1)))
                default: return Int32(truncatingIfNeeded: rng.next())
                }
            }
            let sums: [Float] = (0..<(pixels * channels)).map { i in
                i < channels ? 0 : Float(rng.int(0...2) == 0 ? rng.int(-3...3) : rng.int(-(1 << 24)...(1 << 24)))
            }
            var output = [UInt8](repeating: 0xA5, count: pixels * channels + 16)
            sums.withUnsafeBufferPointer { s in
                bias.withUnsafeBufferPointer { b in
                    output.withUnsafeMutableBufferPointer { o in
                        var arguments = GeneratedDepthwiseRequantizeArguments(
                            sums: UnsafeRawPointer(s.baseAddress!), output: UnsafeMutableRawPointer(o.baseAddress!),
                            pixels: pixels, blocks: 3, sumsPixelBytes: 4 * channels, outputPixelBytes: channels,
                            bias: UnsafeRawPointer(b.baseAddress!), multipliers: UnsafeRawPointer(requantizer.multipliers),
                            activationMin: low, activationMax: high, roundingTerms: requantizer.roundingTerms(atChannel: 0))
                        XCTAssertNil(arguments.violation(masksLastBlock: false))
                        let kernel = signed ? kernels.depthwiseRequantizeInt8! : kernels.depthwiseRequantizeUInt8!
                        withUnsafePointer(to: &arguments) { kernel(UnsafeRawPointer($0)) }
                    }
                }
            }
            for p in 0..<pixels {
                for c in 0..<channels {
                    let x = Int32(sums[p * channels + c]) &+ bias[c]
                    let want = min(max(multiplyByQuantizedMultiplier(x, multipliers[c], -shifts[c]) &+ offset, low), high)
                    let got = signed ? Int32(Int8(bitPattern: output[p * channels + c])) : Int32(output[p * channels + c])
                    if got != want {
                        return XCTFail("round \(round) pixel \(p) channel \(c): x \(x) m \(multipliers[c]) shift \(shifts[c]) "
                                       + "offset \(offset) clamp \(low)...\(high): \(got) != \(want)")
                    }
                }
            }
            XCTAssertEqual(Array(output[(pixels * channels)...]), [UInt8](repeating: 0xA5, count: 16), "wrote past the output")
        }
        // Every layout and branch of the blocks ran, the stores' saturation for a whole-range clamp too.
        XCTAssertGreaterThan(typeRangeBlocks, 0)
        for highWord in ["high word", "unsigned"] {
            for residual in [false, true] {
                for clamped in [false, true] {
                    let layout = "\(highWord), residual \(residual), clamped negatives \(clamped)"
                    XCTAssertTrue(layouts.contains(layout), "no block ran as \(layout)")
                }
            }
        }
    }
}
