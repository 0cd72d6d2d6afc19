import Foundation

/// The JSON form of one ``DetectedObject``, as `litevision detect --json` and `track --json`
/// print it (a contract: keys and rounding do not change):
///
///     {"frame":{"height":80.5,"width":64,"x":12.3,"y":40},"labels":[{"confidence":0.8731,"index":3,"text":"Food"}],"trackingID":null}
///
/// The box is rounded to 0.1 pixel and each confidence to 4 decimals when the record is made;
/// `trackingID` and a label's `text` are written as `null` when absent, never left out.
/// Encode with ``DetectionJSON/line(_:)`` for the command line's exact bytes.
public struct DetectedObjectRecord: Codable, Sendable, Equatable {
    /// The object's box in upright image pixels, rounded to 0.1.
    public struct Frame: Codable, Sendable, Equatable {
        /// Left edge.
        public var x: Double
        /// Top edge.
        public var y: Double
        /// Width.
        public var width: Double
        /// Height.
        public var height: Double

        /// Creates a box.
        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x; self.y = y; self.width = width; self.height = height
        }
    }

    /// One label: ``ObjectLabel`` with the confidence rounded to 4 decimals.
    public struct Label: Codable, Sendable, Equatable {
        /// Label text; `null` in JSON when the model has no label names.
        public var text: String?
        /// Position in the model's label list.
        public var index: Int
        /// Confidence in [0, 1], rounded to 4 decimals.
        public var confidence: Float

        /// Creates a label (the confidence is stored as given).
        public init(text: String?, index: Int, confidence: Float) {
            self.text = text; self.index = index; self.confidence = confidence
        }

        /// The record of `label`, its confidence rounded to 4 decimals.
        public init(_ label: ObjectLabel) {
            self.init(text: label.text, index: label.index, confidence: (label.confidence * 10000).rounded() / 10000)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(text, forKey: .text)   // null when the model has no label names
            try container.encode(index, forKey: .index)
            try container.encode(confidence, forKey: .confidence)
        }
        enum CodingKeys: String, CodingKey { case text, index, confidence }
    }

    /// The box.
    public var frame: Frame
    /// The tracking ID; `null` in JSON in single-image mode.
    public var trackingID: Int?
    /// Labels, best first.
    public var labels: [Label]

    /// Creates a record from its parts (stored as given).
    public init(frame: Frame, trackingID: Int?, labels: [Label]) {
        self.frame = frame; self.trackingID = trackingID; self.labels = labels
    }

    /// The record of `object`: box rounded to 0.1 pixel, confidences to 4 decimals.
    public init(_ object: DetectedObject) {
        func rounded(_ value: CGFloat) -> Double { (Double(value) * 10).rounded() / 10 }
        let box = object.frame
        self.init(frame: Frame(x: rounded(box.minX), y: rounded(box.minY), width: rounded(box.width), height: rounded(box.height)),
                  trackingID: object.trackingID, labels: object.labels.map(Label.init))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(frame, forKey: .frame)
        try container.encode(trackingID, forKey: .trackingID)   // null in single-image mode
        try container.encode(labels, forKey: .labels)
    }
    enum CodingKeys: String, CodingKey { case frame, trackingID, labels }
}
