import ObjectDetection

/// One record of `litevision detect --jsonl`: the item's `id` with the keys of
/// ``ImageDetectionRecord`` (`image`, `width`, `height`, `objects`), or the `id` with
/// `error: {kind, message}`. Encode with `DetectionJSON.line(_:)` for the command line's bytes.
extension BatchOutcome: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        switch result {
        case .success(let detections):
            let record = ImageDetectionRecord(image: path ?? id.description, width: detections.width,
                                              height: detections.height, objects: detections.objects)
            try container.encode(record.image, forKey: .image)
            try container.encode(record.width, forKey: .width)
            try container.encode(record.height, forKey: .height)
            try container.encode(record.objects, forKey: .objects)
        case .failure(let error):
            try container.encode(error, forKey: .error)
        }
    }

    private enum CodingKeys: String, CodingKey { case id, image, width, height, objects, error }
}
