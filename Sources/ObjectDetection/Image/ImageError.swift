/// Errors raised while creating, converting or preprocessing images.
///
/// Every failure on untrusted input (sizes, strides, short buffers) is reported with one of
/// these cases before any large allocation happens; image code never traps on bad input.
public enum ImageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Width or height is zero, negative, or not representable.
    case invalidDimensions(width: Int, height: Int)
    /// `width × height` exceeds the configured ``ImageLimits/maxPixelCount``.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// Decoding the image would take more memory than ``ImageLimits/maxDecodeByteCount``
    /// (`bytes`: the decoder's estimate, made from the header before anything is allocated).
    case decodeTooLarge(width: Int, height: Int, bytes: Int, limit: Int, reason: String)
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
        case let .decodeTooLarge(width, height, bytes, limit, reason):
            return "decoding the \(width)x\(height) image (\(reason)) needs \(bytes) bytes, more than the limit of \(limit) bytes (ImageLimits.maxDecodeByteCount)"
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
    /// Most memory one decode may take at its peak (pixels, colour conversion, a progressive
    /// JPEG's buffered coefficients), as the decoder estimates it from the header before
    /// allocating. Default 2 GiB, the default of `ResourceLimits.maximumTotalByteCount`: the
    /// worst image within the pixel cap (a 2^28-pixel progressive CMYK JPEG: 1 GiB of samples
    /// and 2 GiB of buffered coefficients) is refused, an RGB photo of the same size
    /// (progressive 4:2:0: 1.5 GiB) and a baseline CMYK one (1.75 GiB) decode.
    public var maxDecodeByteCount: Int

    /// Creates limits with the given maximum pixel count and decode memory.
    public init(maxPixelCount: Int = 1 << 28, maxDecodeByteCount: Int = 2 << 30) {
        self.maxPixelCount = maxPixelCount
        self.maxDecodeByteCount = maxDecodeByteCount
    }

    /// The default limits (`1 << 28` pixels, 2 GiB per decode).
    public static let `default` = ImageLimits()

    /// Throws ``ImageError/decodeTooLarge(width:height:bytes:limit:reason:)`` when `bytes`
    /// (a decoder's estimate for a `width × height` image) exceeds ``maxDecodeByteCount``.
    public func validateDecode(width: Int, height: Int, bytes: Int, reason: @autoclosure () -> String) throws(ImageError) {
        guard bytes <= maxDecodeByteCount else {
            throw .decodeTooLarge(width: width, height: height, bytes: bytes, limit: maxDecodeByteCount, reason: reason())
        }
    }

    /// Throws unless `width` and `height` are positive and their product is within the limit.
    public func validate(width: Int, height: Int) throws(ImageError) {
        guard width > 0, height > 0 else { throw .invalidDimensions(width: width, height: height) }
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, product <= maxPixelCount else {
            throw .tooManyPixels(width: width, height: height, limit: maxPixelCount)
        }
    }
}
