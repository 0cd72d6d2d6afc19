import ObjectDetection

/// Errors from decoding and encoding image files and video streams.
public enum ImageCodecError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be read or written.
    case fileAccess(path: String, reason: String)
    /// The data is not a PNG file, or libpng rejected it (corrupt, truncated, unsupported).
    case invalidPNG(String)
    /// The data is not a JPEG file, or libjpeg-turbo rejected it as corrupt or unsupported.
    case invalidJPEG(String)
    /// The JPEG file ends before its end-of-image marker (`bytes` were read): it was cut short.
    case truncatedJPEG(bytes: Int)
    /// The data starts with neither the PNG nor the JPEG signature.
    case unknownFormat(String)
    /// libpng or libjpeg-turbo failed to encode the image.
    case encodingFailed(String)
    /// The image's size is outside the configured limits (checked before allocating).
    case image(ImageError)
    /// A YUV4MPEG2 stream header or frame header is malformed or unsupported.
    case invalidY4M(String)
    /// A YUV4MPEG2 stream ended in the middle of a frame.
    case truncatedY4MFrame(frameIndex: Int, expected: Int, received: Int)

    /// A human-readable explanation of the failure.
    public var description: String {
        switch self {
        case let .fileAccess(path, reason): return "cannot access \(path): \(reason)"
        case let .invalidPNG(message): return "invalid PNG: \(message)"
        case let .invalidJPEG(message): return "invalid JPEG: \(message)"
        case let .truncatedJPEG(bytes):
            return "truncated JPEG: the file ends after \(bytes) bytes without an end-of-image marker (copy it again)"
        case let .unknownFormat(message): return "unknown image format: \(message) (PNG and JPEG are read)"
        case let .encodingFailed(message): return "image encoding failed: \(message)"
        case let .image(error): return error.description
        case let .invalidY4M(message): return "invalid YUV4MPEG2 stream: \(message)"
        case let .truncatedY4MFrame(index, expected, received):
            return "YUV4MPEG2 frame \(index) is truncated: \(received) of \(expected) bytes"
        }
    }
}
