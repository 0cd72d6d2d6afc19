import XCTest
@testable import TFLiteInterpreter
import TFLiteKernels

/// The policy of ``DepthwiseExpandedInput``: which layers with a depth multiplier run on the
/// multiplier-1 kernels over an expanded input, and which keep the reference kernels.
final class DepthwiseExpandedInputTests: XCTestCase {
    private func layer(size: Int, depth: Int, multiplier: Int, filter: Int, stride: Int, output: Int,
                       batches: Int = 1) -> ConvolutionGeometry {
        ConvolutionGeometry(batches: batches, inputHeight: size, inputWidth: size, inputDepth: depth, filterHeight: filter,
                            filterWidth: filter, filterInputDepth: 1, outputHeight: output, outputWidth: output,
                            outputDepth: depth * multiplier, strideHeight: stride, strideWidth: stride)
    }

    func testLayersWithAMultiplierAndModestStridesAreExpanded() {
        // classifier_stopsign_int8's 1×1 layer of 1 channel × 8, and stride-2 and stride-4 layers.
        XCTAssertTrue(DepthwiseExpandedInput.takes(layer(size: 96, depth: 1, multiplier: 8, filter: 1, stride: 1, output: 96)))
        XCTAssertTrue(DepthwiseExpandedInput.takes(layer(size: 9, depth: 3, multiplier: 2, filter: 3, stride: 2, output: 4)))
        XCTAssertTrue(DepthwiseExpandedInput.takes(layer(size: 64, depth: 4, multiplier: 3, filter: 3, stride: 4, output: 16)))
        let g = DepthwiseExpandedInput.expandedGeometry(layer(size: 9, depth: 3, multiplier: 2, filter: 3, stride: 2, output: 4))
        XCTAssertEqual(g.inputDepth, 6)
        XCTAssertEqual(g.depthMultiplier, 1)
    }

    func testOtherLayersKeepTheirPlans() {
        // No multiplier.
        XCTAssertFalse(DepthwiseExpandedInput.takes(layer(size: 32, depth: 8, multiplier: 1, filter: 3, stride: 1, output: 32)))
        // A filter spanning most of a large input: 200·200·16 copied for 16 outputs.
        XCTAssertFalse(DepthwiseExpandedInput.takes(layer(size: 200, depth: 2, multiplier: 8, filter: 199, stride: 1, output: 2)))
        // Stride 5: 25 times the output.
        XCTAssertFalse(DepthwiseExpandedInput.takes(layer(size: 50, depth: 1, multiplier: 4, filter: 1, stride: 5, output: 10)))
        // An element count that overflows.
        XCTAssertFalse(DepthwiseExpandedInput.takes(layer(size: 1 << 20, depth: 1, multiplier: 1 << 20, filter: 1, stride: 1,
                                                          output: 1 << 20, batches: 1 << 20)))
    }
}
