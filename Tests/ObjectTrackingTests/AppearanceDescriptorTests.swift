import XCTest
import ObjectTracking

/// Color histograms: bins, stripes, sampling budget and hostile geometry.
final class AppearanceDescriptorTests: XCTestCase {
    /// A 20×20 RGB image: red top half, blue bottom half.
    private let redOverBlue: [UInt8] = (0..<400).flatMap { i -> [UInt8] in i < 200 ? [230, 10, 10] : [10, 10, 230] }
    private let full = BoundingBox(x: 0, y: 0, width: 20, height: 20)

    func testStripesTellRedOverBlueFromBlueOverRed() throws {
        let blueOverRed: [UInt8] = (0..<400).flatMap { i -> [UInt8] in i < 200 ? [10, 10, 230] : [230, 10, 10] }
        func histogram(_ pixels: [UInt8], stripes: Int) throws -> AppearanceDescriptor {
            try XCTUnwrap(AppearanceDescriptor.colorHistogram(pixels: pixels, width: 20, height: 20, bytesPerRow: 60, channels: 3,
                                                              region: full, stripes: stripes))
        }
        XCTAssertEqual(try histogram(redOverBlue, stripes: 1).similarity(to: try histogram(blueOverRed, stripes: 1)), 1, accuracy: 1e-6)
        XCTAssertEqual(try histogram(redOverBlue, stripes: 2).similarity(to: try histogram(blueOverRed, stripes: 2)), 0, accuracy: 1e-6)
        // One stripe: half the pixels in the red bin (3, 0, 0), half in the blue bin (0, 0, 3): √½ each.
        let one = try histogram(redOverBlue, stripes: 1)
        XCTAssertEqual(one.features.count, 64)
        let half = Float(0.5).squareRoot()
        let redBin = 3 * 16, blueBin = 3
        XCTAssertEqual(one.features[redBin], half, accuracy: 1e-6)
        XCTAssertEqual(one.features[blueBin], half, accuracy: 1e-6)
    }

    func testSamplingBudgetKeepsTheHistogramOfAUniformRegion() throws {
        let dense = try XCTUnwrap(AppearanceDescriptor.colorHistogram(pixels: redOverBlue, width: 20, height: 20, bytesPerRow: 60,
                                                                      channels: 3, region: full, stripes: 2))
        let sparse = try XCTUnwrap(AppearanceDescriptor.colorHistogram(pixels: redOverBlue, width: 20, height: 20, bytesPerRow: 60,
                                                                       channels: 3, region: full, stripes: 2,
                                                                       maximumSamplesPerStripe: 16))
        XCTAssertEqual(dense.similarity(to: sparse), 1, accuracy: 1e-6)
    }

    func testHostileGeometryGivesNil() {
        XCTAssertNil(AppearanceDescriptor.colorHistogram(pixels: redOverBlue, width: 20, height: 21, bytesPerRow: 60, channels: 3, region: full))
        XCTAssertNil(AppearanceDescriptor.colorHistogram(pixels: redOverBlue, width: Int.max, height: Int.max, bytesPerRow: Int.max,
                                                         channels: 3, region: full))
        XCTAssertNil(AppearanceDescriptor.colorHistogram(pixels: redOverBlue, width: 20, height: 20, bytesPerRow: 60, channels: 3,
                                                         region: BoundingBox(x: 100, y: 100, width: 5, height: 5)))
        XCTAssertNil(AppearanceDescriptor.colorHistogram(pixels: redOverBlue, width: 20, height: 20, bytesPerRow: 60, channels: 3,
                                                         region: BoundingBox(x: .infinity, y: 0, width: 5, height: 5)))
    }
}
