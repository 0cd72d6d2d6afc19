import TestSupport
import XCTest
@testable import TFLiteKernels

/// The gathered, vectorized Convolution2DTransposeBias kernel against the reference scatter, bit
/// for bit, on random geometries: strides 1 to 3, filters smaller and larger than the stride (taps
/// that overlap, and phases with no tap), the padding SAME gives and none, widths below and above
/// the eight-lane block, several batches and channel counts, output rows in random chunks; with
/// ties (values on a coarse grid) and signed zeros.
final class TransposeConvOntoBiasTests: XCTestCase {
    func testMatchesTheReferenceScatterBitForBit() {
        var rng = SeededGenerator(seed: 0x7C0B)
        for trial in 0..<300 {
            let (n, h, w, cin, cout) = (rng.int(1...2), rng.int(1...9), rng.int(1...27), rng.int(1...9), rng.int(1...3))
            let (fh, fw, sh, sw) = (rng.int(1...4), rng.int(1...4), rng.int(1...3), rng.int(1...3))
            let same = rng.int(0...1) == 0
            let padH = same ? max(0, fh - (h - 1) % sh - 1) : 0, padW = same ? max(0, fw - (w - 1) % sw - 1) : 0
            let g = ConvolutionGeometry(batches: n, inputHeight: h, inputWidth: w, inputDepth: cin,
                                        filterHeight: fh, filterWidth: fw, filterInputDepth: cin,
                                        outputHeight: sh * (h - 1) + fh - padH, outputWidth: sw * (w - 1) + fw - padW,
                                        outputDepth: cout, strideHeight: sh, strideWidth: sw, padTop: padH / 2, padLeft: padW / 2)
            let coarse = trial % 3 == 0  // sums of a few grid values: ties and exact zeros of both signs
            func values(_ count: Int) -> [Float] {
                (0..<count).map { _ in coarse ? Float(rng.int(-2...2)) * 0.5 : Float.random(in: -1...1, using: &rng) }
            }
            let input = values(n * h * w * cin), filter = values(cout * fh * fw * cin), bias = values(cout)
            var expected = [Float](repeating: .nan, count: g.outputCount), actual = expected
            var planes = [Float](repeating: .nan, count: TransposeConvOntoBiasOptimized.planeCount(g))
            TransposeConvReference.floatOntoBias(g, input: input, filter: filter, bias: bias, output: &expected)
            TransposeConvOntoBiasOptimized.makePlanes(g, input: input, planes: &planes)
            // Output rows in random chunks, as the thread pool splits them.
            var row = 0, rowCount = n * g.outputHeight
            while row < rowCount {
                let end = min(rowCount, row + rng.int(1...4))
                TransposeConvOntoBiasOptimized.run(g, planes: planes, filter: filter, bias: bias, output: &actual, rows: row..<end)
                row = end
            }
            XCTAssertEqual(actual.map(\.bitPattern), expected.map(\.bitPattern), "trial \(trial): \(g)")
        }
    }
}
