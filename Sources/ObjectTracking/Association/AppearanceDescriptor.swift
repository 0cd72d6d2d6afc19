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
    /// grayscale) of the pixels of an 8-bit image inside `region`, optionally per horizontal stripe.
    ///
    /// - Parameters:
    ///   - pixels: interleaved 8-bit samples, `bytesPerRow` per row.
    ///   - channels: samples per pixel (1 = gray, 3 = RGB, 4 = RGBA/BGRA: the first three are used).
    ///   - region: the pixel rectangle to sample, clipped to the image.
    ///   - binsPerChannel: 2...16 (clamped).
    ///   - stripes: the region is cut into this many horizontal stripes of equal height
    ///     (1...8, clamped), each with its own histogram, so "red top, blue bottom" differs from
    ///     the reverse. The stripes are weighted equally.
    ///   - maximumSamplesPerStripe: the pixels are sampled on a regular grid thin enough to stay
    ///     under this count per stripe (bounding the cost for large boxes); at least 16.
    /// - Returns: nil when the buffer is too small for the stated geometry or the clipped region is empty.
    /// - Complexity: O(min(region area, stripes × maximumSamplesPerStripe)).
    public static func colorHistogram(pixels: [UInt8], width: Int, height: Int, bytesPerRow: Int, channels: Int,
                                      region: BoundingBox, binsPerChannel: Int = 4, stripes: Int = 1,
                                      maximumSamplesPerStripe: Int = .max) -> AppearanceDescriptor? {
        guard width > 0, height > 0, channels >= 1, channels <= 4, width <= pixels.count, height <= pixels.count,
              bytesPerRow >= width * channels, bytesPerRow <= pixels.count, region.isValid else { return nil }
        let (rows, overflow) = (height - 1).multipliedReportingOverflow(by: bytesPerRow)
        guard !overflow, rows <= pixels.count - width * channels else { return nil }
        let bins = min(16, max(2, binsPerChannel)), parts = min(8, max(1, stripes))
        let x0 = Int(max(0, min(Double(width), region.x.rounded(.down))))
        let y0 = Int(max(0, min(Double(height), region.y.rounded(.down))))
        let x1 = Int(max(0, min(Double(width), region.maxX.rounded(.up))))
        let y1 = Int(max(0, min(Double(height), region.maxY.rounded(.up))))
        guard x1 > x0, y1 - y0 >= parts else { return nil }
        let colorBins = channels >= 3 ? bins * bins * bins : bins
        var features = [Float](repeating: 0, count: colorBins * parts)
        let stripeHeight = (y1 - y0) / parts
        let budget = max(16, maximumSamplesPerStripe)
        // Smallest step whose grid stays within the budget.
        var step = 1
        while ((x1 - x0 + step - 1) / step) * ((stripeHeight + step - 1) / step) > budget { step += 1 }
        for part in 0..<parts {
            let base = part * colorBins
            var count: Float = 0
            var y = y0 + part * stripeHeight
            while y < y0 + (part + 1) * stripeHeight {
                let rowStart = y * bytesPerRow
                var x = x0
                while x < x1 {
                    let p = rowStart + x * channels
                    let index: Int
                    if channels >= 3 {
                        let r = (Int(pixels[p]) * bins) >> 8, g = (Int(pixels[p + 1]) * bins) >> 8
                        let b = (Int(pixels[p + 2]) * bins) >> 8
                        index = (r * bins + g) * bins + b
                    } else {
                        index = (Int(pixels[p]) * bins) >> 8
                    }
                    features[base + index] += 1
                    count += 1
                    x += step
                }
                y += step
            }
            // Square roots of frequencies (Hellinger embedding): each stripe has unit length, so the
            // cosine similarity is the mean Bhattacharyya coefficient of the stripes.
            for i in base..<(base + colorBins) { features[i] = (features[i] / count).squareRoot() }
        }
        return AppearanceDescriptor(features: features)
    }
}
