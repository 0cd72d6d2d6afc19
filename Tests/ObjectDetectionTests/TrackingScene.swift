import Foundation
import ImageCodecs
import ObjectTracking
@testable import ObjectDetection
import TestSupport
import XCTest

/// A rendered video with ground truth for the product-path tracking benchmark: cut-outs of the
/// sample photos' subjects (sprites) move over a wide background made from a sample photo,
/// seen through a 640×480 camera window that can pan. Nearer sprites hide farther ones, so
/// occlusions are real pixels, not simulated misses; the detector under test sees only the frames.
///
/// Ground truth per frame and object: the bounding box of its visible pixels when at least half
/// of the sprite is visible; an *ignored* box (neither required nor a false positive, as
/// MOTChallenge's low-visibility boxes) when less is visible; nothing when none is.
/// The sprites wobble by a seeded random walk of about a pixel, so the benchmark is seeded and
/// deterministic.
struct TrackingScene {
    /// A subject of the sample photos: the photo and the subject's box in it (the box YOLOv8n
    /// reports on the whole photo, so the cut-out is what a detector calls the object).
    struct Subject {
        let photo: String
        let box: (x: Int, y: Int, width: Int, height: Int)
    }

    static let astronaut = Subject(photo: "astronaut", box: (7, 20, 357, 490))
    static let cameraman = Subject(photo: "camera", box: (0, 65, 292, 445))
    static let cat = Subject(photo: "chelsea", box: (4, 0, 437, 284))
    static let cup = Subject(photo: "coffee", box: (171, 17, 251, 308))
    static let motorcycle = Subject(photo: "motorcycle", box: (109, 70, 573, 369))

    /// One moving object: its subject, where it is (keyframes of the world-space box's top-left
    /// corner and width; the height follows the subject's aspect ratio), and its depth.
    struct Actor {
        let subject: Subject
        let keyframes: [(frame: Int, x: Double, y: Double, width: Double)]
        /// Frames in which the object is off stage (not drawn: it left the scene).
        var offStage: ClosedRange<Int>? = nil
        /// Larger is nearer the camera.
        var depth = 0
    }

    let name: String
    let frameCount: Int
    let framesPerSecond: Double
    let actors: [Actor]
    /// Keyframes of the camera window's left edge in world coordinates (a pan).
    var camera: [(frame: Int, x: Double)] = [(0, 0)]
    var seed: UInt64 = 1

    static let width = 640, height = 480

    /// One rendered frame.
    struct Frame {
        let image: RGBImage
        let timestamp: Double
        let truth: [IdentifiedBox]
        let ignored: [BoundingBox]
    }

    /// Linear interpolation between keyframes (held before the first and after the last).
    static func interpolate(_ keys: [(frame: Int, values: [Double])], at frame: Int) -> [Double] {
        guard let first = keys.first else { return [] }
        if frame <= first.frame { return first.values }
        for (a, b) in zip(keys, keys.dropFirst()) where frame <= b.frame {
            let t = Double(frame - a.frame) / Double(max(1, b.frame - a.frame))
            return zip(a.values, b.values).map { $0 + ($1 - $0) * t }
        }
        return keys.last!.values
    }

    /// Renders every frame.
    func render(with assets: TrackingSceneAssets) throws -> [Frame] {
        var rng = SeededGenerator(seed: seed)
        var wobble = [(x: Double, y: Double)](repeating: (0, 0), count: actors.count)
        let w = Self.width, h = Self.height
        return try (0..<frameCount).map { f in
            let cameraX = Self.interpolate(camera.map { ($0.frame, [$0.x]) }, at: f)[0]
            var pixels = [UInt8](repeating: 0, count: w * h * 3)
            let background = assets.background
            let left = Int(cameraX.rounded())
            for y in 0..<h {
                for x in 0..<w {
                    let bx = min(background.width - 1, max(0, x + left)), by = min(background.height - 1, y)
                    let s = (by * background.width + bx) * 3, d = (y * w + x) * 3
                    pixels[d] = background.pixels[s]; pixels[d + 1] = background.pixels[s + 1]; pixels[d + 2] = background.pixels[s + 2]
                }
            }
            var owner = [Int](repeating: -1, count: w * h)
            var boxes = [BoundingBox?](repeating: nil, count: actors.count)
            for (i, actor) in actors.enumerated() {
                wobble[i].x = 0.8 * wobble[i].x + rng.gaussian()
                wobble[i].y = 0.8 * wobble[i].y + rng.gaussian()
                if actor.offStage?.contains(f) ?? false { continue }
                let v = Self.interpolate(actor.keyframes.map { ($0.frame, [$0.x, $0.y, $0.width]) }, at: f)
                let sprite = try assets.sprite(actor.subject)
                let height = v[2] * Double(sprite.height) / Double(sprite.width)
                boxes[i] = BoundingBox(x: (v[0] - cameraX + wobble[i].x).rounded(), y: (v[1] + wobble[i].y).rounded(),
                                       width: v[2].rounded(), height: height.rounded())
            }
            for i in actors.indices.sorted(by: { actors[$0].depth < actors[$1].depth }) {
                guard let box = boxes[i] else { continue }
                Self.draw(try assets.sprite(actors[i].subject), into: &pixels, owner: &owner, index: i, box: box)
            }
            var truth: [IdentifiedBox] = [], ignored: [BoundingBox] = []
            let bounds = Self.visibleBounds(count: actors.count, owner: owner)
            for (i, box) in boxes.enumerated() {
                guard let box, let visible = bounds[i] else { continue }
                let fraction = Double(visible.count) / box.area
                if fraction >= 0.5 { truth.append(IdentifiedBox(id: i + 1, box: visible.box)) } else { ignored.append(visible.box) }
            }
            return Frame(image: try RGBImage(width: w, height: h, pixels: pixels),
                         timestamp: Double(f) / framesPerSecond, truth: truth, ignored: ignored)
        }
    }

    /// Draws `sprite` scaled into `box` (each pixel the mean of the sprite pixels it covers, as a
    /// camera integrates light), clipped to the frame, claiming its pixels.
    static func draw(_ sprite: RGBImage, into pixels: inout [UInt8], owner: inout [Int], index: Int, box: BoundingBox) {
        let x0 = max(0, Int(box.x)), y0 = max(0, Int(box.y))
        let x1 = min(width, Int(box.maxX)), y1 = min(height, Int(box.maxY))
        guard x1 > x0, y1 > y0 else { return }
        let sx = Double(sprite.width) / box.width, sy = Double(sprite.height) / box.height
        func span(_ p: Int, _ origin: Double, _ scale: Double, _ limit: Int) -> Range<Int> {
            let a = min(limit - 1, max(0, Int(((Double(p) - origin) * scale).rounded(.down))))
            let b = min(limit, max(a + 1, Int(((Double(p + 1) - origin) * scale).rounded(.up))))
            return a..<b
        }
        for y in y0..<y1 {
            let rows = span(y, box.y, sy, sprite.height)
            for x in x0..<x1 {
                let columns = span(x, box.x, sx, sprite.width)
                var r = 0, g = 0, b = 0
                for sy in rows {
                    for sx in columns {
                        let s = (sy * sprite.width + sx) * 3
                        r += Int(sprite.pixels[s]); g += Int(sprite.pixels[s + 1]); b += Int(sprite.pixels[s + 2])
                    }
                }
                let n = rows.count * columns.count, d = (y * width + x) * 3
                pixels[d] = UInt8(r / n); pixels[d + 1] = UInt8(g / n); pixels[d + 2] = UInt8(b / n)
                owner[y * width + x] = index
            }
        }
    }

    /// Per object: the bounding box of the pixels it owns and their count (nil when it owns none).
    static func visibleBounds(count objects: Int, owner: [Int]) -> [(box: BoundingBox, count: Int)?] {
        var minX = [Int](repeating: width, count: objects), minY = [Int](repeating: height, count: objects)
        var maxX = [Int](repeating: -1, count: objects), maxY = [Int](repeating: -1, count: objects)
        var count = [Int](repeating: 0, count: objects)
        for y in 0..<height {
            for x in 0..<width {
                let i = owner[y * width + x]
                guard i >= 0 else { continue }
                minX[i] = min(minX[i], x); maxX[i] = max(maxX[i], x); minY[i] = min(minY[i], y); maxY[i] = max(maxY[i], y)
                count[i] += 1
            }
        }
        return (0..<objects).map { i in
            count[i] == 0 ? nil : (BoundingBox(x: Double(minX[i]), y: Double(minY[i]), width: Double(maxX[i] - minX[i] + 1),
                                               height: Double(maxY[i] - minY[i] + 1)), count[i])
        }
    }
}

/// The photos cut into sprites, and the background, loaded once.
final class TrackingSceneAssets {
    let background: RGBImage
    private var sprites: [String: RGBImage] = [:]

    /// Loads the background: `rocket.png` (a launch site at dusk, towers against the sky)
    /// stretched to 1600×480 so the camera can pan.
    init() throws {
        let photo = try Self.photo("rocket")
        background = Self.resample(photo, x: 0, y: 0, width: photo.width, height: photo.height, toWidth: 1600, toHeight: 480)
    }

    func sprite(_ subject: TrackingScene.Subject) throws -> RGBImage {
        let key = "\(subject.photo)-\(subject.box)"
        if let cached = sprites[key] { return cached }
        let photo = try Self.photo(subject.photo)
        let b = subject.box
        let sprite = Self.resample(photo, x: b.x, y: b.y, width: b.width, height: b.height, toWidth: b.width, toHeight: b.height)
        sprites[key] = sprite
        return sprite
    }

    static func photo(_ name: String) throws -> RGBImage {
        let path = TestPaths.imagesDirectory.appendingPathComponent(name + ".png").path
        guard FileManager.default.fileExists(atPath: path) else { throw TestEnvironment.missing("\(path) absent: run Scripts/fetch-models.sh") }
        return try VisionImage(pngFile: path).uprightRGB()
    }

    /// The rectangle `(x, y, width, height)` of `image` (clipped) scaled to `toWidth × toHeight` (nearest neighbour).
    static func resample(_ image: RGBImage, x: Int, y: Int, width: Int, height: Int, toWidth: Int, toHeight: Int) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: toWidth * toHeight * 3)
        for ty in 0..<toHeight {
            let sy = min(image.height - 1, max(0, y + ty * height / toHeight))
            for tx in 0..<toWidth {
                let sx = min(image.width - 1, max(0, x + tx * width / toWidth))
                let s = (sy * image.width + sx) * 3, d = (ty * toWidth + tx) * 3
                pixels[d] = image.pixels[s]; pixels[d + 1] = image.pixels[s + 1]; pixels[d + 2] = image.pixels[s + 2]
            }
        }
        return try! RGBImage(width: toWidth, height: toHeight, pixels: pixels)
    }
}

