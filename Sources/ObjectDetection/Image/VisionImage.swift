/// An image to run detection on: a raw pixel buffer as a camera pipeline or decoder produced
/// it, plus the orientation that makes it upright.
///
/// The buffer is kept in its original format; ``uprightRGB()`` gives the canonical upright
/// RGB8 representation, and ``orientationTransform`` maps coordinates between the stored
/// buffer and the upright image exactly. All detection results are in upright pixel
/// coordinates (``uprightWidth`` × ``uprightHeight``), or those of the full-size photo when
/// the buffer is a reduced-scale decode of it (``reducedScaleSource``).
///
/// YUV buffers use the BT.601 matrix; the range (``YUVColorRange``) defaults to `.video`.
/// Chroma is not interpolated: each chroma sample applies to the luma samples it covers
/// (a 2×2 block for 4:2:0).
public struct VisionImage: Sendable {
    /// Layout of the stored buffer.
    public let format: PixelFormat
    /// Width of the stored buffer in pixels.
    public let width: Int
    /// Height of the stored buffer in pixels.
    public let height: Int
    /// How the stored buffer must be transformed to be upright.
    public var orientation: ImageOrientation
    /// Quantization range used when converting YUV formats to RGB.
    public var yuvRange: YUVColorRange
    /// The validated planes (one for packed formats, two for NV12, three for planar YUV).
    let planes: [ImagePlane]
    /// The full-size photo this image was decoded from at a reduced scale; nil (the default)
    /// when the buffer is the photo itself. When set, ``ObjectDetector`` reports results in
    /// the source's upright pixel coordinates (``sourceUprightWidth`` × ``sourceUprightHeight``).
    public var reducedScaleSource: ReducedScaleSource?

    /// Upright width of the photo results are reported in: the reduced-scale source's when
    /// there is one, else ``uprightWidth``.
    public var sourceUprightWidth: Int {
        guard let source = reducedScaleSource else { return uprightWidth }
        return orientation.swapsDimensions ? source.height : source.width
    }
    /// Upright height of the photo results are reported in (see ``sourceUprightWidth``).
    public var sourceUprightHeight: Int {
        guard let source = reducedScaleSource else { return uprightHeight }
        return orientation.swapsDimensions ? source.width : source.height
    }

    /// Width of the upright image.
    public var uprightWidth: Int { orientation.swapsDimensions ? height : width }
    /// Height of the upright image.
    public var uprightHeight: Int { orientation.swapsDimensions ? width : height }

    /// Maps coordinates between the stored buffer and the upright image.
    public var orientationTransform: OrientationTransform {
        OrientationTransform(orientation: orientation, storedWidth: width, storedHeight: height)
    }

    /// Creates an image from a packed buffer (`.rgba8`, `.bgra8`, `.rgb8` or `.gray8`).
    ///
    /// - Parameters:
    ///   - pixels: the buffer; rows may be padded.
    ///   - bytesPerRow: distance between rows; defaults to `width × format.bytesPerPixel`.
    ///   - limits: checked before anything else.
    /// - Throws: ``ImageError`` for YUV formats, bad sizes, strides or short buffers.
    public init(pixels: [UInt8], width: Int, height: Int, format: PixelFormat,
                bytesPerRow: Int? = nil, orientation: ImageOrientation = .up,
                limits: ImageLimits = .default) throws {
        guard !format.isYUV else {
            throw ImageError.invalidParameters("\(format) has several planes; use the YUV initializers")
        }
        try limits.validate(width: width, height: height)
        let rowBytes = width * format.bytesPerPixel
        let plane = try ImagePlane(name: "\(format)", bytes: pixels, bytesPerRow: bytesPerRow ?? rowBytes,
                                   rowBytes: rowBytes, rows: height)
        self.init(format: format, width: width, height: height, orientation: orientation,
                  yuvRange: .video, planes: [plane])
    }

    /// Creates an image from an ``RGBImage`` (no copy).
    public init(_ image: RGBImage, orientation: ImageOrientation = .up) {
        let plane = ImagePlane(trustedBytes: image.pixels, bytesPerRow: image.width * 3)
        self.init(format: .rgb8, width: image.width, height: image.height, orientation: orientation,
                  yuvRange: .video, planes: [plane])
    }

    /// Creates an image from NV12 planes: full-resolution luma and interleaved Cb,Cr at
    /// `((width+1)/2) × ((height+1)/2)`.
    public init(nv12Y y: [UInt8], yBytesPerRow: Int? = nil, uv: [UInt8], uvBytesPerRow: Int? = nil,
                width: Int, height: Int, range: YUVColorRange = .video,
                orientation: ImageOrientation = .up, limits: ImageLimits = .default) throws {
        try limits.validate(width: width, height: height)
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        let yPlane = try ImagePlane(name: "Y", bytes: y, bytesPerRow: yBytesPerRow ?? width,
                                    rowBytes: width, rows: height)
        let uvPlane = try ImagePlane(name: "UV", bytes: uv, bytesPerRow: uvBytesPerRow ?? chromaWidth * 2,
                                     rowBytes: chromaWidth * 2, rows: chromaHeight)
        self.init(format: .nv12, width: width, height: height, orientation: orientation,
                  yuvRange: range, planes: [yPlane, uvPlane])
    }

    /// Creates an image from planar YUV (`.i420`, `.i422` or `.i444`) given as three buffers.
    ///
    /// Chroma planes are `((width+1)/2) × ((height+1)/2)` for I420, `((width+1)/2) × height`
    /// for I422 and `width × height` for I444.
    public init(planarYUV format: PixelFormat = .i420, y: [UInt8], yBytesPerRow: Int? = nil,
                u: [UInt8], uBytesPerRow: Int? = nil, v: [UInt8], vBytesPerRow: Int? = nil,
                width: Int, height: Int, range: YUVColorRange = .video,
                orientation: ImageOrientation = .up, limits: ImageLimits = .default) throws {
        try limits.validate(width: width, height: height)
        let (chromaWidth, chromaHeight) = try Self.chromaSize(format: format, width: width, height: height)
        let yPlane = try ImagePlane(name: "Y", bytes: y, bytesPerRow: yBytesPerRow ?? width,
                                    rowBytes: width, rows: height)
        let uPlane = try ImagePlane(name: "U", bytes: u, bytesPerRow: uBytesPerRow ?? chromaWidth,
                                    rowBytes: chromaWidth, rows: chromaHeight)
        let vPlane = try ImagePlane(name: "V", bytes: v, bytesPerRow: vBytesPerRow ?? chromaWidth,
                                    rowBytes: chromaWidth, rows: chromaHeight)
        self.init(format: format, width: width, height: height, orientation: orientation,
                  yuvRange: range, planes: [yPlane, uPlane, vPlane])
    }

    /// Creates an image from one contiguous planar YUV buffer: the tightly packed Y plane, then
    /// U, then V (the layout of a YUV4MPEG2 frame or an `ffmpeg -pix_fmt yuv420p` raw frame).
    public init(contiguousPlanarYUV format: PixelFormat = .i420, bytes: [UInt8], width: Int, height: Int,
                range: YUVColorRange = .video, orientation: ImageOrientation = .up,
                limits: ImageLimits = .default) throws {
        try limits.validate(width: width, height: height)
        let (chromaWidth, chromaHeight) = try Self.chromaSize(format: format, width: width, height: height)
        let lumaBytes = width * height, chromaBytes = chromaWidth * chromaHeight
        let yPlane = try ImagePlane(name: "Y", bytes: bytes, offset: 0, bytesPerRow: width,
                                    rowBytes: width, rows: height)
        let uPlane = try ImagePlane(name: "U", bytes: bytes, offset: lumaBytes, bytesPerRow: chromaWidth,
                                    rowBytes: chromaWidth, rows: chromaHeight)
        let vPlane = try ImagePlane(name: "V", bytes: bytes, offset: lumaBytes + chromaBytes,
                                    bytesPerRow: chromaWidth, rowBytes: chromaWidth, rows: chromaHeight)
        self.init(format: format, width: width, height: height, orientation: orientation,
                  yuvRange: range, planes: [yPlane, uPlane, vPlane])
    }

    init(format: PixelFormat, width: Int, height: Int, orientation: ImageOrientation,
         yuvRange: YUVColorRange, planes: [ImagePlane]) {
        self.format = format
        self.width = width
        self.height = height
        self.orientation = orientation
        self.yuvRange = yuvRange
        self.planes = planes
    }

    /// Chroma plane size of a planar YUV format.
    static func chromaSize(format: PixelFormat, width: Int, height: Int) throws -> (Int, Int) {
        switch format {
        case .i420: return ((width + 1) / 2, (height + 1) / 2)
        case .i422: return ((width + 1) / 2, height)
        case .i444: return (width, height)
        default: throw ImageError.invalidParameters("\(format) is not a planar YUV format")
        }
    }

    /// The stored buffer converted to tightly packed RGB8, without applying the orientation.
    public func storedRGB() -> RGBImage {
        if format == .rgb8, planes[0].offset == 0, planes[0].bytesPerRow == width * 3,
           planes[0].bytes.count == width * height * 3 {
            return RGBImage(validatedWidth: width, height: height, pixels: planes[0].bytes)
        }
        var out = [UInt8](repeating: 0, count: width * height * 3)
        PixelConversion.convertToRGB(self, into: &out)
        return RGBImage(validatedWidth: width, height: height, pixels: out)
    }

    /// The canonical upright RGB8 image: the buffer converted to RGB and transformed by its
    /// orientation. Its size is ``uprightWidth`` × ``uprightHeight``.
    /// - Complexity: O(width × height); no copy for tightly packed `.rgb8` buffers that are `.up`.
    public func uprightRGB() -> RGBImage {
        if format.isYUV, orientation != .up {
            return PixelConversion.uprightRGB(fromYUV: self)
        }
        let stored = storedRGB()
        guard orientation != .up else { return stored }
        return PixelConversion.reorient(stored, orientation: orientation)
    }

    /// The same image stored as tightly packed RGB, orientation unchanged. Preprocessing it
    /// repeatedly (one crop per detected object, say) then skips the color conversion.
    public func convertedToRGB() -> VisionImage {
        var converted = VisionImage(storedRGB(), orientation: orientation)
        converted.reducedScaleSource = reducedScaleSource
        return converted
    }
}
