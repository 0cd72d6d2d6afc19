import TFLiteSchema

/// The default detector's localizer: DeepLabV3 segmentation regions (people, animals,
/// vehicles, furniture: the 20 VOC classes) plus everyday objects outside those classes (cups,
/// bottles, bags, shoes, food, plants, rockets) found by class activation maps of the ImageNet
/// classifier (``ClassActivationModel``), both from the pinned models of `Scripts/fetch-models.sh`.
///
/// Per image:
/// 1. the segmentation regions, as ``SegmentationRegionsFamily`` finds them;
/// 2. the classifier on the whole image: for each of its ``Settings/classCount`` most probable
///    classes (at least ``Settings/minimumProbability``), the activation map's hot region
///    (``ActivationRegion``, ``Settings/threshold``) is a coarse box;
/// 3. the boxes of the first ``Settings/refinementCount`` classes are refined
///    ``Settings/refinementRounds`` times: the classifier runs again on the box widened by
///    ``Settings/margin`` on every side, and the class's map there gives the next box (the
///    7×7 map of a 224-pixel input is too coarse for a small object seen in the whole image);
///    classes whose final boxes overlap (IoU ≥ ``Settings/duplicateOverlap``) are one object
///    (espresso and cup, moped and motor scooter);
/// 4. each activation object's box is snapped to colour regions (``ColourRegions``, when
///    ``Settings/snapsToColourRegions``): it becomes the union of the regions with at least
///    ``Settings/regionInside`` of their pixels inside it that are neither specks
///    (``Settings/regionArea``) nor background (``Settings/backgroundArea``: the sky), provided
///    they fill at least ``Settings/minimumSnappedFill`` of that union; otherwise the map's box
///    stays, ranked at the fraction of it those regions cover. The map of a thin object seen
///    small holds only its most telling part (the rocket's nose cone); its colour region holds
///    all of it;
/// 5. an activation object that repeats a segmentation region (IoU ≥ ``Settings/duplicateOverlap``)
///    or lies inside one (``Settings/partOverlap``: the cat's face, the motorcycle's engine) is
///    dropped; the rest are ranked with the regions by prominence
///    (``prominence(areaFraction:centerX:centerY:confidence:)``, the confidence being the
///    object's summed class probability).
///
/// Cost: one segmentation run, 1 + `refinementCount × refinementRounds` classifier runs
/// (7 by default) and, when there is an activation object, one ``ColourRegions`` per image.
///
/// Candidates' class indices: VOC classes as the segmentation model numbers them, ImageNet
/// class `i` as `vocCount + i` (see ``labels``).
final class EverydayObjectLocalizer: Localizer {
    /// Tunables of the activation-map objects (defaults measured on the sample photos).
    struct Settings {
        /// Most probable ImageNet classes looked at per image.
        var classCount = 5
        /// Probability a class needs on the whole image to be looked at.
        var minimumProbability: Float = 0.05
        /// Normalized activation a sample needs to be part of an object.
        var threshold: Float = 0.5
        /// Objects refined on zoomed crops (the most probable first).
        var refinementCount = 3
        /// Zoomed refinements per object (each on the previous box).
        var refinementRounds = 2
        /// An activation object with at least this fraction of its box inside a segmentation
        /// region's box is a part of that object (the cat's face, the engine), not an object of
        /// its own. (So is a cup held in a hand: a known miss, which a size rule made unstable
        /// under JPEG noise.)
        var partOverlap = 0.8
        /// Widening of a coarse box on every side, as a fraction of its size, for the zoomed crop.
        var margin = 0.25
        /// IoU at which two boxes are the same object.
        var duplicateOverlap: Float = 0.5
        /// Snap each activation object's final box to the colour regions it holds (step 4 of
        /// the type's description); false keeps the activation maps' boxes.
        var snapsToColourRegions = true
        /// The colour regions boxes are snapped to.
        var colourRegions = ColourRegions.Settings()
        /// Fraction of a colour region's pixels that must lie in an activation box for the
        /// region to be part of the object (the background only passes through the box).
        var regionInside = 0.3
        /// Fraction of the image a colour region needs to count (specks and noise do not).
        var regionArea = 0.002
        /// Fraction of the image above which a colour region is background (sky, table, wall).
        var backgroundArea = 0.2
        /// Fill a snapped box needs (the fraction of it its regions cover); a sparser union of
        /// regions (several objects and the background between them) keeps the map's box.
        var minimumSnappedFill: Float = 0.5
        /// A box that keeps the map's box is ranked at the fraction of it the regions cover
        /// (thin structures against the sky count little), not at the map's fill.
        var regionFillRanks = true
    }

    /// An object found by activation maps, before fusion.
    struct ActivationObject {
        /// ImageNet classes, most probable first.
        var classes: [Int]
        /// Their probabilities on the whole image.
        var probabilities: [Float]
        /// The box from the whole-image map (upright-image pixels).
        var coarse: ImageRect
        /// The final box (refined when among the first ``Settings/refinementCount``).
        var rect: ImageRect
        /// Region fill of the final map (see ``ActivationRegion/fill``).
        var fill: Float
        /// Summed class probability, capped at 1: the larger of the whole image's and the crop's.
        var confidence: Float
    }

    let segmentation: FamilyLocalizer
    let activations: ClassActivationModel
    let settings: Settings
    /// Candidates below this prominence are not returned.
    let scoreThreshold: Float
    /// VOC class names followed by ImageNet class names.
    let labels: LabelList?
    /// Number of segmentation classes (offset of ImageNet class indices).
    let vocCount: Int
    var largestInputSide: Int {
        let classifier = activations.runner.inputSize
        return max(segmentation.largestInputSide, classifier.width, classifier.height)
    }

    /// Combines a segmentation-regions localizer and an activation-map classifier; the
    /// segmentation localizer's score threshold applies to both kinds of candidates.
    init(segmentation: FamilyLocalizer, activations: ClassActivationModel, settings: Settings = Settings()) {
        self.segmentation = segmentation
        self.activations = activations
        self.settings = settings
        scoreThreshold = segmentation.scoreThreshold
        let voc = segmentation.labels?.labels ?? []
        vocCount = max(voc.count, segmentation.model.outputShapes.first?.last ?? 0)
        let padded = voc + Array(repeating: "", count: vocCount - voc.count)
        labels = activations.labels.map { LabelList(labels: padded + $0.labels) }
    }

    func localize(_ image: RGBImage) throws -> [DetectionCandidate] {
        let regions = try segmentation.localize(image)
        var result = regions
        for object in try activationObjects(image) {
            guard !regions.contains(where: { isDuplicate(object.rect, of: $0.rect) }) else { continue }
            let score = Self.prominence(object.rect, fill: object.fill, confidence: object.confidence, image: image)
            guard score >= scoreThreshold else { continue }
            result.append(DetectionCandidate(rect: object.rect, score: score, classIndex: vocCount + object.classes[0]))
        }
        return result.sorted { $0.score > $1.score }
    }

    /// Steps 2 to 4: the activation-map objects of `image`, most probable first.
    func activationObjects(_ image: RGBImage) throws -> [ActivationObject] {
        let bounds = ImageRect(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
        let whole = try activations.run(image)
        var regions: ColourRegions?
        let p = whole.probabilities
        let top = p.indices.sorted { p[$0] != p[$1] ? p[$0] > p[$1] : $0 < $1 }
            .prefix(settings.classCount).filter { p[$0] >= settings.minimumProbability }
        var objects: [ActivationObject] = []
        for (rank, c) in top.enumerated() {
            let map = activations.map(whole, classes: [c], weights: [1])
            guard let region = ActivationRegion(map: map, width: whole.width, height: whole.height,
                                                threshold: settings.threshold) else { continue }
            let coarse = whole.transform.imageRect(fromNormalizedInput: region.rect).intersection(bounds)
            guard !coarse.isEmpty else { continue }
            var object = ActivationObject(classes: [c], probabilities: [p[c]], coarse: coarse, rect: coarse,
                                          fill: region.fill, confidence: min(1, p[c]))
            for _ in 0..<(rank < settings.refinementCount ? settings.refinementRounds : 0) {
                guard try refine(&object, in: image, bounds: bounds) else { break }
            }
            if settings.snapsToColourRegions {
                let colours = regions ?? ColourRegions(image, settings: settings.colourRegions)
                regions = colours
                if let snapped = colours.snappedBox(object.rect, minimumInside: settings.regionInside,
                                                    minimumArea: settings.regionArea, maximumArea: settings.backgroundArea) {
                    if snapped.fill >= settings.minimumSnappedFill, !snapped.rect.intersection(bounds).isEmpty {
                        object.rect = snapped.rect.intersection(bounds)
                        object.fill = snapped.fill
                    } else if settings.regionFillRanks {
                        object.fill = snapped.boxFill
                    }
                }
            }
            if let i = objects.firstIndex(where: { $0.rect.intersectionOverUnion(object.rect) >= settings.duplicateOverlap }) {
                objects[i].classes.append(c)
                objects[i].probabilities.append(p[c])
                objects[i].confidence = min(1, objects[i].confidence + object.confidence)
            } else {
                objects.append(object)
            }
        }
        return objects
    }

    /// True when `rect` repeats the segmentation region `region` (IoU ≥ ``Settings/duplicateOverlap``)
    /// or is a part of it (``Settings/partOverlap``).
    private func isDuplicate(_ rect: ImageRect, of region: ImageRect) -> Bool {
        rect.intersectionOverUnion(region) >= settings.duplicateOverlap
            || rect.intersection(region).area >= settings.partOverlap * rect.area
    }

    /// Step 3 once: runs the classifier on `object`'s box widened by ``Settings/margin`` and
    /// takes the box of its class's map there. False when nothing stands out in the crop.
    private func refine(_ object: inout ActivationObject, in image: RGBImage, bounds: ImageRect) throws -> Bool {
        let r = object.rect, m = settings.margin
        let crop = ImageRect(x: r.x - r.width * m, y: r.y - r.height * m,
                             width: r.width * (1 + 2 * m), height: r.height * (1 + 2 * m)).intersection(bounds)
        guard !crop.isEmpty else { return false }
        let zoomed = try activations.run(image, region: crop)
        let c = object.classes[0]
        let map = activations.map(zoomed, classes: [c], weights: [1])
        guard let region = ActivationRegion(map: map, width: zoomed.width, height: zoomed.height, threshold: settings.threshold)
        else { return false }
        let rect = zoomed.transform.imageRect(fromNormalizedInput: region.rect).intersection(bounds)
        guard !rect.isEmpty else { return false }
        object.rect = rect
        object.fill = region.fill
        object.confidence = max(object.confidence, min(1, zoomed.probabilities[c]))
        return true
    }

    /// Prominence of a box on `image` (see ``prominence(areaFraction:centerX:centerY:confidence:)``),
    /// its area counted at `fill`.
    static func prominence(_ rect: ImageRect, fill: Float, confidence: Float, image: RGBImage) -> Float {
        let w = Double(image.width), h = Double(image.height)
        return ObjectDetection.prominence(areaFraction: Float(rect.area / (w * h)) * fill,
                                          centerX: Float(rect.midX / w), centerY: Float(rect.midY / h), confidence: confidence)
    }
}
