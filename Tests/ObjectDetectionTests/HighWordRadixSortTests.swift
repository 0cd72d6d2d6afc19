@testable import ObjectDetection
import XCTest

/// ``HighWordRadixSort`` gives exactly `sorted()` for keys whose low words ascend (the colour
/// regions' edge keys), including many equal high words, and keeps equal high words in order.
final class HighWordRadixSortTests: XCTestCase {
    func testKeysWithAscendingLowWordsSortExactlyAsAComparisonSort() {
        var generator = SystemRandomNumberGenerator()
        for (count, distinctWeights) in [(0, 1), (1, 1), (2, 1), (1000, 3), (5000, 70_000), (40_000, 1 << 20)] {
            // Non-negative float weights (their bits order as the floats), many equal.
            let keys = (0..<count).map { index -> UInt64 in
                let weight = Float(UInt32.random(in: 0..<UInt32(distinctWeights), using: &generator)) / 7
                return UInt64(weight.bitPattern) << 32 | UInt64(index)
            }
            var sorted = keys
            HighWordRadixSort.sort(&sorted)
            XCTAssertEqual(sorted, keys.sorted(), "\(count) keys, \(distinctWeights) weights")
        }
    }

    func testEqualHighWordsKeepTheirOrderAndVaryingBytesAreAllSorted() {
        // Low words deliberately not ascending: stability, not a full sort.
        let keys: [UInt64] = [0x0102_0304_0000_0009, 0x0000_0001_0000_0005, 0x0102_0304_0000_0001,
                              0xFF00_0000_0000_0000, 0x0000_0001_0000_0002, 0x0001_0000_0000_0007]
        var sorted = keys
        HighWordRadixSort.sort(&sorted)
        XCTAssertEqual(sorted, [0x0000_0001_0000_0005, 0x0000_0001_0000_0002, 0x0001_0000_0000_0007,
                                0x0102_0304_0000_0009, 0x0102_0304_0000_0001, 0xFF00_0000_0000_0000])
    }
}
