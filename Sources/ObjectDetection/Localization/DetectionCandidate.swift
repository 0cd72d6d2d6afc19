/// A box proposed by a localizer, before tracking and classification.
public struct DetectionCandidate: Sendable, Equatable {
    /// The box: normalized [0, 1] model-input coordinates while decoding, upright-image
    /// pixels once a localizer returns it.
    public var rect: ImageRect
    /// Detection score in [0, 1] (prominence for class-agnostic localizers).
    public var score: Float
    /// Class index in the localizer's label list, when the localizer classifies.
    public var classIndex: Int?

    /// Creates a candidate.
    public init(rect: ImageRect, score: Float, classIndex: Int? = nil) {
        self.rect = rect; self.score = score; self.classIndex = classIndex
    }
}

extension ImageRect {
    /// Intersection over union with `other`; 0 when either is empty.
    func intersectionOverUnion(_ other: ImageRect) -> Float {
        let i = intersection(other).area
        let u = area + other.area - i
        return u > 0 ? Float(i / u) : 0
    }
}
