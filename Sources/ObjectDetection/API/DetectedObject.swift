import Foundation

/// One label of a detected object.
public struct ObjectLabel: Sendable, Equatable, Codable {
    /// Label text; nil when the model carries no label names.
    public var text: String?
    /// Position in the classifier's label list.
    public var index: Int
    /// Confidence in [0, 1].
    public var confidence: Float

    /// Creates a label.
    public init(text: String?, index: Int, confidence: Float) {
        self.text = text; self.index = index; self.confidence = confidence
    }
}

/// An object found in an image.
public struct DetectedObject: Sendable, Equatable {
    /// The object's box in the upright image's pixel coordinates.
    public var frame: CGRect
    /// Stable ID across consecutive frames in stream mode; nil in single-image mode.
    public var trackingID: Int?
    /// Labels, best first; empty when classification is off.
    public var labels: [ObjectLabel]

    /// Creates a detected object.
    public init(frame: CGRect, trackingID: Int?, labels: [ObjectLabel]) {
        self.frame = frame; self.trackingID = trackingID; self.labels = labels
    }

    /// The older API's single coarse category (`.unknown` when unlabelled or not a coarse label).
    public var classificationCategory: CoarseCategory {
        labels.first.flatMap { $0.text }.map(CoarseCategory.init(labelText:)) ?? .unknown
    }

    /// The older API's confidence: nil when the category is unknown or classification is off.
    public var confidence: Float? {
        classificationCategory == .unknown ? nil : labels.first?.confidence
    }
}
