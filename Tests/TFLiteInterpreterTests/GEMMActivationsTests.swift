import Foundation
@testable import TFLiteInterpreter
import TFLiteKernels
import TestSupport
import XCTest

/// `GEMMLayout.convertAndRun`: every activation row is converted exactly once, and before any
/// tile that reads it runs. Layers whose tiles read only their own rows (1×1 stride-1 layers,
/// patch rows) convert them in the tile's own chunk, across image boundaries; the others
/// convert every row before the first tile.
final class GEMMActivationsTests: XCTestCase {
    /// What the calls did, in order, per thread (recorded under a lock).
    private final class Log: @unchecked Sendable {
        let lock = NSLock()
        var converted: [Int: Int] = [:]  // buffer row -> times converted
        var tiles: [Range<Int>] = []
        var missing: [String] = []
    }

    func testRowsAreConvertedOnceBeforeTheirTiles() {
        let cases: [(String, ConvolutionGeometry, tileLocal: Bool)] = [
            // 1×1 stride 1: 3 images of 7×5 pixels (35 rows each; tiles straddle the images).
            ("1x1", geometry(batches: 3, height: 7, width: 5, depth: 32, filter: 1, stride: 1, pad: 0), true),
            // A 3-channel 3×3 layer: patch rows over the output pixels.
            ("patches", geometry(batches: 2, height: 9, width: 11, depth: 3, filter: 3, stride: 2, pad: 1), true),
            // A 3×3 layer on deep input: taps reach other tiles' rows.
            ("3x3", geometry(batches: 2, height: 9, width: 11, depth: 16, filter: 3, stride: 1, pad: 1), false),
        ]
        for (name, g, tileLocal) in cases {
            let layout = GEMMLayout(g)
            XCTAssertEqual(layout.tilesReadOwnRows, tileLocal, name)
            let rows = layout.geometry.inputHeight * layout.geometry.inputWidth
            for threads in [1, 2, 3] {
                let log = Log()
                let workspace = ThreadWorkspaceSlot(threadCount: threads)
                XCTAssertNoThrow(try workspace.allocateOwn())
                layout.convertAndRun(threads: ThreadPool(threadCount: threads), workspace: workspace) { batch, pixels in
                    XCTAssertTrue(pixels.lowerBound >= 0 && pixels.upperBound <= rows, "\(name): \(pixels) in one image")
                    log.lock.lock(); defer { log.lock.unlock() }
                    for p in pixels { log.converted[batch * rows + p, default: 0] += 1 }
                } gemm: { tiles, _ in
                    log.lock.lock(); defer { log.lock.unlock() }
                    // The rows these tiles read: their own pixels (tile-local layers) or, for
                    // the others, every row (the test's stand-in for the taps' reach).
                    let first = tiles.lowerBound * QuantizedGEMM.tilePixels
                    let end = min(layout.pixels, tiles.upperBound * QuantizedGEMM.tilePixels)
                    let read = tileLocal ? first..<end : 0..<layout.pixels
                    for row in read where log.converted[row] != 1 { log.missing.append("\(name): row \(row) read by \(tiles)") }
                    log.tiles.append(tiles)
                }
                XCTAssertEqual(log.converted.count, layout.pixels, "\(name), \(threads) threads: every row")
                XCTAssertTrue(log.converted.values.allSatisfy { $0 == 1 }, "\(name), \(threads) threads: each once")
                XCTAssertEqual(log.missing, [], "\(name), \(threads) threads")
                let tiles = log.tiles.sorted { $0.lowerBound < $1.lowerBound }
                if threads > 1 { XCTAssertGreaterThan(tiles.count, threads, "\(name): the work is split") }
                XCTAssertEqual(tiles.reduce(0) { $0 + $1.count }, QuantizedGEMM.tileCount(layout.geometry))
                XCTAssertEqual(tiles.first?.lowerBound, 0)
                XCTAssertTrue(zip(tiles, tiles.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound }, "tiles cover once")
            }
        }
    }

    /// Output depth 1024, so that every layer here splits into one chunk per tile or so
    /// (`WorkSplitPolicy.integerGEMMMinChunk`).
    private func geometry(batches: Int, height: Int, width: Int, depth: Int, filter: Int, stride: Int, pad: Int)
        -> ConvolutionGeometry {
        let out = { (size: Int) in (size + 2 * pad - filter) / stride + 1 }
        return ConvolutionGeometry(batches: batches, inputHeight: height, inputWidth: width, inputDepth: depth,
                                   filterHeight: filter, filterWidth: filter, filterInputDepth: depth,
                                   outputHeight: out(height), outputWidth: out(width), outputDepth: 1024,
                                   strideHeight: stride, strideWidth: stride, padTop: pad, padLeft: pad)
    }
}
