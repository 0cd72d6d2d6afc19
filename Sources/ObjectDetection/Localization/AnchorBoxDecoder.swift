import Foundation

/// Decodes raw SSD regressions against anchors, as MediaPipe's `TensorsToDetectionsCalculator`
/// does for BlazeFace-style models (`[1, N, coords]` boxes and `[1, N, 1]` logits).
public struct AnchorBoxDecoder: Sendable {
    /// Anchors, one per candidate.
    public var anchors: [SSDAnchor]
    /// Divisors of the raw x, y, w, h values (the input size for BlazeFace).
    public var xScale: Double, yScale: Double, wScale: Double, hScale: Double
    /// Logits are clipped to ±this before the sigmoid.
    public var scoreClipping: Float = 100
    /// Minimum score after the sigmoid.
    public var minScore: Float

    /// Creates a decoder for `options`' anchors with the input size as scale.
    public init(options: SSDAnchorOptions, minScore: Float = 0.5) {
        anchors = options.anchors()
        xScale = Double(options.inputWidth); yScale = Double(options.inputHeight)
        wScale = xScale; hScale = yScale
        self.minScore = minScore
    }

    /// Decodes `boxes` (`anchors.count × coordsPerBox`, x, y, w, h first) and `logits`
    /// (`anchors.count`) into candidates with normalized rects, best score first.
    /// Throws when the sizes do not match the anchors.
    public func decode(boxes: [Float], coordsPerBox: Int, logits: [Float]) throws -> [DetectionCandidate] {
        let n = anchors.count
        guard coordsPerBox >= 4, boxes.count == n * coordsPerBox, logits.count == n else {
            throw ObjectDetectionError.unsupportedModel(
                "raw SSD outputs have \(boxes.count) box values and \(logits.count) scores; expected \(n) anchors")
        }
        var result: [DetectionCandidate] = []
        for i in 0..<n {
            let logit = min(max(logits[i], -scoreClipping), scoreClipping)
            let score = 1 / (1 + exp(-logit))
            guard score >= minScore else { continue }
            let a = anchors[i], b = i * coordsPerBox
            let cx = Double(boxes[b]) / xScale * a.width + a.centerX
            let cy = Double(boxes[b + 1]) / yScale * a.height + a.centerY
            let w = Double(boxes[b + 2]) / wScale * a.width
            let h = Double(boxes[b + 3]) / hScale * a.height
            result.append(DetectionCandidate(rect: ImageRect(x: cx - w / 2, y: cy - h / 2, width: w, height: h),
                                             score: score))
        }
        return result.sorted { $0.score > $1.score }
    }
}

/// MediaPipe's weighted non-maximum suppression: each kept box is the score-weighted mean of
/// the boxes it suppresses (steadier boxes than hard NMS for faces).
public func weightedNonMaxSuppression(_ candidates: [DetectionCandidate], iouThreshold: Float,
                                      maxCount: Int) -> [DetectionCandidate] {
    var remaining = candidates.sorted { $0.score > $1.score }
    var kept: [DetectionCandidate] = []
    while let best = remaining.first, kept.count < maxCount {
        var cluster: [DetectionCandidate] = []
        var rest: [DetectionCandidate] = []
        for c in remaining {
            if c.rect.intersectionOverUnion(best.rect) > iouThreshold || c == best { cluster.append(c) } else { rest.append(c) }
        }
        let total = cluster.reduce(0) { $0 + Double($1.score) }
        var x = 0.0, y = 0.0, maxX = 0.0, maxY = 0.0
        for c in cluster {
            let w = Double(c.score) / total
            x += c.rect.x * w; y += c.rect.y * w; maxX += c.rect.maxX * w; maxY += c.rect.maxY * w
        }
        kept.append(DetectionCandidate(rect: ImageRect(x: x, y: y, width: maxX - x, height: maxY - y),
                                       score: best.score, classIndex: best.classIndex))
        remaining = rest
    }
    return kept
}
