import TestSupport
import XCTest
@testable import TFLiteKernels

/// The optimized float convolution, depthwise and pooling kernels against their reference twins on random geometries:
/// channel counts that are not multiples of the 16-lane tile, pixel counts that are not
/// multiples of the 4-pixel tile, SAME/VALID padding, strides, dilation, batches, clamps,
/// and work split into arbitrary chunks as the thread pool does. Float within 1e-4 relative,
/// quantized bit-exact. The quantized CONV_2D / FULLY_CONNECTED GEMM: `QuantizedGEMMTests`.
final class ConvolutionOptimizedKernelTests: XCTestCase {
    private func randomGeometry(_ rng: inout SeededGenerator, depthwise: Bool) -> ConvolutionGeometry {
        let cin = rng.int(1...37)
        let fh = rng.int(1...5), fw = rng.int(1...5)
        let sh = rng.int(1...2), sw = rng.int(1...2)
        let dh = rng.int(0...3) == 0 ? 2 : 1, dw = rng.int(0...3) == 0 ? 2 : 1
        let h = rng.int(fh...13), w = rng.int(fw...13)
        let padding: ConvolutionPadding = rng.int(0...1) == 0 ? .same : .valid
        var rows = ConvolutionAxis(inputSize: h, filterSize: fh, stride: sh, dilation: dh, padding: padding)
        var cols = ConvolutionAxis(inputSize: w, filterSize: fw, stride: sw, dilation: dw, padding: padding)
        if rows.outputSize <= 0 { rows = ConvolutionAxis(inputSize: h, filterSize: fh, stride: sh, dilation: dh, padding: .same) }
        if cols.outputSize <= 0 { cols = ConvolutionAxis(inputSize: w, filterSize: fw, stride: sw, dilation: dw, padding: .same) }
        let cout = depthwise ? cin : rng.int(1...40)
        return ConvolutionGeometry(batches: rng.int(1...2), inputHeight: h, inputWidth: w, inputDepth: cin,
                                   filterHeight: fh, filterWidth: fw, filterInputDepth: depthwise ? 1 : cin,
                                   outputHeight: rows.outputSize, outputWidth: cols.outputSize, outputDepth: cout,
                                   strideHeight: sh, strideWidth: sw, dilationHeight: dh, dilationWidth: dw,
                                   padTop: rows.padBefore, padLeft: cols.padBefore)
    }

    /// `Conv2DOptimized.offsetInput` for a generic uint8/int8 array.
    private func offsetAny<T: FixedWidthInteger>(_ input: [T], offset: Int32, into out: inout [Float]) {
        if let u = input as? [UInt8] {
            Conv2DOptimized.offsetInput(u, count: u.count, offset: offset, into: &out)
        } else if let i = input as? [Int8] {
            Conv2DOptimized.offsetInput(i, count: i.count, offset: offset, into: &out)
        }
    }


    private func quantizedParameters(_ rng: inout SeededGenerator, channels: Int, uint8: Bool, taps: Int) -> QuantizedConvolutionParameters {
        let inputZero = uint8 ? Int32(rng.int(0...255)) : Int32(rng.int(-128...127))
        let filterZero = uint8 ? Int32(rng.int(0...255)) : 0
        let base = 1.0 / (Double(taps) * 60)
        let multipliers = (0..<channels).map { _ in QuantizedMultiplier(base * pow(10, Double(rng.int(-20...30)) / 10)) }
        let outputZero = uint8 ? Int32(rng.int(0...255)) : Int32(rng.int(-128...127))
        // One layer in three clamps from its output offset (RELU, RELU6), where the generated
        // AVX-512 requantization skips the negative products' addend.
        let relu = rng.int(0...2) == 0
        let lo: Int32 = relu ? outputZero : uint8 ? Int32(rng.int(0...60)) : Int32(rng.int((-128)...(-60)))
        let hi: Int32 = max(lo, uint8 ? Int32(rng.int(190...255)) : Int32(rng.int(60...127)))
        return QuantizedConvolutionParameters(inputOffset: -inputZero, filterOffset: -filterZero, outputOffset: outputZero,
                                              outputMultipliers: multipliers, activationMin: lo, activationMax: hi)
    }

    func testFloatConvMatchesReference() {
        var rng = SeededGenerator(seed: 1)
        for _ in 0..<60 {
            let g = randomGeometry(&rng, depthwise: false)
            let input = (0..<g.inputCount).map { _ in rng.float() }
            let filter = (0..<g.filterCount).map { _ in rng.float() }
            let bias = (0..<g.outputDepth).map { _ in rng.float() }
            let (lo, hi): (Float, Float) = rng.int(0...1) == 0 ? (-.infinity, .infinity) : (-0.5, 1.5)
            var expected = [Float](repeating: 0, count: g.outputCount)
            Conv2DReference.float(g, activationMin: lo, activationMax: hi, input: input, filter: filter, bias: bias, output: &expected)
            let packed = ConvFilterPacking.packFloat(filter, outputDepth: g.outputDepth,
                                                     depth: g.filterHeight * g.filterWidth * g.inputDepth)
            let zeros = [Float](repeating: 0, count: g.inputDepth)
            var actual = [Float](repeating: .nan, count: g.outputCount)
            for part in rng.chunks(Conv2DOptimized.floatTileCount(g)) {
                Conv2DOptimized.float(g, activationMin: lo, activationMax: hi, input: input, packedFilter: packed,
                                      bias: bias, zeros: zeros, output: &actual, tiles: part)
            }
            for i in 0..<g.outputCount {
                XCTAssertEqual(actual[i], expected[i], accuracy: 1e-4 * max(1, abs(expected[i])), "\(g) at \(i)")
            }
        }
    }

    func testFloatDepthwiseMatchesReference() {
        var rng = SeededGenerator(seed: 5)
        for _ in 0..<60 {
            let g = randomGeometry(&rng, depthwise: true)
            let taps = g.filterHeight * g.filterWidth
            let input = (0..<g.inputCount).map { _ in rng.float() }
            let filter = (0..<taps * g.outputDepth).map { _ in rng.float() }
            let bias = (0..<g.outputDepth).map { _ in rng.float() }
            var expected = [Float](repeating: 0, count: g.outputCount)
            DepthwiseConv2DReference.float(g, activationMin: -1, activationMax: 2, input: input, filter: filter, bias: bias, output: &expected)
            var actual = [Float](repeating: .nan, count: g.outputCount)
            for part in rng.chunks(DepthwiseConv2DOptimized.rowCount(g)) {
                DepthwiseConv2DOptimized.float(g, activationMin: -1, activationMax: 2, input: input, filter: filter,
                                               bias: bias, output: &actual, rows: part)
            }
            for i in 0..<g.outputCount {
                XCTAssertEqual(actual[i], expected[i], accuracy: 1e-5 * max(1, abs(expected[i])), "\(g) at \(i)")
            }
        }
    }

    private func checkQuantizedDepthwise<T: FixedWidthInteger & SIMDScalar>(_ type: T.Type, seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let isU8 = T.self == UInt8.self
        for _ in 0..<60 {
            var g = randomGeometry(&rng, depthwise: true)
            if rng.int(0...1) == 0 { g.inputDepth += 16; g.outputDepth = g.inputDepth }
            let taps = g.filterHeight * g.filterWidth
            let q = quantizedParameters(&rng, channels: g.outputDepth, uint8: isU8, taps: taps)
            let input = (0..<g.inputCount).map { _ in T(truncatingIfNeeded: rng.next()) }
            let filter = (0..<taps * g.outputDepth).map { _ in T(truncatingIfNeeded: rng.next()) }
            let bias = (0..<g.outputDepth).map { _ in Int32(rng.int(-20000...20000)) }
            var expected = [T](repeating: 0, count: g.outputCount)
            DepthwiseConv2DReference.quantized(g, q, input: input, filter: filter, bias: bias, output: &expected)
            let packed = ConvFilterPacking.packDepthwiseInteger(filter, offset: q.filterOffset, count: filter.count)
            var offsetInput = [Float](repeating: 0, count: g.inputCount)
            offsetAny(input, offset: q.inputOffset, into: &offsetInput)
            let requantizer = ConvRequantizer(q, epilogue: .depthwise)
            var actual = [T](repeating: 0, count: g.outputCount)
            for part in rng.chunks(DepthwiseConv2DOptimized.rowCount(g)) {
                DepthwiseConv2DOptimized.quantized(g, requantizer, offsetInput: offsetInput, packedFilter: packed, bias: bias,
                                                   output: &actual, rows: part)
            }
            XCTAssertEqual(actual, expected, "\(g)")
            // Again with each chunk's row of sums in a poisoned workspace of the declared bytes.
            actual = [T](repeating: 0, count: g.outputCount)
            for part in rng.chunks(DepthwiseConv2DOptimized.rowCount(g)) {
                let workspace = PoisonedWorkspace(byteCount: DepthwiseConv2DOptimized.quantizedWorkspaceBytes(g))
                DepthwiseConv2DOptimized.quantized(g, requantizer, offsetInput: offsetInput, packedFilter: packed, bias: bias,
                                                   output: &actual, rows: part, workspace: workspace.workspace)
                workspace.assertGuardIntact("\(g)")
            }
            XCTAssertEqual(actual, expected, "\(g) in a workspace")
        }
    }

    func testUInt8DepthwiseIsBitExact() { checkQuantizedDepthwise(UInt8.self, seed: 6) }
    func testInt8DepthwiseIsBitExact() { checkQuantizedDepthwise(Int8.self, seed: 7) }
}

extension ConvolutionOptimizedKernelTests {
    private func randomPoolGeometry(_ rng: inout SeededGenerator) -> ConvolutionGeometry {
        var g = randomGeometry(&rng, depthwise: true)
        g.dilationHeight = 1; g.dilationWidth = 1
        let padding: ConvolutionPadding = rng.int(0...1) == 0 ? .same : .valid
        let rows = ConvolutionAxis(inputSize: g.inputHeight, filterSize: g.filterHeight, stride: g.strideHeight, dilation: 1, padding: padding)
        let cols = ConvolutionAxis(inputSize: g.inputWidth, filterSize: g.filterWidth, stride: g.strideWidth, dilation: 1, padding: padding)
        g.outputHeight = rows.outputSize; g.outputWidth = cols.outputSize; g.padTop = rows.padBefore; g.padLeft = cols.padBefore
        if rng.int(0...1) == 0 { g.inputDepth += 16; g.outputDepth = g.inputDepth }
        return g
    }

    func testPoolingMatchesReference() {
        var rng = SeededGenerator(seed: 8)
        for _ in 0..<60 {
            let g = randomPoolGeometry(&rng)
            let xf = (0..<g.inputCount).map { _ in rng.float() * 4 }
            let xu = (0..<g.inputCount).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let xi = (0..<g.inputCount).map { _ in Int8(truncatingIfNeeded: rng.next()) }
            var ef = [Float](repeating: 0, count: g.outputCount), af = ef
            PoolingReference.averageFloat(g, activationMin: -1, activationMax: 3, input: xf, output: &ef)
            PoolingOptimized.averageFloat(g, activationMin: -1, activationMax: 3, input: xf, output: &af, rows: 0..<PoolingOptimized.rowCount(g))
            XCTAssertEqual(af, ef, "\(g)")
            PoolingReference.maxFloat(g, activationMin: -1, activationMax: 3, input: xf, output: &ef)
            PoolingOptimized.maxFloat(g, activationMin: -1, activationMax: 3, input: xf, output: &af, rows: 0..<PoolingOptimized.rowCount(g))
            XCTAssertEqual(af, ef, "\(g)")
            var eu = [UInt8](repeating: 0, count: g.outputCount), au = eu
            PoolingReference.averageQuantized(g, activationMin: 10, activationMax: 250, input: xu, output: &eu)
            PoolingOptimized.averageUInt8(g, activationMin: 10, activationMax: 250, input: xu, output: &au, rows: 0..<PoolingOptimized.rowCount(g))
            XCTAssertEqual(au, eu, "\(g)")
            PoolingReference.maxQuantized(g, activationMin: 10, activationMax: 250, input: xu, output: &eu)
            PoolingOptimized.maxUInt8(g, activationMin: 10, activationMax: 250, input: xu, output: &au, rows: 0..<PoolingOptimized.rowCount(g))
            XCTAssertEqual(au, eu, "\(g)")
            var ei = [Int8](repeating: 0, count: g.outputCount), ai = ei
            PoolingReference.averageQuantized(g, activationMin: -100, activationMax: 127, input: xi, output: &ei)
            PoolingOptimized.averageInt8(g, activationMin: -100, activationMax: 127, input: xi, output: &ai, rows: 0..<PoolingOptimized.rowCount(g))
            XCTAssertEqual(ai, ei, "\(g)")
            PoolingReference.maxQuantized(g, activationMin: -128, activationMax: 100, input: xi, output: &ei)
            PoolingOptimized.maxInt8(g, activationMin: -128, activationMax: 100, input: xi, output: &ai, rows: 0..<PoolingOptimized.rowCount(g))
            XCTAssertEqual(ai, ei, "\(g)")
        }
    }
}
