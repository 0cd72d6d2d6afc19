import ObjectDetection

/// The chroma layout of a YUV4MPEG2 stream (`C` header parameter).
public enum Y4MColorspace: String, Sendable, CaseIterable {
    /// 4:2:0, JPEG/MPEG-1 chroma siting (the default when `C` is absent).
    case c420jpeg = "420jpeg"
    /// 4:2:0, PAL-DV chroma siting.
    case c420paldv = "420paldv"
    /// 4:2:0, MPEG-2 chroma siting.
    case c420mpeg2 = "420mpeg2"
    /// 4:2:0 (unspecified siting, as written by ffmpeg for progressive yuv420p).
    case c420 = "420"
    /// 4:2:2.
    case c422 = "422"
    /// 4:4:4.
    case c444 = "444"
    /// Luma only.
    case mono = "mono"

    /// The ``PixelFormat`` frames are delivered in (`.gray8` for mono).
    public var pixelFormat: PixelFormat {
        switch self {
        case .c420jpeg, .c420paldv, .c420mpeg2, .c420: return .i420
        case .c422: return .i422
        case .c444: return .i444
        case .mono: return .gray8
        }
    }
}

/// A parsed YUV4MPEG2 stream header, e.g. `YUV4MPEG2 W640 H480 F30:1 Ip A1:1 C420jpeg`.
///
/// Chroma siting differences between the 4:2:0 variants are ignored (each chroma sample covers
/// its 2×2 luma block). The range is `.video` unless the stream says `XCOLORRANGE=FULL`.
public struct Y4MHeader: Sendable, Equatable {
    /// Frame width in pixels.
    public var width: Int
    /// Frame height in pixels.
    public var height: Int
    /// Frame rate as numerator and denominator, when given.
    public var frameRate: (numerator: Int, denominator: Int)?
    /// Interlacing mode letter (`p`, `t`, `b`, `m`), when given.
    public var interlacing: Character?
    /// Chroma layout.
    public var colorspace: Y4MColorspace
    /// YUV range.
    public var colorRange: YUVColorRange

    /// Bytes of pixel data per frame.
    public var frameByteCount: Int {
        let luma = width * height
        switch colorspace {
        case .mono: return luma
        case .c444: return luma * 3
        case .c422: return luma + 2 * ((width + 1) / 2) * height
        default: return luma + 2 * ((width + 1) / 2) * ((height + 1) / 2)
        }
    }

    /// Frames per second, when the frame rate is given and valid.
    public var framesPerSecond: Double? {
        guard let frameRate, frameRate.denominator > 0 else { return nil }
        return Double(frameRate.numerator) / Double(frameRate.denominator)
    }

    /// Parses the header line (without its terminating newline).
    /// - Throws: ``ImageCodecError/invalidY4M(_:)`` for a missing signature, missing or invalid
    ///   size, or unsupported colorspace; ``ImageCodecError/image(_:)`` when the size exceeds `limits`.
    public init(line: [UInt8], limits: ImageLimits = .default) throws {
        let text = String(decoding: line, as: UTF8.self)
        let tokens = text.split(separator: " ", omittingEmptySubsequences: true)
        guard tokens.first == "YUV4MPEG2" else {
            throw ImageCodecError.invalidY4M("missing YUV4MPEG2 signature")
        }
        var width: Int?, height: Int?
        var colorspace = Y4MColorspace.c420jpeg
        var range = YUVColorRange.video
        var frameRate: (Int, Int)?
        var interlacing: Character?
        for token in tokens.dropFirst() {
            guard let key = token.first else { continue }
            let value = token.dropFirst()
            switch key {
            case "W":
                guard let parsed = Int(value), parsed > 0 else { throw ImageCodecError.invalidY4M("bad width '\(token)'") }
                width = parsed
            case "H":
                guard let parsed = Int(value), parsed > 0 else { throw ImageCodecError.invalidY4M("bad height '\(token)'") }
                height = parsed
            case "C":
                guard let parsed = Y4MColorspace(rawValue: String(value)) else {
                    throw ImageCodecError.invalidY4M("unsupported colorspace '\(value)'")
                }
                colorspace = parsed
            case "F":
                let parts = value.split(separator: ":")
                guard parts.count == 2, let n = Int(parts[0]), let d = Int(parts[1]), n >= 0, d >= 0 else {
                    throw ImageCodecError.invalidY4M("bad frame rate '\(token)'")
                }
                frameRate = (n, d)
            case "I":
                interlacing = value.first
            case "X":
                if value.uppercased() == "COLORRANGE=FULL" { range = .full }
                if value.uppercased() == "COLORRANGE=LIMITED" { range = .video }
            case "A":
                break  // pixel aspect ratio: not needed for detection
            default:
                throw ImageCodecError.invalidY4M("unknown header parameter '\(token)'")
            }
        }
        guard let width, let height else {
            throw ImageCodecError.invalidY4M("header lacks W and H")
        }
        do throws(ImageError) {
            try limits.validate(width: width, height: height)
        } catch {
            throw ImageCodecError.image(error)
        }
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.interlacing = interlacing
        self.colorspace = colorspace
        self.colorRange = range
    }

    /// Compares all fields (frame rates component-wise).
    public static func == (lhs: Y4MHeader, rhs: Y4MHeader) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.frameRate?.numerator == rhs.frameRate?.numerator
            && lhs.frameRate?.denominator == rhs.frameRate?.denominator && lhs.interlacing == rhs.interlacing
            && lhs.colorspace == rhs.colorspace && lhs.colorRange == rhs.colorRange
    }
}
