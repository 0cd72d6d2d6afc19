import XCTest
@testable import TFLiteKernels
import TestSupport

/// A convolution over an input with explicit padding (a folded PAD:
/// ``ConvolutionAxis/init(inputSize:filterSize:stride:dilation:padBefore:padAfter:)``) equals,
/// bit for bit, the VALID convolution of the input padded with its zero point, for the 8-bit
/// reference kernels (the portable path; the optimized ones are checked on whole models by
/// `PadFusionTests`).
final class ExplicitPaddingTests: XCTestCase {
    func testExplicitAxisIsValidOverThePaddedExtent() {
        for (size, filter, stride, dilation, before, after) in [(640, 3, 2, 1, 1, 1), (224, 3, 2, 1, 0, 1), (7, 3, 1, 2, 2, 0),
                                                                 (5, 3, 2, 1, 4, 3), (2, 5, 1, 1, 0, 0)] {
            let explicit = ConvolutionAxis(inputSize: size, filterSize: filter, stride: stride, dilation: dilation,
                                           padBefore: before, padAfter: after)
            let valid = ConvolutionAxis(inputSize: before + size + after, filterSize: filter, stride: stride,
                                        dilation: dilation, padding: .valid)
            XCTAssertEqual(explicit.outputSize, valid.outputSize, "\(size) \(filter) \(stride) \(before) \(after)")
            XCTAssertEqual(explicit.padBefore, before)
        }
    }

    func testInt8ConvAndDepthwiseWithExplicitPaddingEqualValidOverThePaddedInput() {
        var rng = SeededGenerator(seed: 41)
        let zeroPoint: Int32 = -7
        // (height, width, depth, filter, stride, dilation, top, bottom, left, right)
        let cases = [(9, 8, 3, 3, 2, 1, 1, 1, 1, 1), (8, 9, 4, 3, 2, 1, 0, 1, 0, 1), (6, 7, 2, 3, 1, 2, 2, 0, 1, 3),
                     (5, 5, 2, 2, 1, 1, 3, 4, 0, 2)]
        for (h, w, c, f, s, d, top, bottom, left, right) in cases {
            let rows = ConvolutionAxis(inputSize: h, filterSize: f, stride: s, dilation: d, padBefore: top, padAfter: bottom)
            let cols = ConvolutionAxis(inputSize: w, filterSize: f, stride: s, dilation: d, padBefore: left, padAfter: right)
            for depthwise in [false, true] {
                let cout = depthwise ? c * 2 : 5
                let explicit = ConvolutionGeometry(
                    batches: 2, inputHeight: h, inputWidth: w, inputDepth: c, filterHeight: f, filterWidth: f,
                    filterInputDepth: depthwise ? 1 : c, outputHeight: rows.outputSize, outputWidth: cols.outputSize,
                    outputDepth: cout, strideHeight: s, strideWidth: s, dilationHeight: d, dilationWidth: d,
                    padTop: rows.padBefore, padLeft: cols.padBefore)
                var valid = explicit
                (valid.inputHeight, valid.inputWidth, valid.padTop, valid.padLeft) = (top + h + bottom, left + w + right, 0, 0)
                let input = (0..<explicit.inputCount).map { _ in Int8.random(in: .min ... .max, using: &rng) }
                var padded = [Int8](repeating: Int8(zeroPoint), count: valid.inputCount)
                for b in 0..<2 { for y in 0..<h { for x in 0..<w { for ch in 0..<c {
                    padded[((b * valid.inputHeight + y + top) * valid.inputWidth + x + left) * c + ch]
                        = input[((b * h + y) * w + x) * c + ch]
                } } } }
                let filter = (0..<(depthwise ? f * f * cout : explicit.filterCount)).map { _ in Int8.random(in: -127...127, using: &rng) }
                let bias = (0..<cout).map { _ in Int32.random(in: -5000...5000, using: &rng) }
                let q = QuantizedConvolutionParameters(inputOffset: -zeroPoint, filterOffset: 0, outputOffset: 3,
                                                       outputMultipliers: (0..<cout).map { QuantizedMultiplier(0.001 * Double($0 + 1)) },
                                                       activationMin: -128, activationMax: 127)
                var a = [Int8](repeating: 0, count: explicit.outputCount), b = a
                if depthwise {
                    DepthwiseConv2DReference.int8(explicit, q, input: input, filter: filter, bias: bias, output: &a)
                    DepthwiseConv2DReference.int8(valid, q, input: padded, filter: filter, bias: bias, output: &b)
                } else {
                    Conv2DReference.int8(explicit, q, input: input, filter: filter, bias: bias, output: &a)
                    Conv2DReference.int8(valid, q, input: padded, filter: filter, bias: bias, output: &b)
                }
                XCTAssertEqual(a, b, "\(h)x\(w)x\(c) filter \(f) stride \(s) pads \(top) \(bottom) \(left) \(right) depthwise \(depthwise)")
            }
        }
    }
}
