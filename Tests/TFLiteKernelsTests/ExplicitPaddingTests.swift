import XCTest
@testable import TFLiteKernels
import TestSupport

/// A convolution over an input with explicit padding (a folded PAD:
/// ``ConvolutionAxis/init(inputSize:filterSize:stride:dilation:padding:extendBefore:extendAfter:)``)
/// equals, bit for bit, the same convolution (SAME or VALID) of the input padded with its zero
/// point, for the 8-bit reference kernels (the portable path; the optimized ones are checked on
/// whole models by `PadFusionTests`).
final class ExplicitPaddingTests: XCTestCase {
    func testExtendedAxisIsTheOwnPaddingOverThePaddedExtent() {
        for (size, filter, stride, dilation, before, after) in [(640, 3, 2, 1, 1, 1), (224, 3, 2, 1, 0, 1), (7, 3, 1, 2, 2, 0),
                                                                 (5, 3, 2, 1, 4, 3), (2, 5, 1, 1, 0, 0), (4, 5, 2, 1, 1, 0)] {
            for padding in [ConvolutionPadding.valid, .same] {
                let extended = ConvolutionAxis(inputSize: size, filterSize: filter, stride: stride, dilation: dilation,
                                               padding: padding, extendBefore: before, extendAfter: after)
                let padded = ConvolutionAxis(inputSize: before + size + after, filterSize: filter, stride: stride,
                                             dilation: dilation, padding: padding)
                XCTAssertEqual(extended.outputSize, padded.outputSize, "\(size) \(filter) \(stride) \(before) \(after) \(padding)")
                XCTAssertEqual(extended.padBefore, padded.padBefore + before)
                if padding == .valid { XCTAssertEqual(extended.padBefore, before) }
            }
        }
    }

    /// Every case: four shapes (height, width, depth, filter, stride, dilation and the PAD's top,
    /// bottom, left and right), each with its own padding VALID and SAME, as a convolution (5
    /// output channels) and as a depthwise one (multiplier 2), 2 batches.
    private func forEachPaddedCase(_ body: (_ explicit: ConvolutionGeometry, _ unfused: ConvolutionGeometry,
                                            _ top: Int, _ left: Int, _ depthwise: Bool, _ label: String) -> Void) {
        let cases = [(9, 8, 3, 3, 2, 1, 1, 1, 1, 1), (8, 9, 4, 3, 2, 1, 0, 1, 0, 1), (6, 7, 2, 3, 1, 2, 2, 0, 1, 3),
                     (5, 5, 2, 2, 1, 1, 3, 4, 0, 2)]
        for (h, w, c, f, s, d, top, bottom, left, right) in cases {
            for own in [ConvolutionPadding.valid, .same] {
                let rows = ConvolutionAxis(inputSize: h, filterSize: f, stride: s, dilation: d, padding: own,
                                           extendBefore: top, extendAfter: bottom)
                let cols = ConvolutionAxis(inputSize: w, filterSize: f, stride: s, dilation: d, padding: own,
                                           extendBefore: left, extendAfter: right)
                // The unfused layer: `own` padding over the PAD's output.
                let paddedRows = ConvolutionAxis(inputSize: top + h + bottom, filterSize: f, stride: s, dilation: d, padding: own)
                let paddedCols = ConvolutionAxis(inputSize: left + w + right, filterSize: f, stride: s, dilation: d, padding: own)
                XCTAssertEqual(rows.outputSize, paddedRows.outputSize)
                XCTAssertEqual(cols.outputSize, paddedCols.outputSize)
                for depthwise in [false, true] {
                    let cout = depthwise ? c * 2 : 5
                    let explicit = ConvolutionGeometry(
                        batches: 2, inputHeight: h, inputWidth: w, inputDepth: c, filterHeight: f, filterWidth: f,
                        filterInputDepth: depthwise ? 1 : c, outputHeight: rows.outputSize, outputWidth: cols.outputSize,
                        outputDepth: cout, strideHeight: s, strideWidth: s, dilationHeight: d, dilationWidth: d,
                        padTop: rows.padBefore, padLeft: cols.padBefore)
                    var unfused = explicit
                    (unfused.inputHeight, unfused.inputWidth, unfused.padTop, unfused.padLeft)
                        = (top + h + bottom, left + w + right, paddedRows.padBefore, paddedCols.padBefore)
                    body(explicit, unfused, top, left, depthwise,
                         "\(h)x\(w)x\(c) filter \(f) stride \(s) pads \(top) \(bottom) \(left) \(right) \(own) depthwise \(depthwise)")
                }
            }
        }
    }

    /// `input` (of `explicit`'s input shape) placed at (`top`, `left`) in the unfused input, the rest `padding`.
    private func padded<T>(_ input: [T], _ explicit: ConvolutionGeometry, _ unfused: ConvolutionGeometry, top: Int, left: Int,
                           padding: T) -> [T] {
        var out = [T](repeating: padding, count: unfused.inputCount)
        let (h, w, c) = (explicit.inputHeight, explicit.inputWidth, explicit.inputDepth)
        for b in 0..<explicit.batches { for y in 0..<h { for x in 0..<w { for ch in 0..<c {
            out[((b * unfused.inputHeight + y + top) * unfused.inputWidth + x + left) * c + ch] = input[((b * h + y) * w + x) * c + ch]
        } } } }
        return out
    }

    func testInt8ConvAndDepthwiseWithExplicitPaddingEqualTheConvolutionOfThePaddedInput() {
        var rng = SeededGenerator(seed: 41)
        let zeroPoint: Int32 = -7
        forEachPaddedCase { explicit, unfused, top, left, depthwise, label in
            let cout = explicit.outputDepth, f = explicit.filterHeight
            let input = (0..<explicit.inputCount).map { _ in Int8.random(in: .min ... .max, using: &rng) }
            let padded = self.padded(input, explicit, unfused, top: top, left: left, padding: Int8(zeroPoint))
            let filter = (0..<(depthwise ? f * f * cout : explicit.filterCount)).map { _ in Int8.random(in: -127...127, using: &rng) }
            let bias = (0..<cout).map { _ in Int32.random(in: -5000...5000, using: &rng) }
            let q = QuantizedConvolutionParameters(inputOffset: -zeroPoint, filterOffset: 0, outputOffset: 3,
                                                   outputMultipliers: (0..<cout).map { QuantizedMultiplier(0.001 * Double($0 + 1)) },
                                                   activationMin: -128, activationMax: 127)
            var a = [Int8](repeating: 0, count: explicit.outputCount), b = a
            if depthwise {
                DepthwiseConv2DReference.int8(explicit, q, input: input, filter: filter, bias: bias, output: &a)
                DepthwiseConv2DReference.int8(unfused, q, input: padded, filter: filter, bias: bias, output: &b)
            } else {
                Conv2DReference.int8(explicit, q, input: input, filter: filter, bias: bias, output: &a)
                Conv2DReference.int8(unfused, q, input: padded, filter: filter, bias: bias, output: &b)
            }
            XCTAssertEqual(a, b, label)
        }
    }

    /// The float reference kernels, which skip padding taps, with explicit padding equal the
    /// convolution of the input padded with +0.0 (which adds `+0 · w`) bit for bit, signed zeros
    /// included: a sum that starts at +0 is never −0, so adding a zero product changes no partial
    /// sum (``PadFusion``'s argument for folding float PADs into layers with finite weights). The
    /// inputs are zeros of both signs, ±1 and random values; the weights include −0.0 and
    /// negative values, so padding products are −0 as often as +0; no bias, so a −0 would show.
    func testFloatConvAndDepthwiseWithExplicitPaddingEqualTheConvolutionOfThePaddedInput() {
        var rng = SeededGenerator(seed: 43)
        forEachPaddedCase { explicit, unfused, top, left, depthwise, label in
            let cout = explicit.outputDepth, f = explicit.filterHeight
            for values in [[Float(-0.0)], [0, -0.0], [-0.0, 1, -1], [Float]()] {
                let input = (0..<explicit.inputCount).map { _ in values.isEmpty ? rng.float() * 4 - 2 : values[rng.int(0...(values.count - 1))] }
                let padded = self.padded(input, explicit, unfused, top: top, left: left, padding: Float(0))
                let weights: [Float] = [-0.0, -1, 1, -0.5, 2]
                let filter = (0..<(depthwise ? f * f * cout : explicit.filterCount)).map { _ in weights[rng.int(0...4)] }
                var a = [Float](repeating: .nan, count: explicit.outputCount), b = a
                if depthwise {
                    DepthwiseConv2DReference.float(explicit, activationMin: -.infinity, activationMax: .infinity, input: input,
                                                   filter: filter, bias: nil, output: &a)
                    DepthwiseConv2DReference.float(unfused, activationMin: -.infinity, activationMax: .infinity, input: padded,
                                                   filter: filter, bias: nil, output: &b)
                } else {
                    Conv2DReference.float(explicit, activationMin: -.infinity, activationMax: .infinity, input: input,
                                          filter: filter, bias: nil, output: &a)
                    Conv2DReference.float(unfused, activationMin: -.infinity, activationMax: .infinity, input: padded,
                                          filter: filter, bias: nil, output: &b)
                }
                XCTAssertEqual(a.map(\.bitPattern), b.map(\.bitPattern), "\(label) \(values)")
            }
        }
    }
}
