/// An appearance cue for one detection: a caller-supplied feature vector such as a color
/// histogram (see ``AppearanceDescriptor/colorHistogram(pixels:width:height:bytesPerRow:channels:region:binsPerChannel:)``)
/// or an embedding from a re-identification model. Compared by cosine similarity.
public struct AppearanceDescriptor: Hashable, Sendable {
    /// The feature vector, L2-normalised at creation (all zeros stays all zeros).
    public let features: [Float]

    /// Wraps `features`, normalising them to unit length. Non-finite entries become 0.
    public init(features: [Float]) {
        let clean = features.map { $0.isFinite ? $0 : 0 }
        var norm: Float = 0
        for f in clean { norm = f * f + norm }
        norm = norm.squareRoot()
        self.features = norm > 0 ? clean.map { $0 / norm } : clean
    }

    /// Cosine similarity in [-1, 1]; 0 when the lengths differ or either vector is zero.
    public func similarity(to other: AppearanceDescriptor) -> Double {
        guard features.count == other.features.count else { return 0 }
        var dot: Float = 0
        for i in features.indices { dot = features[i] * other.features[i] + dot }
        return Double(min(1, max(-1, dot)))
    }

    /// Blends `other` into this descriptor: `(1 - weight) * self + weight * other`, renormalised.
    /// Returns `other` when the lengths differ.
    public func blended(with other: AppearanceDescriptor, weight: Float) -> AppearanceDescriptor {
        guard features.count == other.features.count else { return other }
        let w = min(1, max(0, weight))
        var mixed = [Float](repeating: 0, count: features.count)
        for i in features.indices { mixed[i] = w * other.features[i] + (1 - w) * features[i] }
        return AppearanceDescriptor(features: mixed)
    }

    /// A joint color histogram (`binsPerChannel`³ bins for 3+ channels, `binsPerChannel` for
    /// grayscale) of the pixels of an 8-bit image inside `region`.
    ///
    /// - Parameters:
    ///   - pixels: interleaved 8-bit samples, `bytesPerRow` per row.
    ///   - channels: samples per pixel (1 = gray, 3 = RGB, 4 = RGBA/BGRA: the first three are used).
    ///   - region: the pixel rectangle to sample, clipped to the image.
    ///   - binsPerChannel: 2...16 (clamped).
    /// - Returns: nil when the buffer is too small for the stated geometry or the clipped region is empty.
    public static func colorHistogram(pixels: [UInt8], width: Int, height: Int, bytesPerRow: Int, channels: Int,
                                      region: BoundingBox, binsPerChannel: Int = 4) -> AppearanceDescriptor? {
        guard width > 0, height > 0, channels >= 1, channels <= 4, bytesPerRow >= width * channels,
              (height - 1) * bytesPerRow + width * channels <= pixels.count, region.isValid else { return nil }
        let bins = min(16, max(2, binsPerChannel))
        let x0 = max(0, Int(region.x.rounded(.down))), y0 = max(0, Int(region.y.rounded(.down)))
        let x1 = min(width, Int(region.maxX.rounded(.up))), y1 = min(height, Int(region.maxY.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return nil }
        let colorBins = channels >= 3 ? bins * bins * bins : bins
        var histogram = [Float](repeating: 0, count: colorBins)
        for y in y0..<y1 {
            let rowStart = y * bytesPerRow
            for x in x0..<x1 {
                let p = rowStart + x * channels
                let index: Int
                if channels >= 3 {
                    let r = Int(pixels[p]) * bins / 256, g = Int(pixels[p + 1]) * bins / 256
                    let b = Int(pixels[p + 2]) * bins / 256
                    index = (r * bins + g) * bins + b
                } else {
                    index = Int(pixels[p]) * bins / 256
                }
                histogram[index] += 1
            }
        }
        // Square roots (Hellinger embedding) make cosine similarity a Bhattacharyya coefficient.
        return AppearanceDescriptor(features: histogram.map { $0.squareRoot() })
    }
}
