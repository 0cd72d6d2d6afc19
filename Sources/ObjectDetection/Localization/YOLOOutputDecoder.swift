import TFLiteKernels

/// Decodes the single raw output of YOLOv8-style exports: `[1, 4 + classes, candidates]`
/// (or transposed `[1, candidates, 4 + classes]`) with centre x, centre y, width, height and
/// one score per class. Box values may be normalized or in input pixels; pass `inputSize` to
/// normalize pixel values (values > 2 are taken as pixels).
public struct YOLOOutputDecoder: Sendable {
    /// Minimum best-class score.
    public var scoreThreshold: Float
    /// IoU above which a lower-scored box of the same class is suppressed.
    public var iouThreshold: Float
    /// Maximum detections returned.
    public var maxDetections: Int

    /// Creates a decoder.
    public init(scoreThreshold: Float = 0.25, iouThreshold: Float = 0.45, maxDetections: Int = 100) {
        self.scoreThreshold = scoreThreshold; self.iouThreshold = iouThreshold; self.maxDetections = maxDetections
    }

    /// Decodes `values` of `shape` into class-aware, NMS-filtered candidates with rects
    /// normalized to the model input (`inputWidth` × `inputHeight`).
    public func decode(values: [Float], shape: [Int], inputWidth: Int, inputHeight: Int) throws -> [DetectionCandidate] {
        let dims = shape.filter { $0 != 1 }
        guard dims.count == 2, values.count == dims[0] * dims[1] else {
            throw ObjectDetectionError.unsupportedModel("YOLO output shape \(shape) is not [1, 4+classes, N]")
        }
        // The smaller dimension holds 4 + classes.
        let attributesFirst = dims[0] < dims[1]
        let attributes = attributesFirst ? dims[0] : dims[1]
        let count = attributesFirst ? dims[1] : dims[0]
        guard attributes > 4 else {
            throw ObjectDetectionError.unsupportedModel("YOLO output has no class scores (shape \(shape))")
        }
        @inline(__always) func value(_ a: Int, _ i: Int) -> Float {
            attributesFirst ? values[a * count + i] : values[i * attributes + a]
        }
        var pixelUnits = false
        for i in 0..<count where value(2, i) > 2 || value(3, i) > 2 { pixelUnits = true; break }
        let sx: Double = pixelUnits ? Double(inputWidth) : 1, sy: Double = pixelUnits ? Double(inputHeight) : 1
        var candidates: [DetectionCandidate] = []
        for i in 0..<count {
            var best: Float = -.infinity, bestClass = 0
            for c in 4..<attributes where value(c, i) > best { best = value(c, i); bestClass = c - 4 }
            guard best >= scoreThreshold else { continue }
            let cx = Double(value(0, i)) / sx, cy = Double(value(1, i)) / sy
            let w = Double(value(2, i)) / sx, h = Double(value(3, i)) / sy
            candidates.append(DetectionCandidate(rect: ImageRect(x: cx - w / 2, y: cy - h / 2, width: w, height: h),
                                                 score: best, classIndex: bestClass))
        }
        let boxes = candidates.map {
            ScoredBox(minX: Float($0.rect.x), minY: Float($0.rect.y), maxX: Float($0.rect.maxX), maxY: Float($0.rect.maxY),
                      score: $0.score, classIndex: $0.classIndex ?? 0)
        }
        return BoxNonMaxSuppression.hard(boxes, iouThreshold: iouThreshold, maxOutputs: maxDetections, classAware: true)
            .map { candidates[$0] }
    }
}
