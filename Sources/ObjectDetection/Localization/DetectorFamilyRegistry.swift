import Foundation

/// An ordered list of detector families: the first family whose ``DetectorFamily/matches(_:)``
/// accepts a model decodes it. ``shared`` holds the built-in families; families registered
/// by users come before them, so a user family can take over a layout the package knows.
public final class DetectorFamilyRegistry: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [any DetectorFamily]

    /// The built-in families, most specific first: SSD with `TFLite_Detection_PostProcess`,
    /// BlazeFace anchors, YOLO with NMS in the graph, YOLOv5, YOLOv8/YOLO11, segmentation regions.
    public static let builtIn: [any DetectorFamily] = [
        PostProcessedSSDFamily(), AnchorSSDFamily(), YOLOWithNMSFamily(), YOLOv5Family(), YOLOv8Family(),
        SegmentationRegionsFamily(),
    ]

    /// The registry detectors use unless given another.
    public static let shared = DetectorFamilyRegistry()

    /// A registry holding `families` in order (default: the built-in ones).
    public init(families: [any DetectorFamily] = DetectorFamilyRegistry.builtIn) {
        entries = families
    }

    /// The families in the order they are tried.
    public var families: [any DetectorFamily] {
        lock.lock(); defer { lock.unlock() }
        return entries
    }

    /// Adds `family` before every family registered so far.
    public func register(_ family: any DetectorFamily) {
        lock.lock(); defer { lock.unlock() }
        entries.insert(family, at: 0)
    }

    /// Removes the families named `name`.
    public func unregister(named name: String) {
        lock.lock(); defer { lock.unlock() }
        entries.removeAll { $0.name == name }
    }

    /// The first family that accepts `model`.
    /// - Throws: ``ObjectDetectionError/unsupportedModel(_:)`` naming the output shapes and the
    ///   families tried when none does.
    public func family(for model: DetectorModelInfo) throws -> any DetectorFamily {
        let candidates = families
        guard let family = candidates.first(where: { $0.matches(model) }) else {
            throw ObjectDetectionError.unsupportedModel(
                "\(model.path): outputs \(model.outputShapes) match no detector family (tried \(candidates.map(\.name).joined(separator: ", "))); register a DetectorFamily for this layout")
        }
        return family
    }
}
