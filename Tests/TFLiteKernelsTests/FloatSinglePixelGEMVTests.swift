import TestSupport
import XCTest
import TFLiteKernels

/// `FloatSinglePixelGEMV` against the reference kernels, bit for bit: FULLY_CONNECTED rows and
/// convolutions whose VALID window spans the input, on channel counts off the 32-lane panels,
/// with and without bias, clamps that cut, inputs with zeros, infinities and NaN, panels run in
/// separate calls (as the pool splits them), and a poisoned output past the last channel.
final class FloatSinglePixelGEMVTests: XCTestCase {
    private func run(_ g: ConvolutionGeometry, input: [Float], filter: [Float], bias: [Float]?, clamp: (Float, Float),
                     file: StaticString = #filePath, line: UInt = #line) {
        var want = [Float](repeating: 0, count: g.outputDepth)
        Conv2DReference.float(g, activationMin: clamp.0, activationMax: clamp.1, input: input, filter: filter, bias: bias,
                              output: &want)
        let depth = g.filterHeight * g.filterWidth * g.inputDepth
        let packed = try! FloatSinglePixelGEMV.pack(filter, outputDepth: g.outputDepth, depth: depth)
        var got = [Float](repeating: .nan, count: g.outputDepth + 5)
        let panels = FloatSinglePixelGEMV.panelCount(outputDepth: g.outputDepth)
        got.withUnsafeMutableBufferPointer { out in
            // Each panel in a call of its own, last first.
            for panel in (0..<panels).reversed() {
                FloatSinglePixelGEMV.run(input: input, depth: depth, weights: packed.pointer, bias: bias, outputDepth: g.outputDepth,
                                         activationMin: clamp.0, activationMax: clamp.1, output: out.baseAddress!,
                                         panels: panel..<(panel + 1))
            }
        }
        XCTAssertEqual(got[..<g.outputDepth].map(\.bitPattern), want.map(\.bitPattern), "\(g)", file: file, line: line)
        XCTAssertTrue(got[g.outputDepth...].allSatisfy(\.isNaN), "wrote past the last channel", file: file, line: line)
    }

    func testFullyConnectedRowsMatchTheReferenceBitForBit() {
        var rng = SeededGenerator(seed: 2811)
        for (inputSize, units) in [(1, 1), (2304, 128), (31, 7), (64, 33), (5, 96), (300, 65), (17, 1404)] {
            let g = ConvolutionGeometry(batches: 1, inputHeight: 1, inputWidth: 1, inputDepth: inputSize, filterHeight: 1,
                                        filterWidth: 1, filterInputDepth: inputSize, outputHeight: 1, outputWidth: 1,
                                        outputDepth: units)
            XCTAssertTrue(FloatSinglePixelGEMV.takes(g))
            var input = rng.floats(inputSize, in: -4...4)
            if inputSize > 8 { input[3] = 0; input[5] = -0.0 }
            let filter = rng.floats(units * inputSize, in: -1...1)
            let bias = rng.floats(units, in: -2...2)
            run(g, input: input, filter: filter, bias: bias, clamp: (-.infinity, .infinity))
            run(g, input: input, filter: filter, bias: nil, clamp: (0, 6))
            run(g, input: input, filter: filter, bias: bias, clamp: (-0.5, 0.5))
        }
    }

    func testInfinitiesAndNaNPropagateAsInTheReference() {
        var rng = SeededGenerator(seed: 2812)
        let (inputSize, units) = (40, 37)
        let g = ConvolutionGeometry(batches: 1, inputHeight: 1, inputWidth: 1, inputDepth: inputSize, filterHeight: 1,
                                    filterWidth: 1, filterInputDepth: inputSize, outputHeight: 1, outputWidth: 1, outputDepth: units)
        var input = rng.floats(inputSize)
        input[7] = .infinity; input[9] = -.infinity; input[20] = .nan
        run(g, input: input, filter: rng.floats(units * inputSize), bias: rng.floats(units), clamp: (0, 6))
        input[20] = 1
        run(g, input: input, filter: rng.floats(units * inputSize), bias: nil, clamp: (-.infinity, .infinity))
    }

    func testConvolutionsWhoseWindowSpansTheInput() {
        var rng = SeededGenerator(seed: 2813)
        // face_landmark's 3×3 stride-3 head (32 → 1404 channels), and smaller ones.
        for (size, depth, units, stride) in [(3, 32, 1404, 3), (2, 5, 40, 1), (4, 3, 9, 2), (1, 70, 3, 1)] {
            let g = ConvolutionGeometry(batches: 1, inputHeight: size, inputWidth: size, inputDepth: depth, filterHeight: size,
                                        filterWidth: size, filterInputDepth: depth, outputHeight: 1, outputWidth: 1,
                                        outputDepth: units, strideHeight: stride, strideWidth: stride)
            XCTAssertTrue(FloatSinglePixelGEMV.takes(g))
            run(g, input: rng.floats(g.inputCount, in: -3...3), filter: rng.floats(g.filterCount), bias: rng.floats(units),
                clamp: (-1, 1))
        }
    }

    func testOtherLayersAreNotTaken() {
        let pointwise = ConvolutionGeometry(batches: 2, inputHeight: 1, inputWidth: 1, inputDepth: 8, filterHeight: 1, filterWidth: 1,
                                            filterInputDepth: 8, outputHeight: 1, outputWidth: 1, outputDepth: 4)
        XCTAssertFalse(FloatSinglePixelGEMV.takes(pointwise), "two rows")
        var padded = ConvolutionGeometry(batches: 1, inputHeight: 2, inputWidth: 2, inputDepth: 3, filterHeight: 2, filterWidth: 2,
                                         filterInputDepth: 3, outputHeight: 1, outputWidth: 1, outputDepth: 4, padTop: 1)
        XCTAssertFalse(FloatSinglePixelGEMV.takes(padded), "padding")
        padded.padTop = 0
        XCTAssertTrue(FloatSinglePixelGEMV.takes(padded))
        padded.filterInputDepth = 1
        XCTAssertFalse(FloatSinglePixelGEMV.takes(padded), "groups")
        let smallerWindow = ConvolutionGeometry(batches: 1, inputHeight: 3, inputWidth: 3, inputDepth: 2, filterHeight: 2,
                                                filterWidth: 2, filterInputDepth: 2, outputHeight: 1, outputWidth: 1, outputDepth: 4,
                                                strideHeight: 2, strideWidth: 2)
        XCTAssertFalse(FloatSinglePixelGEMV.takes(smallerWindow), "a window smaller than the input")
    }
}
