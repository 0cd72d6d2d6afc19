import XCTest
@testable import TFLiteKernels

/// DENSIFY's format-converter walk on hand-built sparse layouts.
final class DataMovementDensifyTests: XCTestCase {
    /// The 4×4 block-sparse example of TFLite's sparsity documentation: 2×2 blocks, block
    /// rows stored densely, block columns as CSR.
    func testBlockSparseCSR() throws {
        // Dense matrix:
        //  1 0 | 0 0
        //  2 3 | 0 0
        //  ----+----
        //  0 0 | 4 5
        //  0 0 | 6 0
        let plan = try DensifyPlan(
            denseShape: [4, 4], traversalOrder: [0, 1, 2, 3], blockMap: [0, 1],
            dimensions: [
                DensifyDimension(isCompressed: false, denseSize: 2, segments: [], indices: []),
                DensifyDimension(isCompressed: true, denseSize: 0, segments: [0, 1, 2], indices: [0, 1]),
                DensifyDimension(isCompressed: false, denseSize: 2, segments: [], indices: []),
                DensifyDimension(isCompressed: false, denseSize: 2, segments: [], indices: []),
            ])
        XCTAssertEqual(plan.storedValueCount, 8)
        let values: [Float] = [1, 0, 2, 3, 4, 5, 6, 0]
        var dense = [Float](repeating: -1, count: 16)
        values.withUnsafeBytes { src in
            dense.withUnsafeMutableBytes { dst in
                DensifyReference.run(plan, elementSize: 4, input: src.baseAddress!, output: dst.baseAddress!)
            }
        }
        XCTAssertEqual(dense, [1, 0, 0, 0, 2, 3, 0, 0, 0, 0, 4, 5, 0, 0, 6, 0])
    }

    /// Plain CSR over a 3×5 matrix with 16-bit elements.
    func testRowCSR() throws {
        let plan = try DensifyPlan(
            denseShape: [3, 5], traversalOrder: [0, 1], blockMap: [],
            dimensions: [
                DensifyDimension(isCompressed: false, denseSize: 3, segments: [], indices: []),
                DensifyDimension(isCompressed: true, denseSize: 0, segments: [0, 2, 2, 3], indices: [1, 4, 0]),
            ])
        let values: [UInt16] = [7, 8, 9]
        var dense = [UInt16](repeating: 99, count: 15)
        values.withUnsafeBytes { src in
            dense.withUnsafeMutableBytes { DensifyReference.run(plan, elementSize: 2, input: src.baseAddress!, output: $0.baseAddress!) }
        }
        XCTAssertEqual(dense, [0, 7, 0, 0, 8, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0])
    }

    /// Random 3-D tensors with zeros, encoded as the format converter would for every traversal
    /// order and every dense/CSR choice per level, densify back to themselves.
    func testEveryTraversalOrderAndFormatRoundTrips() throws {
        var rng = SystemRandomNumberGenerator()
        let shape = [3, 4, 5]
        let strides = [20, 5, 1]
        let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
        for order in orders {
            for formats in 0..<8 {
                let dense = (0..<60).map { _ in Int.random(in: 0..<3, using: &rng) == 0 ? Int16.random(in: 1...99, using: &rng) : 0 }
                // Level by level: the coordinates of each position, and each level's metadata.
                var positions: [[Int]] = [[]]
                var dimensions: [DensifyDimension] = []
                for (level, dimension) in order.enumerated() {
                    let compressed = (formats >> level) & 1 == 1
                    let size = shape[dimension]
                    var children: [[Int]] = [], segments = [0], indices: [Int] = []
                    for parent in positions {
                        for i in 0..<size {
                            let child = parent + [i]
                            if compressed {
                                let prefix = Array(order.prefix(child.count))
                                let holdsValue = (0..<60).contains { flat in
                                    dense[flat] != 0 && prefix.indices.allSatisfy { (flat / strides[prefix[$0]]) % shape[prefix[$0]] == child[$0] }
                                }
                                guard holdsValue else { continue }
                                indices.append(i)
                            }
                            children.append(child)
                        }
                        segments.append(indices.count)
                    }
                    dimensions.append(DensifyDimension(isCompressed: compressed, denseSize: compressed ? 0 : size,
                                                       segments: compressed ? segments : [], indices: indices))
                    positions = children
                }
                let stored = positions.map { coordinates in
                    dense[zip(order, coordinates).reduce(0) { $0 + strides[$1.0] * $1.1 }]
                }
                let plan = try DensifyPlan(denseShape: shape, traversalOrder: order, blockMap: [], dimensions: dimensions)
                XCTAssertEqual(plan.storedValueCount, stored.count)
                var output = [Int16](repeating: -1, count: 60)
                stored.withUnsafeBytes { src in
                    output.withUnsafeMutableBytes { DensifyReference.run(plan, elementSize: 2, input: src.baseAddress!, output: $0.baseAddress!) }
                }
                XCTAssertEqual(output, dense, "traversal order \(order), CSR levels \(formats)")
            }
        }
    }

    func testMalformedMetadataThrows() {
        let dense = DensifyDimension(isCompressed: false, denseSize: 3, segments: [], indices: [])
        // Index 7 is outside a 5-wide row.
        XCTAssertThrowsError(try DensifyPlan(denseShape: [3, 5], traversalOrder: [0, 1], blockMap: [], dimensions: [
            dense, DensifyDimension(isCompressed: true, denseSize: 0, segments: [0, 1, 1, 1], indices: [7])]))
        // A negative index, in the innermost run and in an outer CSR level.
        XCTAssertThrowsError(try DensifyPlan(denseShape: [3, 5], traversalOrder: [0, 1], blockMap: [], dimensions: [
            dense, DensifyDimension(isCompressed: true, denseSize: 0, segments: [0, 1, 1, 1], indices: [-1])]))
        XCTAssertThrowsError(try DensifyPlan(denseShape: [3, 5], traversalOrder: [0, 1], blockMap: [], dimensions: [
            DensifyDimension(isCompressed: true, denseSize: 0, segments: [0, 1], indices: [-2]),
            DensifyDimension(isCompressed: false, denseSize: 5, segments: [], indices: [])]))
        // Segment points past the index array.
        XCTAssertThrowsError(try DensifyPlan(denseShape: [3, 5], traversalOrder: [0, 1], blockMap: [], dimensions: [
            dense, DensifyDimension(isCompressed: true, denseSize: 0, segments: [0, 4, 4, 4], indices: [1])]))
        // Decreasing segments.
        XCTAssertThrowsError(try DensifyPlan(denseShape: [3, 5], traversalOrder: [0, 1], blockMap: [], dimensions: [
            dense, DensifyDimension(isCompressed: true, denseSize: 0, segments: [0, 2, 1, 2], indices: [1, 2])]))
        // Traversal order that is not a permutation.
        XCTAssertThrowsError(try DensifyPlan(denseShape: [3, 5], traversalOrder: [0, 0], blockMap: [], dimensions: [
            dense, dense]))
        // Dense size larger than the tensor.
        XCTAssertThrowsError(try DensifyPlan(denseShape: [3, 5], traversalOrder: [0, 1], blockMap: [], dimensions: [
            DensifyDimension(isCompressed: false, denseSize: 1 << 40, segments: [], indices: []), dense]))
    }
}
