import Foundation

/// A box proposed by a localizer, before tracking and classification.
public struct DetectionCandidate: Sendable, Equatable {
    /// The box in the localizer's frame: normalized [0, 1] coordinates of the model input
    /// until mapped, then upright-image pixels.
    public var rect: CGRect
    /// Detection score in [0, 1] (prominence for class-agnostic localizers).
    public var score: Float
    /// Class index in the localizer's label list, when the localizer classifies.
    public var classIndex: Int?

    /// Creates a candidate.
    public init(rect: CGRect, score: Float, classIndex: Int? = nil) {
        self.rect = rect; self.score = score; self.classIndex = classIndex
    }
}

extension CGRect {
    /// Intersection over union with `other`; 0 when either is empty.
    func intersectionOverUnion(_ other: CGRect) -> Float {
        let inter = intersection(other)
        guard !inter.isNull, inter.width > 0, inter.height > 0 else { return 0 }
        let i = inter.width * inter.height
        let u = width * height + other.width * other.height - i
        return u > 0 ? Float(i / u) : 0
    }
}
