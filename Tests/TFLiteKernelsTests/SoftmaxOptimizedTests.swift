import TestSupport
import XCTest
import TFLiteKernels

/// `SoftmaxOptimized.float32` against `SoftmaxReference.float32`, bit for bit: row lengths on
/// and off the 8-lane groups, betas, rows with ties and signed zeros, infinities, NaN, values
/// whose scaled difference leaves the inline exponential's range (|x| ≥ 88), and in place.
final class SoftmaxOptimizedTests: XCTestCase {
    private func check(_ x: [Float], depth: Int, beta: Float, file: StaticString = #filePath, line: UInt = #line) {
        let rows = x.count / depth
        var want = [Float](repeating: 0, count: x.count), got = want
        SoftmaxReference.float32(beta: beta, depth: depth, rows: 0..<rows, x, &want)
        // Rows in two calls, as the pool splits them.
        let split = rows / 2
        got.withUnsafeMutableBufferPointer { out in
            SoftmaxOptimized.float32(beta: beta, depth: depth, rows: 0..<split, x, out.baseAddress!)
            SoftmaxOptimized.float32(beta: beta, depth: depth, rows: split..<rows, x, out.baseAddress!)
        }
        XCTAssertEqual(got.map(\.bitPattern), want.map(\.bitPattern), "depth \(depth), beta \(beta)", file: file, line: line)
        var inPlace = x
        inPlace.withUnsafeMutableBufferPointer { p in
            SoftmaxOptimized.float32(beta: beta, depth: depth, rows: 0..<rows, p.baseAddress!, p.baseAddress!)
        }
        XCTAssertEqual(inPlace.map(\.bitPattern), want.map(\.bitPattern), "in place, depth \(depth), beta \(beta)",
                       file: file, line: line)
    }

    func testRandomRowsMatchTheReference() {
        var rng = SeededGenerator(seed: 2815)
        for depth in [1, 3, 7, 8, 9, 16, 17, 33, 80] {
            for beta: Float in [1, 0.5, 2.5, -1] {
                check(rng.floats(5 * depth, in: -12...12), depth: depth, beta: beta)
            }
        }
        // Wide ranges: scaled differences beyond ±88 go through the C library's range.
        check(rng.floats(7 * 16, in: -200...200), depth: 16, beta: 1)
        check(rng.floats(3 * 24, in: -30...30), depth: 24, beta: 4)
    }

    func testTiesInfinitiesAndNaN() {
        var rows: [[Float]] = []
        rows.append([Float](repeating: 3, count: 16))                                     // all equal
        rows.append((0..<16).map { $0 % 2 == 0 ? -0.0 : 0.0 })                            // signed-zero maxima
        rows.append((0..<16).map { $0 == 5 ? .infinity : Float($0) })                     // +inf: NaN row
        rows.append((0..<16).map { $0 % 3 == 0 ? -.infinity : Float($0) / 4 })            // -inf: zeros
        rows.append((0..<16).map { $0 == 9 ? .nan : Float($0) })                          // a NaN
        rows.append((0..<16).map { $0 == 0 ? 100 : -100 })                                // far below the maximum
        rows.append([Float](repeating: -.greatestFiniteMagnitude, count: 16))             // the start value itself
        rows.append([Float](repeating: .nan, count: 16))
        check(rows.flatMap { $0 }, depth: 16, beta: 1)
        check(rows.flatMap { $0 }, depth: 8, beta: 0.75)
    }
}
