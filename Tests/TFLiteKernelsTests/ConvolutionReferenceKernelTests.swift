import XCTest
@testable import TFLiteKernels

/// Hand-checked cases for the convolution family's reference kernels and helpers.
final class ConvolutionReferenceKernelTests: XCTestCase {
    func testSameAndValidPaddingFollowTFLite() {
        let same = ConvolutionAxis(inputSize: 7, filterSize: 3, stride: 2, dilation: 1, padding: .same)
        XCTAssertEqual(same.outputSize, 4); XCTAssertEqual(same.padBefore, 1)
        let valid = ConvolutionAxis(inputSize: 9, filterSize: 3, stride: 2, dilation: 1, padding: .valid)
        XCTAssertEqual(valid.outputSize, 4); XCTAssertEqual(valid.padBefore, 0)
        // Odd total padding: the extra row goes after the input.
        let odd = ConvolutionAxis(inputSize: 8, filterSize: 5, stride: 2, dilation: 1, padding: .same)
        XCTAssertEqual(odd.outputSize, 4); XCTAssertEqual(odd.padBefore, 1)
        // Dilation widens the window: effective 5 for a 3-tap filter at rate 2.
        let dilated = ConvolutionAxis(inputSize: 10, filterSize: 3, stride: 1, dilation: 2, padding: .valid)
        XCTAssertEqual(dilated.outputSize, 6)
    }

    func testFloatConvSumsTheWindowAndClampsIt() {
        let g = ConvolutionGeometry(batches: 1, inputHeight: 3, inputWidth: 3, inputDepth: 1,
                                    filterHeight: 3, filterWidth: 3, filterInputDepth: 1,
                                    outputHeight: 3, outputWidth: 3, outputDepth: 1, padTop: 1, padLeft: 1)
        let input: [Float] = (1...9).map(Float.init)
        let filter = [Float](repeating: 1, count: 9)
        var out = [Float](repeating: 0, count: 9)
        Conv2DReference.float(g, activationMin: -.infinity, activationMax: 40, input: input, filter: filter,
                              bias: [0.5], output: &out)
        // Corner (0,0): 1+2+4+5 + 0.5; edge (0,1): 1+2+3+4+5+6 + 0.5; centre 45.5 clamped to 40.
        XCTAssertEqual(out[0], 12.5); XCTAssertEqual(out[1], 21.5); XCTAssertEqual(out[4], 40)
    }

    func testUInt8ConvRequantizesWithZeroPoints() {
        // One 1x1 tap: acc = (w - 2)(x - 10) + bias, real multiplier 0.5, output zero point 3.
        let g = ConvolutionGeometry(batches: 1, inputHeight: 1, inputWidth: 2, inputDepth: 1,
                                    filterHeight: 1, filterWidth: 1, filterInputDepth: 1,
                                    outputHeight: 1, outputWidth: 2, outputDepth: 1)
        let q = QuantizedConvolutionParameters(inputOffset: -10, filterOffset: -2, outputOffset: 3,
                                               outputMultipliers: [QuantizedMultiplier(0.5)],
                                               activationMin: 0, activationMax: 255)
        var out: [UInt8] = [0, 0]
        Conv2DReference.uint8(g, q, input: [20, 0], filter: [7], bias: [1], output: &out)
        // (7-2)(20-10)+1 = 51 → 25.5 rounds to 26 → +3 = 29; (5)(-10)+1 = -49 → -24 → -21 → clamped to 0.
        XCTAssertEqual(out, [29, 0])
    }

    func testDepthwiseMultiplierMapsOutputChannelsToInputChannels() {
        // 2 input channels, multiplier 2: output channel oc reads input channel oc / 2.
        let g = ConvolutionGeometry(batches: 1, inputHeight: 1, inputWidth: 1, inputDepth: 2,
                                    filterHeight: 1, filterWidth: 1, filterInputDepth: 1,
                                    outputHeight: 1, outputWidth: 1, outputDepth: 4)
        var out = [Float](repeating: 0, count: 4)
        DepthwiseConv2DReference.float(g, activationMin: -.infinity, activationMax: .infinity,
                                       input: [3, 5], filter: [1, 2, 3, 4], bias: nil, output: &out)
        XCTAssertEqual(out, [3, 6, 15, 20])
    }

    func testAveragePoolRoundsHalfAwayFromZeroAndIgnoresPadding() {
        let g = ConvolutionGeometry(batches: 1, inputHeight: 2, inputWidth: 2, inputDepth: 1,
                                    filterHeight: 2, filterWidth: 2, filterInputDepth: 1,
                                    outputHeight: 1, outputWidth: 1, outputDepth: 1)
        var out: [Int8] = [0]
        PoolingReference.averageQuantized(g, activationMin: -128, activationMax: 127, input: [-1, -2, -3, -4] as [Int8], output: &out)
        XCTAssertEqual(out, [-3])   // -10 / 4 = -2.5 → -3
        var outU: [UInt8] = [0]
        PoolingReference.averageQuantized(g, activationMin: 0, activationMax: 255, input: [1, 2, 3, 4] as [UInt8], output: &outU)
        XCTAssertEqual(outU, [3])   // 10 / 4 = 2.5 → 3
        // SAME window clipped at the border: only the in-image taps count.
        let clipped = ConvolutionGeometry(batches: 1, inputHeight: 2, inputWidth: 2, inputDepth: 1,
                                          filterHeight: 3, filterWidth: 3, filterInputDepth: 1,
                                          outputHeight: 1, outputWidth: 1, outputDepth: 1, padTop: 1, padLeft: 1)
        var f: [Float] = [0]
        PoolingReference.averageFloat(clipped, activationMin: -.infinity, activationMax: .infinity,
                                      input: [1, 2, 3, 4], output: &f)
        XCTAssertEqual(f, [2.5])
    }

    func testTransposeConvScattersWithStride() {
        // 1x2 input, 1x2 filter, stride 2, VALID: output 1x4 = [x0 w0, x0 w1, x1 w0, x1 w1].
        let g = ConvolutionGeometry(batches: 1, inputHeight: 1, inputWidth: 2, inputDepth: 1,
                                    filterHeight: 1, filterWidth: 2, filterInputDepth: 1,
                                    outputHeight: 1, outputWidth: 4, outputDepth: 1, strideHeight: 1, strideWidth: 2)
        var out = [Float](repeating: 9, count: 4)
        TransposeConvReference.float(g, activationMin: -.infinity, activationMax: .infinity,
                                     input: [2, 3], filter: [10, 100], bias: [1], output: &out)
        XCTAssertEqual(out, [21, 201, 31, 301])
    }

    func testHybridInputQuantizationMatchesTFLite() {
        var q = [Int8](repeating: 0, count: 3)
        let scale = HybridInputQuantizer.symmetric([-1, 0.5, 0.25], count: 3, into: &q)
        XCTAssertEqual(q, [-127, 64, 32]); XCTAssertEqual(scale, 1 / 127, accuracy: 1e-9)
        var a = [Int8](repeating: 0, count: 2)
        let (s, zp) = HybridInputQuantizer.asymmetric([0, 1], count: 2, into: &a)
        XCTAssertEqual(zp, -128); XCTAssertEqual(a, [-128, 127]); XCTAssertEqual(s, 1 / 255, accuracy: 1e-9)
        var zero = [Int8](repeating: 5, count: 2)
        let (s0, z0) = HybridInputQuantizer.asymmetric([0, 0], count: 2, into: &zero)
        XCTAssertEqual(s0, 1); XCTAssertEqual(z0, 0); XCTAssertEqual(zero, [0, 0])
    }
}

extension ConvolutionReferenceKernelTests {
    func testFastRoundingMatchesRoundHalfAwayFromZero() {
        var values: [Float] = [0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999997, -0.49999997, 126.5, -127.5,
                               8_388_607.5, 8_388_608, -8_388_609, 3e9, -3e9, .infinity, -.infinity, .nan]
        var state: UInt32 = 12345
        for _ in 0..<100_000 {
            state = state &* 1_664_525 &+ 1_013_904_223
            values.append(Float(bitPattern: (state & 0x807F_FFFF) | 0x3F00_0000 + (state % 24) << 23))
        }
        for v in values {
            XCTAssertEqual(HybridInputQuantizer.roundHalfAwayFromZero(v),
                           Int32(clampingToInt32: v.rounded(.toNearestOrAwayFromZero)), "\(v)")
        }
    }
}
