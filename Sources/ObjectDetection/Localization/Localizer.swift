import TFLiteSchema

/// Finds object boxes in an upright image.
protocol Localizer: AnyObject {
    /// Candidates in upright-image pixel coordinates, best first.
    func localize(_ image: RGBImage) throws -> [DetectionCandidate]
    /// Names of `DetectionCandidate.classIndex` values, when the localizer classifies.
    var labels: LabelList? { get }
}

/// Builds the localizer that fits a detector model, recognised from its outputs:
/// four outputs `[1,N,4]`, `[1,N]`, `[1,N]`, `[1]` (SSD with `TFLite_Detection_PostProcess`,
/// AutoML exports); two outputs `[1,N,≥4]` + `[1,N,1]` (BlazeFace-style raw SSD);
/// one output `[1,4+C,N]` (YOLO); one output `[1,H,W,C]` (segmentation: prominent regions).
/// Returns the localizer and its score threshold (`scoreThreshold`, else the family's default);
/// the localizer itself keeps candidates down to `candidateFraction` × that threshold (stream
/// mode's tracker uses the weaker ones to keep partly hidden objects, see `TrackingFeed`).
func makeLocalizer(modelPath: String, labels: LabelList?, scoreThreshold: Float?, threadCount: Int?,
                   candidateFraction: Float = 1) throws -> (localizer: any Localizer, scoreThreshold: Float) {
    let probe = try ModelRunner(path: modelPath, threadCount: threadCount, floatNormalization: .signedUnitInterval)
    let shapes = try probe.outputShapes()
    // Class names: value labels of the classes output (SSD, EfficientDet), else axis labels.
    let labels = labels ?? probe.file.labels(forOutput: 1, type: .tensorValueLabels)
        ?? probe.file.labels(forOutput: 0) ?? probe.file.labels(forOutput: 1)
    switch shapes.count {
    case 4 where shapes[0].last == 4 && shapes[0].count == 3:
        let t = scoreThreshold ?? 0.5
        return (PostProcessedSSDLocalizer(runner: probe, labels: labels, scoreThreshold: t * candidateFraction), t)
    case 2 where shapes[0].count == 3 && shapes[0][2] >= 4 && shapes[1].count == 3 && shapes[1][2] == 1:
        // BlazeFace models take [-1, 1], the probe's default.
        let t = scoreThreshold ?? 0.5
        return (try AnchorSSDLocalizer(runner: probe, scoreThreshold: t * candidateFraction), t)
    case 1 where shapes[0].count == 3:
        try probe.useDefaultFloatNormalization(.unitInterval)   // Ultralytics exports take [0, 1]
        let t = scoreThreshold ?? 0.25
        return (YOLOLocalizer(runner: probe, labels: labels, scoreThreshold: t * candidateFraction), t)
    case 1 where shapes[0].count == 4 && shapes[0][3] > 1:
        let t = scoreThreshold ?? 0
        return (ProminentRegionLocalizer(runner: probe, scoreThreshold: t * candidateFraction), t)
    default:
        throw ObjectDetectionError.unsupportedModel(
            "\(modelPath): outputs \(shapes) match no known detector layout (SSD post-processed, raw SSD anchors, YOLO, segmentation)")
    }
}
