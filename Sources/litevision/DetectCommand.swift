import ArgumentParser
import Foundation
import ImageCodecs
import ObjectDetection

/// `litevision detect`: detect (and optionally classify) objects in PNG and JPEG images.
struct DetectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Detect objects in PNG and JPEG images.",
        discussion: "With no options: the default detector (most prominent object, stream mode) on each image.")

    @Argument(help: "PNG or JPEG images (the format comes from the bytes; JPEG EXIF orientation is applied).")
    var images: [String] = []

    @OptionGroup var detection: DetectionOptionGroup

    @Flag(help: "Print one JSON object per image.")
    var json = false

    @Option(help: "Write the image with boxes, labels and IDs drawn (a directory, or a .png or .jpg path; with several images the image name is appended).")
    var annotate: String?

    @OptionGroup(title: "Batch jobs") var batch: BatchOptionGroup

    func run() async throws {
        if batch.jsonl { return try runJSONL() }
        guard !images.isEmpty else { throw ValidationError("give at least one image") }
        let detector = try detection.makeDetector()
        let orientation = try detection.imageOrientation()
        for path in images {
            // `--orientation up` (the default) keeps a JPEG's own EXIF orientation; others override it.
            // A JPEG much larger than the models need decodes at a reduced scale; the results are
            // still in the full photo's pixels.
            let override = orientation == .up ? nil : orientation
            let image = try VisionImage(contentsOf: path, orientation: override, limits: detection.imageLimits,
                                        minimumShortSide: detector.preferredMinimumShortSide)
            // Each photo stands alone: no track or cached label carries over from the one before.
            let objects = try detector.results(inIndependentImage: image)
            let width = image.sourceUprightWidth, height = image.sourceUprightHeight
            if json {
                print(try DetectionJSON.line(ImageDetectionRecord(image: path, width: width, height: height, objects: objects)))
            } else {
                print("\(path) \(width)x\(height): \(objects.count) object\(objects.count == 1 ? "" : "s")")
                objects.forEach { print("  " + $0.summary) }
            }
            if let annotate {
                let out = annotationPath(annotate, for: path, multiple: images.count > 1)
                // Boxes are in the full photo's pixels: draw them on the full-size decode.
                let full = image.reducedScaleSource == nil
                    ? image : try VisionImage(contentsOf: path, orientation: override, limits: detection.imageLimits)
                try full.annotated(with: objects).write(to: out)
            }
        }
    }

    private func annotationPath(_ target: String, for image: String, multiple: Bool) -> String {
        var isDirectory: ObjCBool = false
        let stem = ((image as NSString).lastPathComponent as NSString).deletingPathExtension
        if target.hasSuffix("/") || (FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory) && isDirectory.boolValue) {
            return (target as NSString).appendingPathComponent(stem + ".png")
        }
        guard multiple else { return target }
        let ext = (target as NSString).pathExtension
        return (target as NSString).deletingPathExtension + "-" + stem + "." + (ext.isEmpty ? "png" : ext)
    }
}
