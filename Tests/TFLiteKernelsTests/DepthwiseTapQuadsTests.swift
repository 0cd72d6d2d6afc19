import MachineCode
import TestSupport
import XCTest
@testable import TFLiteKernels

/// The 8-bit depthwise rows in tap quads (`DepthwiseConv2DOptimized.tapQuads`, AVX512-VNNI with
/// AVX512-VBMI): the generated quad row builder against the taps it gathers, on every channel
/// tail, stride and dilation, with guard bytes past what it may write; the whole layer against
/// `DepthwiseConv2DReference` on the random layers of `DepthwiseSpecialisedKernelTests` (3×3,
/// 5×5, 4×4, 1×1, 7×7, strides 1 and 2, dilation, SAME/VALID, batches, channel tails), uint8
/// per-tensor and int8 per-channel, weights in one part (a signed byte) and in two (uint8 filters
/// whose zero point is far from 128), at the ends of their range, inputs of
/// random, constant and extreme bytes, random thread chunks, on a workspace filled with a
/// pattern and followed by a guard zone. Skipped, with a message, where the CPU or
/// `LITEVISION_ISA` leaves the kernels out.
final class DepthwiseTapQuadsTests: XCTestCase {
    private func kernels() throws -> DepthwiseQuadKernels {
        guard let kernels = DepthwiseConv2DOptimized.tapQuadKernels else {
            throw XCTSkip("no tap-quad depthwise kernels here (they need AVX512-VNNI and AVX512-VBMI, and code generation at "
                          + "avx512vnni; policy: \(CodeGenerationPolicy.current))")
        }
        return kernels
    }

    func testQuadRowsHoldTheirFourTaps() throws {
        let kernels = try kernels()
        var rng = SeededGenerator(seed: 71)
        var interleave = DepthwiseTapQuadsAVX512VBMI.interleave
        for c in [1, 3, 15, 16, 17, 32, 40, 144] {
            for (stride, dilation) in [(1, 1), (2, 1), (1, 2), (2, 3), (4, 1)] {
                for signed in [false, true] {
                    let pixels = rng.int(1...13)
                    let columns = (pixels - 1) * stride + 3 * dilation + 1
                    let source = (0..<(columns * c + 64)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                    let written = pixels * c * 4 + 64, guardBytes = 256
                    var quads = [UInt8](repeating: 0xA5, count: written + guardBytes)
                    source.withUnsafeBytes { src in
                        quads.withUnsafeMutableBytes { dst in
                            withUnsafeBytes(of: &interleave) { indices in
                                var arguments = GeneratedTapQuadArguments(
                                    source: src.baseAddress!, destination: dst.baseAddress!, pixels: pixels, blocks: (c + 15) / 16,
                                    sourcePixelBytes: stride * c, tapStepBytes: dilation * c, destinationPixelBytes: 4 * c,
                                    indices: indices.baseAddress!)
                                XCTAssertNil(arguments.violation())
                                withUnsafePointer(to: &arguments) { (signed ? kernels.int8Rows : kernels.uint8Rows)(UnsafeRawPointer($0)) }
                            }
                        }
                    }
                    for i in 0..<pixels {
                        for ch in 0..<c {
                            for j in 0..<4 {
                                let expected = source[(i * stride + j * dilation) * c + ch] ^ (signed ? 0x80 : 0)
                                XCTAssertEqual(quads[(i * c + ch) * 4 + j], expected, "c \(c) stride \(stride) dilation \(dilation) "
                                               + "pixel \(i) channel \(ch) tap \(j)")
                            }
                        }
                    }
                    XCTAssertTrue(quads[written...].allSatisfy { $0 == 0xA5 }, "wrote past the spill: c \(c)")
                }
            }
        }
    }

    private func checkLayers<T: FixedWidthInteger>(_ type: T.Type, seed: UInt64) throws {
        _ = try kernels()
        var rng = SeededGenerator(seed: seed)
        let signed = T.self == Int8.self
        var ran = [1: 0, 2: 0]
        for (filter, stride) in DepthwiseSpecialisedKernelTests.shapes {
            for round in 0..<25 {
                let g = DepthwiseSpecialisedKernelTests.geometry(&rng, filter: filter, stride: stride)
                guard DepthwiseConv2DOptimized.takesTapQuads(g) else { continue }
                let taps = filter * filter, channels = g.outputDepth
                let inputZero = signed ? Int32(rng.int(-128...127)) : Int32(rng.int(0...255))
                // uint8 filters: every other round a zero point whose weights fit a signed byte around it
                // (one part), else any zero point but 0 and weights over the whole byte (two parts).
                let onePart = signed || round % 2 == 0
                let filterZero = signed ? 0 : Int32(onePart ? rng.int(100...155) : rng.int(1...255))
                let weightRange = signed ? -127...127 : onePart ? Int(max(0, filterZero - 128))...Int(min(255, filterZero + 127)) : 0...255
                let multipliers = (0..<channels).map { _ in QuantizedMultiplier(1 / (Double(taps) * 60) * pow(10, Double(rng.int(-20...30)) / 10)) }
                let outputZero = signed ? Int32(rng.int(-128...127)) : Int32(rng.int(0...255))
                let relu = rng.int(0...1) == 0
                let lowest: Int32 = signed ? -128 : 0, highest: Int32 = signed ? 127 : 255
                let q = QuantizedConvolutionParameters(inputOffset: -inputZero, filterOffset: -filterZero, outputOffset: outputZero,
                                                       outputMultipliers: signed ? multipliers : Array(repeating: multipliers[0], count: channels),
                                                       activationMin: relu ? max(outputZero, lowest) : lowest, activationMax: highest)
                let requantizer = ConvRequantizer(q, epilogue: .depthwise)
                guard DepthwiseConv2DOptimized.takesTapQuads(requantizer) else { continue }
                // Random bytes, one constant byte, or only the extremes; weights at their range's ends in one round of four.
                let inputKind = round % 3
                let constant = T(truncatingIfNeeded: rng.next())
                let input = (0..<g.inputCount).map { _ -> T in
                    inputKind == 0 ? T(truncatingIfNeeded: rng.next()) : inputKind == 1 ? constant : (rng.int(0...1) == 0 ? T.min : T.max)
                }
                let extremeWeights = round % 4 == 0
                let filterValues = (0..<taps * channels).map { _ -> T in
                    T(truncatingIfNeeded: extremeWeights ? (rng.int(0...1) == 0 ? weightRange.lowerBound : weightRange.upperBound)
                                                         : rng.int(weightRange))
                }
                let bias = (0..<channels).map { _ in Int32(rng.int(-40000...40000)) }
                var expected = [T](repeating: 0, count: g.outputCount)
                DepthwiseConv2DReference.quantized(g, q, input: input, filter: filterValues, bias: bias, output: &expected)
                let fit = filterValues.withUnsafeBytes {
                    DepthwiseQuadFilter.parts($0.bindMemory(to: UInt8.self), signedWeights: signed, filterOffset: q.filterOffset,
                                              inputOffset: q.inputOffset, signedInput: signed)
                }
                // Two parts where one would do (allowed) in some int8 rounds.
                let parts = onePart && round % 5 == 3 ? 2 : try XCTUnwrap(fit, "\(g)")
                if onePart { XCTAssertEqual(fit, 1, "\(g)") }
                let packed = try filterValues.withUnsafeBytes {
                    try DepthwiseQuadFilter.pack($0.bindMemory(to: UInt8.self).baseAddress!, signedWeights: signed, g, parts: parts,
                                                 filterOffset: q.filterOffset, inputOffset: q.inputOffset, signedInput: signed)
                }
                var actual = [T](repeating: 0, count: g.outputCount)
                let workspace = PoisonedWorkspace(byteCount: DepthwiseConv2DOptimized.tapQuadWorkspaceBytes(g), pattern: 0x5A)
                for part in rng.chunks(DepthwiseConv2DOptimized.rowCount(g)) {
                    input.withUnsafeBytes { x in
                        bias.withUnsafeBufferPointer { b in
                            actual.withUnsafeMutableBytes { y in
                                DepthwiseConv2DOptimized.tapQuads(g, requantizer, input: x.baseAddress!, signedInput: signed,
                                                                  packed: UnsafePointer(packed.pointer), parts: parts, bias: b.baseAddress!,
                                                                  output: y.baseAddress!, rows: part, workspace: workspace.workspace)
                            }
                        }
                    }
                }
                workspace.assertGuardIntact("tap quads \(g)")
                XCTAssertEqual(actual, expected, "\(parts) part(s), \(g)")
                ran[parts, default: 0] += 1
            }
        }
        XCTAssertGreaterThan(ran[1]!, 30, "too few random layers took the tap quads in one part")
        XCTAssertGreaterThan(ran[2]!, 10, "too few random layers took the tap quads in two parts")
    }

    func testUInt8TapQuadDepthwiseIsBitExact() throws { try checkLayers(UInt8.self, seed: 72) }
    func testInt8TapQuadDepthwiseIsBitExact() throws { try checkLayers(Int8.self, seed: 73) }

    /// Weights take one part where they fit a signed byte around their zero point, two where they
    /// lie in −255…254; filters beyond that, and input offsets that are not a zero point of the
    /// type, are declined (the float tiles run them).
    func testWeightPartsAndDeclinedFilters() {
        let weights: [UInt8] = [0, 255]
        weights.withUnsafeBufferPointer { w in
            func parts(filterOffset: Int32, inputOffset: Int32 = -3, signed: Bool = false) -> Int? {
                DepthwiseQuadFilter.parts(w, signedWeights: signed, filterOffset: filterOffset, inputOffset: inputOffset,
                                          signedInput: false)
            }
            XCTAssertEqual(parts(filterOffset: -128), 1)
            XCTAssertEqual(parts(filterOffset: -100), 2, "255 - 100 > 127")
            XCTAssertEqual(parts(filterOffset: -1), 2, "254 splits")
            XCTAssertNil(parts(filterOffset: 0), "255 does not split")
            XCTAssertNil(parts(filterOffset: -128, inputOffset: 3), "no padding byte")
            XCTAssertEqual(parts(filterOffset: 0, signed: true), 1, "int8 0 and -1")
        }
        XCTAssertEqual(DepthwiseQuadFilter.paddingByte(inputOffset: 128, signedInput: true), 0, "int8 zero point -128")
        XCTAssertEqual(DepthwiseQuadFilter.paddingByte(inputOffset: -127, signedInput: true), 255, "int8 zero point 127")
        XCTAssertNil(DepthwiseQuadFilter.paddingByte(inputOffset: 129, signedInput: true))
    }
}
