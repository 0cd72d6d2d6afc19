/// Errors raised while creating, converting or preprocessing images.
///
/// Every failure on untrusted input (sizes, strides, short buffers) is reported with one of
/// these cases before any large allocation happens; image code never traps on bad input.
public enum ImageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Width or height is zero, negative, or not representable.
    case invalidDimensions(width: Int, height: Int)
    /// `width × height` exceeds the configured ``ImageLimits/maxPixelCount``.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// A row stride is smaller than one row of pixels of the plane.
    case invalidRowStride(plane: String, bytesPerRow: Int, minimum: Int)
    /// A pixel buffer holds fewer bytes than its dimensions and stride require.
    case bufferTooShort(plane: String, required: Int, actual: Int)
    /// A rectangle (crop, target area) is empty or lies outside the image.
    case invalidRegion(String)
    /// Preprocessing parameters are inconsistent (channels, mean/std counts, scale).
    case invalidParameters(String)

    /// A human-readable explanation of the failure.
    public var description: String {
        switch self {
        case let .invalidDimensions(width, height):
            return "invalid image dimensions \(width)x\(height) (both must be positive)"
        case let .tooManyPixels(width, height, limit):
            return "image \(width)x\(height) exceeds the limit of \(limit) pixels"
        case let .invalidRowStride(plane, bytesPerRow, minimum):
            return "row stride \(bytesPerRow) of plane \(plane) is smaller than one row (\(minimum) bytes)"
        case let .bufferTooShort(plane, required, actual):
            return "buffer for plane \(plane) holds \(actual) bytes, \(required) required"
        case let .invalidRegion(message):
            return "invalid image region: \(message)"
        case let .invalidParameters(message):
            return "invalid image parameters: \(message)"
        }
    }
}

/// Size limits checked before any pixel memory is allocated.
public struct ImageLimits: Sendable, Equatable {
    /// Largest accepted `width × height`. Default `1 << 28` (268 million pixels).
    public var maxPixelCount: Int

    /// Creates limits with the given maximum pixel count.
    public init(maxPixelCount: Int = 1 << 28) {
        self.maxPixelCount = maxPixelCount
    }

    /// The default limits (`1 << 28` pixels).
    public static let `default` = ImageLimits()

    /// Throws unless `width` and `height` are positive and their product is within the limit.
    public func validate(width: Int, height: Int) throws(ImageError) {
        guard width > 0, height > 0 else { throw .invalidDimensions(width: width, height: height) }
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, product <= maxPixelCount else {
            throw .tooManyPixels(width: width, height: height, limit: maxPixelCount)
        }
    }
}
