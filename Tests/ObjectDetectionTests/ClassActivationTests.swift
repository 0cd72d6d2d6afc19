import Foundation
@testable import ObjectDetection
import TestSupport
import XCTest

/// The activation-map pieces of the default localizer: the maps agree with the classifier's
/// own output, and hot regions become the expected boxes.
final class ClassActivationTests: XCTestCase {
    /// The mean of class c's map over the cells is c's logit (the head averages, then applies
    /// the fully-connected layer), so the softmax of the mean maps reproduces the model's
    /// probabilities up to the quantization of its logits and softmax.
    func testMeanMapsReproduceTheClassifiersProbabilities() throws {
        let model = try ClassActivationModel(modelPath: TestPaths.model(DefaultModels.classifierFileName), threadCount: 1)
        XCTAssertEqual([model.classCount, model.channelCount], [1000, 1280])
        let path = TestPaths.imagesDirectory.appendingPathComponent("chelsea.png").path
        guard FileManager.default.fileExists(atPath: path) else { throw TestEnvironment.missing("\(path) absent: run Scripts/fetch-models.sh") }
        let run = try model.run(try VisionImage(pngFile: path).uprightRGB())
        XCTAssertEqual([run.width, run.height], [7, 7])
        let logits = (0..<model.classCount).map { c in
            model.map(run, classes: [c], weights: [1]).reduce(0, +) / Float(run.width * run.height)
        }
        let top = logits.max()!
        let exps = logits.map { exp($0 - top) }, sum = exps.reduce(0, +)
        let probabilities = exps.map { $0 / sum }
        // NaN-aware: a NaN probability on either side fails (a `.max()` of differences would skip it).
        XCTAssertNil(TolerantCompare.mismatch(probabilities.map(Double.init), run.probabilities.map(Double.init)) { _ in 0.05 })
        XCTAssertEqual(probabilities.indices.max { probabilities[$0] < probabilities[$1] },
                       run.probabilities.indices.max { run.probabilities[$0] < run.probabilities[$1] })
    }

    /// A hot 2×2 block of cells gives a box around those cells; a lower threshold a larger box
    /// around the same peak; a flat map no region.
    func testHotCellsBecomeABoxAroundThePeak() throws {
        var map = [Float](repeating: 0, count: 49)
        for (x, y) in [(4, 1), (5, 1), (4, 2), (5, 2)] { map[y * 7 + x] = 10 }
        map[6 * 7 + 0] = 4   // a weaker, separate spot: not connected at 0.5
        let region = try XCTUnwrap(ActivationRegion(map: map, width: 7, height: 7, threshold: 0.5, resolution: 70))
        // Values sit at cell centres, so the half-height contour between a hot cell and a cold
        // neighbour lies on their shared edge: the box is cells 4...5 × 1...2.
        XCTAssertEqual(region.rect.x, 4.0 / 7, accuracy: 0.02)
        XCTAssertEqual(region.rect.maxX, 6.0 / 7, accuracy: 0.02)
        XCTAssertEqual(region.rect.y, 1.0 / 7, accuracy: 0.02)
        XCTAssertEqual(region.rect.maxY, 3.0 / 7, accuracy: 0.02)
        XCTAssertEqual(region.peak, 10)
        let loose = try XCTUnwrap(ActivationRegion(map: map, width: 7, height: 7, threshold: 0.1, resolution: 70))
        XCTAssertLessThan(loose.rect.x, region.rect.x)
        XCTAssertGreaterThan(loose.rect.area, region.rect.area)
        XCTAssertLessThan(loose.rect.maxY, 0.8, "the weak spot at the bottom-left stays apart")
        XCTAssertNil(ActivationRegion(map: [Float](repeating: 3, count: 49), width: 7, height: 7, threshold: 0.5))
    }
}
