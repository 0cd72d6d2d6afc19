/// The default detector's classifier: EfficientNet-Lite0 ImageNet probabilities summed per
/// coarse category (see `CoarseCategory.imageNetIndices`); the best category is the label when
/// its summed probability reaches `minimumConfidence`, else the object stays unlabelled.
final class CoarseCategoryClassifier {
    let classifier: ImageClassifier
    /// Summed probability a category needs to label an object.
    let minimumConfidence: Float

    init(classifier: ImageClassifier, minimumConfidence: Float = 0.3) {
        self.classifier = classifier
        self.minimumConfidence = minimumConfidence
    }

    /// Summed probability per category, in `CoarseCategory.labelled` order.
    func categoryScores(_ image: RGBImage, region: ImageRect?) throws -> [Float] {
        let probabilities = try classifier.probabilities(image, region: region)
        var sums = [Float](repeating: 0, count: CoarseCategory.labelled.count)
        for (i, p) in probabilities.enumerated() {
            if let index = CoarseCategory.forImageNetClass(i).index { sums[index] += p }
        }
        return sums
    }

    /// The coarse label of `region`, or none.
    func classify(_ image: RGBImage, region: ImageRect?) throws -> [ObjectLabel] {
        let sums = try categoryScores(image, region: region)
        guard let best = sums.indices.max(by: { sums[$0] < sums[$1] }), sums[best] >= minimumConfidence else { return [] }
        let category = CoarseCategory.labelled[best]
        return [ObjectLabel(text: category.text, index: best, confidence: sums[best])]
    }
}
