/// What was found in one image, as `litevision detect --json` prints it (one line per image):
/// `{"height","image","objects","width"}` with the upright image size in pixels.
public struct ImageDetectionRecord: Codable, Sendable, Equatable {
    /// The image's path (or any name the caller gives it).
    public var image: String
    /// Upright image width in pixels.
    public var width: Int
    /// Upright image height in pixels.
    public var height: Int
    /// The objects, in the detector's order.
    public var objects: [DetectedObjectRecord]

    /// Creates a record from finished object records.
    public init(image: String, width: Int, height: Int, objects: [DetectedObjectRecord]) {
        self.image = image; self.width = width; self.height = height; self.objects = objects
    }

    /// The record of `objects` found in `image` (rounded as ``DetectedObjectRecord`` says).
    public init(image: String, width: Int, height: Int, objects: [DetectedObject]) {
        self.init(image: image, width: width, height: height, objects: objects.map(DetectedObjectRecord.init))
    }
}
