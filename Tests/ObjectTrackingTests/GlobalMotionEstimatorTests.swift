import Foundation
import TestSupport
import XCTest
import ObjectTracking

/// The camera-motion estimate on synthetic frames with known shifts.
final class GlobalMotionEstimatorTests: XCTestCase {
    /// A smooth random texture (sums of seeded sinusoids), RGB, sampled at `(x + dx, y + dy)`.
    private func texture(width: Int = 640, height: Int = 480, dx: Double = 0, dy: Double = 0,
                         block: BoundingBox? = nil) -> [UInt8] {
        var rng = SeededGenerator(seed: 11)
        let waves = (0..<12).map { _ in
            (fx: Double.random(in: -0.06...0.06, using: &rng), fy: Double.random(in: -0.06...0.06, using: &rng),
             phase: Double.random(in: 0..<6.28, using: &rng))
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let u = Double(x) + dx, v = Double(y) + dy
                var value = 0.0
                for w in waves { value += (w.fx * u + w.fy * v + w.phase).sin }
                var level = UInt8(max(0, min(255, 128 + 30 * value)))
                if let block, block.x <= Double(x), Double(x) < block.maxX, block.y <= Double(y), Double(y) < block.maxY { level = 250 }
                let i = (y * width + x) * 3
                pixels[i] = level; pixels[i + 1] = level / 2; pixels[i + 2] = 255 - level
            }
        }
        return pixels
    }

    func testMeasuresAPanToWithinAPixel() throws {
        var estimator = GlobalMotionEstimator()
        XCTAssertNil(estimator.estimate(pixels: texture(), width: 640, height: 480, bytesPerRow: 1920, channels: 3),
                     "no previous frame")
        // The scene point at x + 23 now appears at x: the camera moved right, the image moved left.
        let motion = try XCTUnwrap(estimator.estimate(pixels: texture(dx: 23, dy: -9), width: 640, height: 480,
                                                      bytesPerRow: 1920, channels: 3))
        XCTAssertEqual(motion.tx, -23, accuracy: 1)
        XCTAssertEqual(motion.ty, 9, accuracy: 1)
        let still = try XCTUnwrap(estimator.estimate(pixels: texture(dx: 23, dy: -9), width: 640, height: 480,
                                                     bytesPerRow: 1920, channels: 3))
        XCTAssertEqual(still, .identity, "same frame again: no motion")
    }

    /// A bright object moving across a still background does not pass for camera motion when
    /// its box is left out.
    func testMovingObjectsAreLeftOut() throws {
        var estimator = GlobalMotionEstimator()
        let before = BoundingBox(x: 100, y: 100, width: 200, height: 200), after = BoundingBox(x: 140, y: 100, width: 200, height: 200)
        _ = estimator.estimate(pixels: texture(block: before), width: 640, height: 480, bytesPerRow: 1920, channels: 3,
                               excluding: [before])
        let motion = try XCTUnwrap(estimator.estimate(pixels: texture(block: after), width: 640, height: 480, bytesPerRow: 1920,
                                                      channels: 3, excluding: [after]))
        XCTAssertEqual(motion, .identity)
    }

    func testFlatFramesAndBadGeometryGiveNoMotion() {
        var estimator = GlobalMotionEstimator()
        let flat = [UInt8](repeating: 90, count: 320 * 240)
        _ = estimator.estimate(pixels: flat, width: 320, height: 240, bytesPerRow: 320, channels: 1)
        XCTAssertEqual(estimator.estimate(pixels: flat, width: 320, height: 240, bytesPerRow: 320, channels: 1), .identity)
        XCTAssertNil(estimator.estimate(pixels: flat, width: 320, height: 241, bytesPerRow: 320, channels: 1), "buffer too short")
        XCTAssertNil(estimator.estimate(pixels: flat, width: Int.max, height: 2, bytesPerRow: Int.max, channels: 3))
        XCTAssertNil(estimator.estimate(pixels: flat, width: 4, height: 4, bytesPerRow: 4, channels: 1), "too small for a grid")
    }

    func testCameraMotionMovesBoxesAndScales() {
        let zoom = CameraMotion(a: 2, b: 0, tx: 10, c: 0, d: 2, ty: -5)
        let moved = zoom.apply(to: BoundingBox(x: 0, y: 0, width: 10, height: 20))
        XCTAssertEqual(moved, BoundingBox(centerX: 20, centerY: 15, width: 20, height: 40))
    }
}

private extension Double {
    var sin: Double { Foundation.sin(self) }
}
