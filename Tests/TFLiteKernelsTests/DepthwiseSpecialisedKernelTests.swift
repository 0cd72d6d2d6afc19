import TestSupport
import XCTest
@testable import TFLiteKernels

/// The specialised depthwise paths (3×3 and 5×5 at stride 1 and 2, interior tiles of several
/// pixels, border pixels, the generic fallback) against `DepthwiseConv2DReference` on seeded
/// random shapes: widths 1…12 so rows have no, few and many interior pixels, channel counts
/// that are not multiples of 16 and wider than one 128-channel group, SAME/VALID, dilation, batches of 2, fused activation clamps,
/// per-channel int8 and uint8 with zero points; the quantized ones also on the zero-padded,
/// offset input copy (`paddedGeometry` / `padInput`) and streamed through input windows of one, several and the
/// default number of rows, as the operator runs them. Float bit-exact with separate roundings and within 1e-5
/// relative with fused multiply-adds, quantized bit-exact. The kernels are those of the level this process
/// selects (`LITEVISION_ISA` caps it, `LITEVISION_JIT=0` runs the Swift ones); generated tiles also run the
/// border pixels, on clipped windows.
final class DepthwiseSpecialisedKernelTests: XCTestCase {
    /// A random depthwise layer with filter `filter`×`filter` at stride `stride` (see the type's notes).
    static func geometry(_ rng: inout SeededGenerator, filter: Int, stride: Int) -> ConvolutionGeometry {
        // Tails of every width the kernels split channels into (16, 8, 4, then 1 at a time).
        let channels = [1, 3, 7, 8, 12, 13, 16, 17, 24, 28, 32, 40, 48, 144, 257][rng.int(0...14)]
        let dilation = rng.int(0...3) == 0 ? 2 : 1
        let padding: ConvolutionPadding = rng.int(0...1) == 0 ? .same : .valid
        let span = (filter - 1) * dilation + 1
        let h = rng.int(1...9), w = rng.int(1...12)
        var rows = ConvolutionAxis(inputSize: h, filterSize: filter, stride: stride, dilation: dilation, padding: padding)
        var cols = ConvolutionAxis(inputSize: w, filterSize: filter, stride: stride, dilation: dilation, padding: padding)
        if h < span || rows.outputSize <= 0 {
            rows = ConvolutionAxis(inputSize: h, filterSize: filter, stride: stride, dilation: dilation, padding: .same)
        }
        if w < span || cols.outputSize <= 0 {
            cols = ConvolutionAxis(inputSize: w, filterSize: filter, stride: stride, dilation: dilation, padding: .same)
        }
        return ConvolutionGeometry(batches: rng.int(1...2), inputHeight: h, inputWidth: w, inputDepth: channels,
                                   filterHeight: filter, filterWidth: filter, filterInputDepth: 1,
                                   outputHeight: rows.outputSize, outputWidth: cols.outputSize, outputDepth: channels,
                                   strideHeight: stride, strideWidth: stride, dilationHeight: dilation, dilationWidth: dilation,
                                   padTop: rows.padBefore, padLeft: cols.padBefore)
    }

    /// Filter sizes and strides covering every specialised case and the generic path.
    static let shapes: [(filter: Int, stride: Int)] = [(3, 1), (3, 2), (5, 1), (5, 2), (4, 1), (1, 1), (7, 2)]

    /// `DepthwiseConv2DOptimized.paddedGeometry(g)`, checked to make every output pixel interior.
    private func paddedLayout(_ g: ConvolutionGeometry) -> ConvolutionGeometry {
        let p = DepthwiseConv2DOptimized.paddedGeometry(g)
        XCTAssertEqual(DepthwiseInteriorKernel.interiorColumns(p), 0..<p.outputWidth, "\(g)")
        for oy in 0..<p.outputHeight { XCTAssertTrue(DepthwiseInteriorKernel.isInteriorRow(p, oy), "\(g) row \(oy)") }
        return p
    }


    func testInteriorColumnsAreExactlyThoseWithoutPaddingTaps() {
        var rng = SeededGenerator(seed: 11)
        for (filter, stride) in Self.shapes {
            for _ in 0..<40 {
                let g = Self.geometry(&rng, filter: filter, stride: stride)
                let columns = DepthwiseInteriorKernel.interiorColumns(g)
                for ox in 0..<g.outputWidth {
                    let x0 = ox * g.strideWidth - g.padLeft
                    let inside = x0 >= 0 && x0 + (g.filterWidth - 1) * g.dilationWidth < g.inputWidth
                    XCTAssertEqual(columns.contains(ox), inside, "\(g) column \(ox)")
                }
            }
        }
    }

    func testFloatSpecialisedDepthwiseMatchesReference() {
        var rng = SeededGenerator(seed: 21)
        for (filter, stride) in Self.shapes {
            for _ in 0..<25 {
                let g = Self.geometry(&rng, filter: filter, stride: stride)
                let input = (0..<g.inputCount).map { _ in rng.float() }
                let filterValues = (0..<filter * filter * g.outputDepth).map { _ in rng.float() }
                let bias = (0..<g.outputDepth).map { _ in rng.float() }
                let (lo, hi): (Float, Float) = rng.int(0...1) == 0 ? (0, 6) : (-.infinity, .infinity)
                var expected = [Float](repeating: 0, count: g.outputCount)
                DepthwiseConv2DReference.float(g, activationMin: lo, activationMax: hi, input: input, filter: filterValues,
                                               bias: bias, output: &expected)
                var actual = [Float](repeating: .nan, count: g.outputCount)
                var fused = [Float](repeating: .nan, count: g.outputCount)
                for part in rng.chunks(DepthwiseConv2DOptimized.rowCount(g)) {
                    DepthwiseConv2DOptimized.float(g, activationMin: lo, activationMax: hi, input: input, filter: filterValues,
                                                   bias: bias, output: &actual, rows: part)
                    DepthwiseConv2DOptimized.float(g, activationMin: lo, activationMax: hi, input: input, filter: filterValues,
                                                   bias: bias, output: &fused, rows: part, fusedMultiplyAdd: true)
                }
                // Separate roundings in the reference's tap order, padding taps skipped: bit for bit.
                XCTAssertEqual(actual.map(\.bitPattern), expected.map(\.bitPattern), "\(g)")
                for i in 0..<g.outputCount {
                    XCTAssertEqual(fused[i], expected[i], accuracy: 1e-5 * max(1, abs(expected[i])), "fused \(g) at \(i)")
                }
                // Through input windows (padding taps add 0 · w): the in-place kernel's results bit for
                // bit with separate roundings, within the tolerance fused; windows of one row, a few, the default.
                let p = paddedLayout(g)
                let rowBytes = p.inputWidth * g.inputDepth * MemoryLayout<Float>.size
                for budget in [0, rowBytes * (p.inputHeight / 2 + 1), DepthwiseConv2DOptimized.windowByteBudget] {
                    let plan = DepthwiseConv2DOptimized.inputWindowPlan(g, byteBudget: budget)
                    var windowed = [Float](repeating: .nan, count: g.outputCount)
                    var windowedFused = [Float](repeating: .nan, count: g.outputCount)
                    for part in rng.chunks(DepthwiseConv2DOptimized.rowCount(g)) {
                        DepthwiseConv2DOptimized.float(g, activationMin: lo, activationMax: hi, input: input, filter: filterValues,
                                                       bias: bias, output: &windowed, rows: part, plan: plan, fusedMultiplyAdd: false)
                        DepthwiseConv2DOptimized.float(g, activationMin: lo, activationMax: hi, input: input, filter: filterValues,
                                                       bias: bias, output: &windowedFused, rows: part, plan: plan, fusedMultiplyAdd: true)
                    }
                    XCTAssertEqual(windowed.map(\.bitPattern), actual.map(\.bitPattern), "window of \(plan.windowRows) rows, \(g)")
                    var inPlaceNoBias = [Float](repeating: .nan, count: g.outputCount)
                    var windowedNoBias = [Float](repeating: .nan, count: g.outputCount)
                    for part in rng.chunks(DepthwiseConv2DOptimized.rowCount(g)) {
                        DepthwiseConv2DOptimized.float(g, activationMin: lo, activationMax: hi, input: input, filter: filterValues,
                                                       bias: nil, output: &inPlaceNoBias, rows: part)
                        DepthwiseConv2DOptimized.float(g, activationMin: lo, activationMax: hi, input: input, filter: filterValues,
                                                       bias: nil, output: &windowedNoBias, rows: part, plan: plan, fusedMultiplyAdd: false)
                    }
                    XCTAssertEqual(windowedNoBias.map(\.bitPattern), inPlaceNoBias.map(\.bitPattern), "no bias, \(g)")
                    for i in 0..<g.outputCount {
                        XCTAssertEqual(windowedFused[i], expected[i], accuracy: 1e-5 * max(1, abs(expected[i])), "windowed fused \(g) at \(i)")
                    }
                }
            }
        }
    }

    /// Dilated layers whose rows have several border runs (DeepLab's atrous 3×3 at dilation 4 with
    /// padding 4), and a 4×4 filter at dilation 2 on a 1-pixel input, whose only window has no tap
    /// inside the input (sums 0, output the clamped bias): bit for bit with the reference, on
    /// channel counts with and without a partial last block, with and without a bias and a clamp.
    func testFloatDepthwiseOnDilatedBordersAndEmptyWindowsIsBitExact() {
        var rng = SeededGenerator(seed: 44)
        let layers: [(size: Int, filter: Int, dilation: Int)] = [(9, 3, 4), (13, 3, 4), (5, 3, 2), (1, 4, 2), (2, 4, 2)]
        for (size, filter, dilation) in layers {
            for channels in [16, 20, 48] {
                let axis = ConvolutionAxis(inputSize: size, filterSize: filter, stride: 1, dilation: dilation, padding: .same)
                let g = ConvolutionGeometry(batches: 1, inputHeight: size, inputWidth: size, inputDepth: channels,
                                            filterHeight: filter, filterWidth: filter, filterInputDepth: 1,
                                            outputHeight: axis.outputSize, outputWidth: axis.outputSize, outputDepth: channels,
                                            strideHeight: 1, strideWidth: 1, dilationHeight: dilation, dilationWidth: dilation,
                                            padTop: axis.padBefore, padLeft: axis.padBefore)
                let input = (0..<g.inputCount).map { _ in rng.float() }
                let filterValues = (0..<filter * filter * channels).map { _ in rng.float() }
                let bias = (0..<channels).map { _ in rng.float() * 4 }
                for (withBias, lo, hi) in [(true, Float(0), Float(6)), (false, -Float.infinity, Float.infinity)] {
                    var expected = [Float](repeating: 0, count: g.outputCount)
                    DepthwiseConv2DReference.float(g, activationMin: lo, activationMax: hi, input: input, filter: filterValues,
                                                   bias: withBias ? bias : nil, output: &expected)
                    var actual = [Float](repeating: .nan, count: g.outputCount)
                    for part in rng.chunks(DepthwiseConv2DOptimized.rowCount(g)) {
                        DepthwiseConv2DOptimized.float(g, activationMin: lo, activationMax: hi, input: input,
                                                       filter: filterValues, bias: withBias ? bias : nil, output: &actual, rows: part)
                    }
                    XCTAssertEqual(actual.map(\.bitPattern), expected.map(\.bitPattern), "\(g), bias \(withBias)")
                }
            }
        }
    }

    private func checkQuantized<T: FixedWidthInteger & SIMDScalar>(_ type: T.Type, seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let isU8 = T.self == UInt8.self
        for (filter, stride) in Self.shapes {
            for _ in 0..<25 {
                let g = Self.geometry(&rng, filter: filter, stride: stride)
                let taps = filter * filter
                let channels = g.outputDepth
                let inputZero = isU8 ? Int32(rng.int(0...255)) : Int32(rng.int(-128...127))
                let filterZero = isU8 ? Int32(rng.int(0...255)) : 0
                let base = 1.0 / (Double(taps) * 60)
                // Per-channel multipliers for int8, one per-tensor multiplier for uint8 (as real models);
                // one int8 channel in 8 is dead (a multiplier near 1e-9, right shift above 22, whose
                // output offset the generated requantization cannot fold).
                let shared = QuantizedMultiplier(base * pow(10, Double(rng.int(-20...30)) / 10))
                let multipliers = (0..<channels).map { c in
                    isU8 ? shared : QuantizedMultiplier(c % 8 == 5 ? 1.3e-9 : base * pow(10, Double(rng.int(-20...30)) / 10))
                }
                let outputZero = isU8 ? Int32(rng.int(0...255)) : Int32(rng.int(-128...127))
                let relu = rng.int(0...1) == 0
                let lo: Int32 = relu ? outputZero : (isU8 ? 0 : -128)
                let hi: Int32 = isU8 ? 255 : 127
                let q = QuantizedConvolutionParameters(inputOffset: -inputZero, filterOffset: -filterZero,
                                                       outputOffset: outputZero, outputMultipliers: multipliers,
                                                       activationMin: max(lo, isU8 ? 0 : -128), activationMax: hi)
                let input = (0..<g.inputCount).map { _ in T(truncatingIfNeeded: rng.next()) }
                let filterValues = (0..<taps * channels).map { _ in T(truncatingIfNeeded: rng.next()) }
                let bias = (0..<channels).map { _ in Int32(rng.int(-20000...20000)) }
                var expected = [T](repeating: 0, count: g.outputCount)
                DepthwiseConv2DReference.quantized(g, q, input: input, filter: filterValues, bias: bias, output: &expected)
                let packed = ConvFilterPacking.packDepthwiseInteger(filterValues, offset: q.filterOffset, count: filterValues.count)
                var offsetInput = [Float](repeating: 0, count: g.inputCount)
                if let u = input as? [UInt8] {
                    Conv2DOptimized.offsetInput(u, count: u.count, offset: q.inputOffset, into: &offsetInput)
                } else if let s = input as? [Int8] {
                    Conv2DOptimized.offsetInput(s, count: s.count, offset: q.inputOffset, into: &offsetInput)
                }
                XCTAssertEqual(offsetInput, input.map { Float(Int32($0) + q.inputOffset) })
                let requantizer = ConvRequantizer(q, epilogue: .depthwise)
                var actual = [T](repeating: 0, count: g.outputCount)
                for part in rng.chunks(DepthwiseConv2DOptimized.rowCount(g)) {
                    DepthwiseConv2DOptimized.quantized(g, requantizer, offsetInput: offsetInput, packedFilter: packed,
                                                       bias: bias, output: &actual, rows: part)
                }
                XCTAssertEqual(actual, expected, "\(g)")
                let p = paddedLayout(g)
                var padded = [Float](repeating: .nan, count: p.inputCount)
                let paddedRowLength = p.inputWidth * channels
                for part in rng.chunks(p.batches * p.inputHeight) {
                    padded.withUnsafeMutableBufferPointer { buffer in
                        let rows = buffer.baseAddress! + part.lowerBound * paddedRowLength
                        if let u = input as? [UInt8] {
                            DepthwiseConv2DOptimized.padInput(u, offset: q.inputOffset, g, rows: part, startingAt: rows)
                        } else if let s = input as? [Int8] {
                            DepthwiseConv2DOptimized.padInput(s, offset: q.inputOffset, g, rows: part, startingAt: rows)
                        }
                    }
                }
                var viaPadding = [T](repeating: 0, count: g.outputCount)
                for part in rng.chunks(DepthwiseConv2DOptimized.rowCount(p)) {
                    DepthwiseConv2DOptimized.quantized(p, requantizer, offsetInput: padded, packedFilter: packed,
                                                       bias: bias, output: &viaPadding, rows: part)
                }
                XCTAssertEqual(viaPadding, expected, "padded \(g)")
                // Streamed through windows: one output row per block, a few, and the default budget.
                let rowBytes = p.inputWidth * channels * MemoryLayout<Float>.size
                for budget in [0, rowBytes * (p.inputHeight / 2 + 1), DepthwiseConv2DOptimized.windowByteBudget] {
                    let plan = DepthwiseConv2DOptimized.inputWindowPlan(g, byteBudget: budget)
                    var viaWindow = [T](repeating: 0, count: g.outputCount)
                    for part in rng.chunks(DepthwiseConv2DOptimized.rowCount(g)) {
                        viaWindow.withUnsafeMutableBufferPointer { out in
                            if let u = input as? [UInt8] {
                                DepthwiseConv2DOptimized.uint8(g, requantizer, input: u, packedFilter: packed, bias: bias,
                                                               output: UnsafeMutableRawPointer(out.baseAddress!).assumingMemoryBound(to: UInt8.self),
                                                               rows: part, plan: plan)
                            } else if let s = input as? [Int8] {
                                DepthwiseConv2DOptimized.int8(g, requantizer, input: s, packedFilter: packed, bias: bias,
                                                              output: UnsafeMutableRawPointer(out.baseAddress!).assumingMemoryBound(to: Int8.self),
                                                              rows: part, plan: plan)
                            }
                        }
                    }
                    XCTAssertEqual(viaWindow, expected, "window of \(plan.windowRows) rows, \(g)")
                }
            }
        }
    }

    func testUInt8SpecialisedDepthwiseIsBitExact() { checkQuantized(UInt8.self, seed: 31) }
    func testInt8SpecialisedDepthwiseIsBitExact() { checkQuantized(Int8.self, seed: 32) }
}
