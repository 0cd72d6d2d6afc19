import Foundation
import ObjectTracking
import TestSupport

/// A synthetic video with ground truth: objects (the sample photos' subjects) move along
/// piecewise-linear paths over a 640x480 frame; a simulated detector sees them with seeded
/// box noise, missed detections, occlusion misses where objects overlap, and false positives.
struct TrackingScenario {
    /// One ground-truth object.
    struct Object {
        /// Index into ``PhotoCropAppearances/objects``.
        let appearance: Int
        /// (frame, box) keyframes; the box is interpolated linearly between them.
        let keyframes: [(frame: Int, box: BoundingBox)]
        /// Frames where the object is in view (in the ground truth).
        let visible: ClosedRange<Int>
        /// Frames inside `visible` where it is out of view (left the frame).
        var hidden: ClosedRange<Int>? = nil
        /// Larger is nearer the camera: the farther of two overlapping objects is occluded.
        var depth: Int = 0
    }

    let name: String
    let frameCount: Int
    let framesPerSecond: Double = 30
    let objects: [Object]
    /// Probability that a visible object is not detected.
    var missRate = 0.08
    /// Box noise standard deviation as a fraction of the box size.
    var boxNoise = 0.04
    /// Expected false positives per frame.
    var falsePositivesPerFrame = 0.3
    /// IoU above which the farther object is occluded (missed with probability `occlusionMissRate`).
    var occlusionIoU = 0.25
    var occlusionMissRate = 0.7

    /// One frame's ground truth and detections.
    struct Frame {
        let timestamp: Double
        let truth: [IdentifiedBox]
        let detections: [TrackerDetection]
    }

    static func interpolate(_ keyframes: [(frame: Int, box: BoundingBox)], at frame: Int) -> BoundingBox {
        guard let first = keyframes.first else { return BoundingBox(x: 0, y: 0, width: 0, height: 0) }
        if frame <= first.frame { return first.box }
        for (a, b) in zip(keyframes, keyframes.dropFirst()) where frame <= b.frame {
            let t = Double(frame - a.frame) / Double(max(1, b.frame - a.frame))
            func mix(_ p: Double, _ q: Double) -> Double { p + (q - p) * t }
            return BoundingBox(x: mix(a.box.x, b.box.x), y: mix(a.box.y, b.box.y),
                               width: mix(a.box.width, b.box.width), height: mix(a.box.height, b.box.height))
        }
        return keyframes.last!.box
    }

    func simulate(appearances: PhotoCropAppearances?, seed: UInt64) -> [Frame] {
        var rng = SeededGenerator(seed: seed)
        return (0..<frameCount).map { f in
            var inView: [(id: Int, object: Object, box: BoundingBox)] = []
            for (id, object) in objects.enumerated() where object.visible.contains(f) && !(object.hidden?.contains(f) ?? false) {
                inView.append((id + 1, object, Self.interpolate(object.keyframes, at: f)))
            }
            var detections: [TrackerDetection] = []
            for entry in inView {
                let occluded = inView.contains { other in
                    other.id != entry.id && other.object.depth > entry.object.depth
                        && other.box.intersectionOverUnion(entry.box) > occlusionIoU
                }
                let miss = occluded ? occlusionMissRate : missRate
                if Double.random(in: 0..<1, using: &rng) < miss { continue }
                let b = entry.box
                let noisy = BoundingBox(centerX: b.centerX + boxNoise * b.width * rng.gaussian(),
                                        centerY: b.centerY + boxNoise * b.height * rng.gaussian(),
                                        width: b.width * (1 + boxNoise * rng.gaussian()),
                                        height: b.height * (1 + boxNoise * rng.gaussian()))
                let appearance = appearances.map { a in
                    let crops = a.objects[entry.object.appearance].crops
                    return crops[Int.random(in: 0..<crops.count, using: &rng)]
                }
                detections.append(TrackerDetection(box: noisy, score: Double.random(in: 0.5..<1, using: &rng), appearance: appearance))
            }
            // False positives: Bernoulli draws that add up to the expected rate.
            var remaining = falsePositivesPerFrame
            while remaining > 0 {
                if Double.random(in: 0..<1, using: &rng) < min(1, remaining) {
                    let w = Double.random(in: 30..<120, using: &rng), h = Double.random(in: 30..<120, using: &rng)
                    let box = BoundingBox(x: Double.random(in: 0..<(640 - w), using: &rng),
                                          y: Double.random(in: 0..<(480 - h), using: &rng), width: w, height: h)
                    let appearance = appearances.map { $0.background[Int.random(in: 0..<$0.background.count, using: &rng)] }
                    detections.append(TrackerDetection(box: box, score: Double.random(in: 0.3..<0.7, using: &rng),
                                                       appearance: appearance))
                }
                remaining -= 1
            }
            // Detectors report in no particular order.
            detections.shuffle(using: &rng)
            return Frame(timestamp: Double(f) / framesPerSecond,
                         truth: inView.map { IdentifiedBox(id: $0.id, box: $0.box) },
                         detections: detections)
        }
    }
}

extension TrackingScenario {
    private static func box(_ cx: Double, _ cy: Double, _ w: Double, _ h: Double) -> BoundingBox {
        BoundingBox(centerX: cx, centerY: cy, width: w, height: h)
    }

    /// The cat walks across the frame and comes closer (grows 1.8x).
    static let movingWithScaleChange = TrackingScenario(
        name: "moving+scale", frameCount: 90,
        objects: [Object(appearance: 2, keyframes: [(0, box(90, 240, 90, 84)), (89, box(520, 260, 162, 151))], visible: 0...89)])

    /// The astronaut walks right while the motorcycle rides left on the same line: they cross
    /// (the astronaut passes behind); the cup stands still.
    static let crossing = TrackingScenario(
        name: "crossing", frameCount: 90,
        objects: [
            Object(appearance: 0, keyframes: [(0, box(80, 250, 90, 140)), (89, box(560, 240, 90, 140))], visible: 0...89, depth: 0),
            Object(appearance: 4, keyframes: [(0, box(570, 270, 150, 90)), (89, box(70, 260, 150, 90))], visible: 0...89, depth: 1),
            Object(appearance: 3, keyframes: [(0, box(320, 90, 70, 80)), (89, box(330, 95, 70, 80))], visible: 0...89),
        ])

    /// The rocket flies out of the right edge, stays out for 14 frames and comes back lower
    /// and smaller from the same edge, while the cameraman walks around.
    static let leavingAndReentering = TrackingScenario(
        name: "leave+re-enter", frameCount: 100,
        objects: [
            Object(appearance: 5, keyframes: [(0, box(300, 200, 40, 160)), (40, box(610, 180, 40, 160)),
                                              (55, box(610, 300, 36, 140)), (99, box(380, 300, 36, 140))],
                   visible: 0...99, hidden: 41...54),
            Object(appearance: 1, keyframes: [(0, box(120, 300, 110, 160)), (50, box(200, 320, 110, 160)),
                                              (99, box(130, 300, 110, 160))], visible: 0...99),
        ])

    /// Five objects wander, meet and overlap; more noise, misses and false positives.
    static let crowd = TrackingScenario(
        name: "crowd", frameCount: 120,
        objects: [
            Object(appearance: 0, keyframes: [(0, box(100, 120, 80, 120)), (60, box(400, 300, 80, 120)), (119, box(150, 380, 80, 120))],
                   visible: 0...119, depth: 1),
            Object(appearance: 2, keyframes: [(0, box(550, 100, 100, 90)), (60, box(300, 260, 120, 110)), (119, box(560, 400, 100, 90))],
                   visible: 0...119, depth: 2),
            Object(appearance: 3, keyframes: [(0, box(320, 400, 70, 80)), (119, box(330, 60, 70, 80))], visible: 0...119, depth: 0),
            Object(appearance: 4, keyframes: [(0, box(80, 420, 150, 90)), (119, box(560, 200, 150, 90))], visible: 10...119, depth: 3),
            Object(appearance: 5, keyframes: [(0, box(600, 300, 40, 150)), (119, box(40, 200, 40, 150))], visible: 0...105, depth: 4),
        ],
        missRate: 0.12, boxNoise: 0.05, falsePositivesPerFrame: 0.6)

    static let all = [movingWithScaleChange, crossing, leavingAndReentering, crowd]
}
