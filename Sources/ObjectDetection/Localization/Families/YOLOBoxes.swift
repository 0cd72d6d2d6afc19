import TFLiteKernels

/// What the YOLO families share: Ultralytics' letterbox, box units and class-aware NMS.
enum YOLOBoxes {
    /// Letterbox with gray 114 padding, as Ultralytics pre-processes.
    static let letterbox = ResizeMode.letterbox(fill: RGBColor(red: 114, green: 114, blue: 114))

    /// Divisors that normalize box values: the input size when any box extent exceeds 2 (the
    /// export left boxes in input pixels), else 1 (already normalized).
    static func unitDivisors(extents: some Sequence<Float>, model: DetectorModelInfo) -> (x: Double, y: Double) {
        for value in extents where value > 2 { return (Double(model.inputWidth), Double(model.inputHeight)) }
        return (1, 1)
    }

    /// Class-aware hard NMS, best first, at most `maxCount`.
    static func suppress(_ candidates: [DetectionCandidate], iouThreshold: Float, maxCount: Int) -> [DetectionCandidate] {
        let boxes = candidates.map {
            ScoredBox(minX: Float($0.rect.x), minY: Float($0.rect.y), maxX: Float($0.rect.maxX), maxY: Float($0.rect.maxY),
                      score: $0.score, classIndex: $0.classIndex ?? 0)
        }
        return BoxNonMaxSuppression.hard(boxes, iouThreshold: iouThreshold, maxOutputs: maxCount, classAware: true)
            .map { candidates[$0] }
    }

    /// The single output's two non-batch dimensions, when the model has one `[1, a, b]` output.
    static func singleOutputDims(_ model: DetectorModelInfo) -> (Int, Int)? {
        guard model.outputShapes.count == 1, model.outputShapes[0].count == 3, model.outputShapes[0][0] == 1 else { return nil }
        return (model.outputShapes[0][1], model.outputShapes[0][2])
    }
}
