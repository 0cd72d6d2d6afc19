import TestSupport
import XCTest
@testable import TFLiteKernels

/// The separable MAX_POOL_2D and the vector AVERAGE_POOL_2D against the reference pooling on
/// edge geometries: windows larger than the input, strides larger than the window, SAME
/// padding that clips every border, channel counts off the 16-lane blocks, several batches,
/// and output rows computed in separate chunks (as the thread pool splits them).
final class PoolingOptimizedTests: XCTestCase {
    private struct Case {
        var n, h, w, c, fh, fw, sh, sw: Int
        var same: Bool
    }

    private func geometry(_ k: Case) -> ConvolutionGeometry {
        let padding: ConvolutionPadding = k.same ? .same : .valid
        let rows = ConvolutionAxis(inputSize: k.h, filterSize: k.fh, stride: k.sh, dilation: 1, padding: padding)
        let cols = ConvolutionAxis(inputSize: k.w, filterSize: k.fw, stride: k.sw, dilation: 1, padding: padding)
        return ConvolutionGeometry(batches: k.n, inputHeight: k.h, inputWidth: k.w, inputDepth: k.c,
                                   filterHeight: k.fh, filterWidth: k.fw, filterInputDepth: 1,
                                   outputHeight: max(0, rows.outputSize), outputWidth: max(0, cols.outputSize), outputDepth: k.c,
                                   strideHeight: k.sh, strideWidth: k.sw, padTop: rows.padBefore, padLeft: cols.padBefore)
    }

    private var cases: [Case] {
        var list = [
            Case(n: 1, h: 20, w: 20, c: 128, fh: 5, fw: 5, sh: 1, sw: 1, same: true),   // YOLOv8 SPPF
            Case(n: 1, h: 7, w: 7, c: 1280, fh: 7, fw: 7, sh: 1, sw: 1, same: false),   // global average
            Case(n: 2, h: 9, w: 11, c: 19, fh: 3, fw: 3, sh: 2, sw: 2, same: true),
            Case(n: 1, h: 4, w: 3, c: 33, fh: 9, fw: 7, sh: 1, sw: 1, same: true),      // window larger than the input
            Case(n: 1, h: 13, w: 10, c: 5, fh: 2, fw: 3, sh: 4, sw: 5, same: false),    // stride larger than the window
            Case(n: 3, h: 1, w: 1, c: 16, fh: 1, fw: 1, sh: 1, sw: 1, same: true),
            Case(n: 1, h: 6, w: 17, c: 1, fh: 1, fw: 4, sh: 1, sw: 3, same: true),
            Case(n: 1, h: 17, w: 6, c: 48, fh: 4, fw: 1, sh: 3, sw: 1, same: true),
            Case(n: 1, h: 10, w: 12, c: 8, fh: 2, fw: 2, sh: 2, sw: 2, same: false),    // an 8-channel classifier
            Case(n: 1, h: 5, w: 6, c: 27, fh: 3, fw: 3, sh: 1, sw: 1, same: true),      // 16 + 8 + 3 channels
        ]
        var rng = SeededGenerator(seed: 41)
        for _ in 0..<40 {
            list.append(Case(n: Int.random(in: 1...2, using: &rng), h: Int.random(in: 1...12, using: &rng),
                             w: Int.random(in: 1...12, using: &rng), c: Int.random(in: 1...40, using: &rng),
                             fh: Int.random(in: 1...6, using: &rng), fw: Int.random(in: 1...6, using: &rng),
                             sh: Int.random(in: 1...3, using: &rng), sw: Int.random(in: 1...3, using: &rng),
                             same: Bool.random(using: &rng)))
        }
        return list
    }

    /// Runs `optimized` over the output rows in uneven chunks.
    private func chunked(_ g: ConvolutionGeometry, _ optimized: (Range<Int>) -> Void) {
        let rows = PoolingOptimized.rowCount(g)
        var start = 0, step = 1
        while start < rows {
            let end = min(rows, start + step)
            optimized(start..<end)
            start = end; step += 2
        }
    }

    func testQuantizedPoolingIsBitExact() {
        var rng = SeededGenerator(seed: 42)
        for k in cases {
            let g = geometry(k)
            guard g.outputHeight > 0, g.outputWidth > 0 else { continue }
            let xi = (0..<g.inputCount).map { _ in Int8.random(in: .min ... .max, using: &rng) }
            let xu = (0..<g.inputCount).map { _ in UInt8.random(in: .min ... .max, using: &rng) }
            for (lo, hi) in [(Int32(-128), Int32(127)), (-20, 90), (5, 5)] {
                var want = [Int8](repeating: 0, count: g.outputCount), got = want
                PoolingReference.maxQuantized(g, activationMin: lo, activationMax: hi, input: xi, output: &want)
                got.withUnsafeMutableBufferPointer { o in
                    chunked(g) { PoolingOptimized.maxInt8(g, activationMin: lo, activationMax: hi, input: xi, output: o.baseAddress!, rows: $0) }
                }
                XCTAssertEqual(got, want, "int8 max \(k) [\(lo), \(hi)]")
                got = [Int8](repeating: 0, count: g.outputCount)
                got.withUnsafeMutableBufferPointer { o in
                    chunked(g) { rows in
                        let workspace = PoisonedWorkspace(byteCount: PoolingOptimized.maxWorkspaceBytes(g, of: Int8.self), pattern: 0x7F)
                        PoolingOptimized.maxInt8(g, activationMin: lo, activationMax: hi, input: xi, output: o.baseAddress!, rows: rows,
                                                 workspace: workspace.workspace)
                        workspace.assertGuardIntact("int8 max \(k)")
                    }
                }
                XCTAssertEqual(got, want, "int8 max \(k) [\(lo), \(hi)] in a poisoned workspace")
                PoolingReference.averageQuantized(g, activationMin: lo, activationMax: hi, input: xi, output: &want)
                got.withUnsafeMutableBufferPointer { o in
                    chunked(g) { PoolingOptimized.averageInt8(g, activationMin: lo, activationMax: hi, input: xi, output: o.baseAddress!, rows: $0) }
                }
                XCTAssertEqual(got, want, "int8 average \(k) [\(lo), \(hi)]")
            }
            for (lo, hi) in [(Int32(0), Int32(255)), (17, 200)] {
                var want = [UInt8](repeating: 0, count: g.outputCount), got = want
                PoolingReference.maxQuantized(g, activationMin: lo, activationMax: hi, input: xu, output: &want)
                got.withUnsafeMutableBufferPointer { o in
                    chunked(g) { PoolingOptimized.maxUInt8(g, activationMin: lo, activationMax: hi, input: xu, output: o.baseAddress!, rows: $0) }
                }
                XCTAssertEqual(got, want, "uint8 max \(k) [\(lo), \(hi)]")
                PoolingReference.averageQuantized(g, activationMin: lo, activationMax: hi, input: xu, output: &want)
                got.withUnsafeMutableBufferPointer { o in
                    chunked(g) { PoolingOptimized.averageUInt8(g, activationMin: lo, activationMax: hi, input: xu, output: o.baseAddress!, rows: $0) }
                }
                XCTAssertEqual(got, want, "uint8 average \(k) [\(lo), \(hi)]")
            }
        }
    }

    func testFloatPoolingMatchesReference() {
        var rng = SeededGenerator(seed: 43)
        for k in cases {
            let g = geometry(k)
            guard g.outputHeight > 0, g.outputWidth > 0 else { continue }
            let x = rng.floats(g.inputCount, in: -50...50)
            for (lo, hi) in [(-Float.infinity, Float.infinity), (0, 6)] {
                var want = [Float](repeating: 0, count: g.outputCount), got = want
                PoolingReference.maxFloat(g, activationMin: lo, activationMax: hi, input: x, output: &want)
                got.withUnsafeMutableBufferPointer { o in
                    chunked(g) { PoolingOptimized.maxFloat(g, activationMin: lo, activationMax: hi, input: x, output: o.baseAddress!, rows: $0) }
                }
                XCTAssertEqual(got, want, "float max \(k)")
                PoolingReference.averageFloat(g, activationMin: lo, activationMax: hi, input: x, output: &want)
                got.withUnsafeMutableBufferPointer { o in
                    chunked(g) { PoolingOptimized.averageFloat(g, activationMin: lo, activationMax: hi, input: x, output: o.baseAddress!, rows: $0) }
                }
                XCTAssertEqual(got, want, "float average \(k)")
            }
        }
    }
}
