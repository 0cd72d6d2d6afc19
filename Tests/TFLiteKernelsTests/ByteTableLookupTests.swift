import TestSupport
import XCTest
@testable import TFLiteKernels

/// The prepared byte table (64-byte shuffle path in AVX-512 builds, per-byte reads elsewhere)
/// against direct indexing: every byte value, random tables, ranges that start and end off
/// the 64-byte blocks.
final class ByteTableLookupTests: XCTestCase {
    func testLookupsEqualTheTable() {
        var rng = SeededGenerator(seed: 111)
        for trial in 0..<40 {
            let entries = trial == 0 ? (0..<256).map { UInt8($0) } : (0..<256).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let table = ByteTableLookup(entries)
            let n = [1, 63, 64, 65, 256, 1000, 4099][trial % 7]
            // Every byte value first, then random bytes.
            let x = (0..<n).map { $0 < 256 ? UInt8($0) : UInt8.random(in: 0...255, using: &rng) }
            let start = trial % 3 == 0 ? 0 : Int.random(in: 0...n, using: &rng)
            let end = Int.random(in: start...n, using: &rng)
            var got = [UInt8](repeating: 0x5A, count: n), scalar = got
            table.apply(range: start..<end, x, &got)
            table.applyScalar(range: start..<end, x, &scalar)
            let want = (0..<n).map { $0 >= start && $0 < end ? entries[Int(x[$0])] : 0x5A }
            XCTAssertEqual(got, want, "trial \(trial) range \(start)..<\(end)")
            XCTAssertEqual(scalar, want, "trial \(trial) scalar")
        }
    }
}
