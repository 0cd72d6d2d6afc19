import TestSupport
import XCTest
@testable import TFLiteKernels

/// The vector same-type 8-bit softmax rows against the reference kernel on edge rows: depths
/// around the 16-lane blocks (YOLOv8's distribution-focal-loss rows are 16 wide), constant
/// rows, rows spanning the whole code range, and extreme betas and input scales.
final class SoftmaxVectorTests: XCTestCase {
    private func rows(_ rng: inout SeededGenerator, depth: Int, count: Int) -> [Int8] {
        var x: [Int8] = []
        for r in 0..<count {
            switch r % 4 {
            case 0: x += Array(repeating: Int8.random(in: .min ... .max, using: &rng), count: depth)
            case 1: x += (0..<depth).map { $0 % 2 == 0 ? Int8.min : Int8.max }
            default: x += (0..<depth).map { _ in Int8.random(in: .min ... .max, using: &rng) }
            }
        }
        return x
    }

    func testVectorRowsMatchReference() {
        var rng = SeededGenerator(seed: 61)
        let settings: [(beta: Float, scale: Float)] = [(1, 0.22119), (1, 1e-4), (1, 2.0), (0.01, 0.1), (20, 0.5), (1, 0.00390625)]
        for (beta, scale) in settings {
            let p = SoftmaxKernels.QuantizedParams(beta: beta, inputScale: scale)
            let table = QuantizedSoftmaxTable(p)
            for depth in [1, 2, 15, 16, 17, 31, 32, 48, 80, 257] {
                let count = 9
                let x = rows(&rng, depth: depth, count: count)
                var want = [Int8](repeating: 0, count: x.count), got = want
                SoftmaxKernels.int8(p, depth: depth, rows: 0..<count, x, &want)
                // Two chunks of rows, as a thread split would give.
                table.int8(depth: depth, rows: 0..<4, x, &got)
                table.int8(depth: depth, rows: 4..<count, x, &got)
                XCTAssertEqual(got, want, "int8 beta \(beta) scale \(scale) depth \(depth)")
                let u = x.map { UInt8(bitPattern: $0) }
                var wantU = [UInt8](repeating: 0, count: x.count), gotU = wantU
                SoftmaxKernels.uint8(p, depth: depth, rows: 0..<count, u, &wantU)
                table.uint8(depth: depth, rows: 0..<count, u, &gotU)
                XCTAssertEqual(gotU, wantU, "uint8 beta \(beta) scale \(scale) depth \(depth)")
            }
        }
    }
}
