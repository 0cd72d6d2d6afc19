import XCTest
@testable import TFLiteInterpreter
import TFLiteKernels

/// `WorkSplitPolicy.depthwiseQuadMinChunk`: chunks of the tap-quad depthwise kernel long enough
/// that the rows each chunk builds again stay few, one even share per thread at most, and small
/// layers on one thread.
final class DepthwiseQuadChunkTests: XCTestCase {
    /// A `size`×`size`×`depth` depthwise layer with a `filter`×`filter` filter, "same" padding.
    private func layer(size: Int, depth: Int, filter: Int, stride: Int = 1, batches: Int = 1) -> ConvolutionGeometry {
        let out = (size - 1) / stride + 1
        return ConvolutionGeometry(batches: batches, inputHeight: size, inputWidth: size, inputDepth: depth,
                                   filterHeight: filter, filterWidth: filter, filterInputDepth: 1,
                                   outputHeight: out, outputWidth: out, outputDepth: depth,
                                   strideHeight: stride, strideWidth: stride, padTop: filter / 2, padLeft: filter / 2)
    }

    /// The chunks a pool of `threads` threads makes of the layer's rows (at least one, as `ThreadPool`).
    private func chunkCount(_ g: ConvolutionGeometry, threads: Int) -> Int {
        max(1, g.batches * g.outputHeight / WorkSplitPolicy.depthwiseQuadMinChunk(g, threadCount: threads))
    }

    func testSmallFeatureMapsSplitIntoOneSharePerThread() {
        // efficientnet_lite0's 5×5 layers at 14×14 and 7×7: one chunk per thread, where the
        // usual row chunks (about two rows each) built each row of quads three times over.
        XCTAssertEqual(WorkSplitPolicy.depthwiseQuadMinChunk(layer(size: 14, depth: 672, filter: 5), threadCount: 2), 7)
        XCTAssertEqual(chunkCount(layer(size: 14, depth: 672, filter: 5), threads: 2), 2)
        XCTAssertEqual(chunkCount(layer(size: 7, depth: 1152, filter: 5), threads: 2), 2)
        XCTAssertLessThan(WorkSplitPolicy.depthwiseMinChunk(layer(size: 14, depth: 672, filter: 5)), 7,
                          "the plain row chunks are shorter")
    }

    func testLargeFeatureMapsKeepChunksOfEightRebuiltRowsEach() {
        // 3×3 at stride 1 builds 2 rows again per chunk: chunks of 16 rows.
        XCTAssertEqual(WorkSplitPolicy.depthwiseQuadMinChunk(layer(size: 112, depth: 32, filter: 3), threadCount: 2), 16)
        // At stride 2 a 3×3 chunk builds 1 row again.
        XCTAssertEqual(WorkSplitPolicy.depthwiseQuadMinChunk(layer(size: 112, depth: 96, filter: 3, stride: 2), threadCount: 2),
                       8)
        // Batches count as rows.
        XCTAssertEqual(chunkCount(layer(size: 7, depth: 1152, filter: 5, batches: 4), threads: 2), 2)
    }

    func testSmallLayersStayOnOneThreadAndOneThreadTakesEverything() {
        let tiny = layer(size: 8, depth: 8, filter: 3)
        XCTAssertEqual(WorkSplitPolicy.depthwiseQuadMinChunk(tiny, threadCount: 2), WorkSplitPolicy.depthwiseMinChunk(tiny))
        XCTAssertEqual(chunkCount(tiny, threads: 2), 1)
        XCTAssertEqual(WorkSplitPolicy.depthwiseQuadMinChunk(layer(size: 14, depth: 672, filter: 5), threadCount: 1), 14)
    }
}
