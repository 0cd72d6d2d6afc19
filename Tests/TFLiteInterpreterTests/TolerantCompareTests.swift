import TestSupport
import XCTest

/// The one comparison the goldens use: NaN and infinities are never hidden by `max` or by a
/// difference that compares false.
final class TolerantCompareTests: XCTestCase {
    func testNaNMatchesOnlyNaN() {
        XCTAssertNil(TolerantCompare.floatMismatch([1, .nan, 3], [1, .nan, 3]))
        XCTAssertNotNil(TolerantCompare.floatMismatch([1, .nan, 3], [1, 2, 3]), "NaN where the reference has a value")
        XCTAssertNotNil(TolerantCompare.floatMismatch([1, 2, 3], [1, .nan, 3]), "a value where the reference has NaN")
        XCTAssertNotNil(TolerantCompare.stepMismatch([.nan], [0]))
    }

    func testInfinityMatchesOnlyTheSameInfinity() {
        XCTAssertNil(TolerantCompare.floatMismatch([.infinity, -.infinity], [.infinity, -.infinity]))
        XCTAssertNotNil(TolerantCompare.floatMismatch([.infinity], [-.infinity]))
        XCTAssertNotNil(TolerantCompare.floatMismatch([.infinity], [1e30]))
        XCTAssertNotNil(TolerantCompare.floatMismatch([1e30], [.infinity]))
    }

    /// Every mismatch is counted, a NaN before or after a larger finite error alike, and the
    /// report names the non-finite one.
    func testNaNIsReportedWhereverItIsAndCounted() throws {
        for actual in [[Double.nan, 5, 0], [5, Double.nan, 0], [0, 5, Double.nan]] {
            let expected = [0.0, 0, 0]
            let problem = try XCTUnwrap(TolerantCompare.floatMismatch(actual, expected), "\(actual)")
            XCTAssertTrue(problem.hasPrefix("2 of 3 elements differ"), problem)
            XCTAssertTrue(problem.contains("got nan"), problem)
        }
    }

    func testWithinTheAllowanceMatchesAndJustOutsideDoesNot() {
        let expected = [0.0, 10, -4]
        let allowance = TolerantCompare.floatAllowance(expected)
        XCTAssertEqual(allowance, 2e-3 * 10)
        XCTAssertNil(TolerantCompare.floatMismatch([allowance, 10, -4], expected))
        XCTAssertNotNil(TolerantCompare.floatMismatch([allowance * 1.01, 10, -4], expected))
        XCTAssertEqual(TolerantCompare.floatAllowance([.nan, .infinity, 0.5]), 2e-3, "non-finite values do not widen it")
    }
}
