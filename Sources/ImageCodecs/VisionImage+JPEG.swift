import Foundation
import ObjectDetection

extension VisionImage {
    /// Creates an image from JPEG bytes: grayscale files become `.gray8`, the others `.rgb8`.
    ///
    /// - Parameters:
    ///   - orientation: overrides the file's EXIF orientation; nil (default) uses the EXIF
    ///     orientation (`.up` when the file has none), so results come out upright.
    ///   - minimumShortSide: decode at a reduced scale (1/2, 1/4, 1/8) that keeps the shorter
    ///     side at least this long (see ``JPEGDecoder/decode(_:limits:minimumShortSide:)``;
    ///     `ObjectDetector/preferredMinimumShortSide` is what a detector's models need). The
    ///     buffer is then the reduced image, and ``reducedScaleSource`` records the full size
    ///     and the scale, so `ObjectDetector` still reports boxes in the full photo's pixels.
    public init(jpegData data: [UInt8], orientation: ImageOrientation? = nil,
                limits: ImageLimits = .default, minimumShortSide: Int? = nil) throws {
        let decoded = try JPEGDecoder.decode(data, limits: limits, minimumShortSide: minimumShortSide)
        try self.init(pixels: decoded.pixels, width: decoded.width, height: decoded.height,
                      format: decoded.channels == 1 ? .gray8 : .rgb8,
                      orientation: orientation ?? decoded.orientation, limits: limits)
        if decoded.scale < 1 {
            reducedScaleSource = ReducedScaleSource(width: decoded.fullWidth, height: decoded.fullHeight,
                                                    scale: 1 / decoded.scale)
        }
    }

    /// Creates an image from PNG or JPEG bytes, recognised from their signature.
    ///
    /// - Parameter orientation: nil (default) means the file's own orientation (EXIF for
    ///   JPEG, `.up` for PNG); a value overrides it.
    /// - Throws: ``ImageCodecError/unknownFormat(_:)`` for other data, and the decoders' errors.
    public init(imageData data: [UInt8], orientation: ImageOrientation? = nil,
                limits: ImageLimits = .default, minimumShortSide: Int? = nil) throws {
        switch ImageFileFormat(sniffing: data.prefix(ImageFileFormat.signatureLength)) {
        case .png:
            try self.init(pngData: data, orientation: orientation ?? .up, limits: limits)
        case .jpeg:
            try self.init(jpegData: data, orientation: orientation, limits: limits, minimumShortSide: minimumShortSide)
        case nil:
            let head = data.prefix(4).map { String(format: "%02X", $0) }.joined(separator: " ")
            throw ImageCodecError.unknownFormat("the data starts with \(head.isEmpty ? "nothing" : head)")
        }
    }

    /// Creates an image from a PNG or JPEG file; the format comes from the bytes, not the name.
    /// See ``init(imageData:orientation:limits:minimumShortSide:)``.
    public init(contentsOf path: String, orientation: ImageOrientation? = nil,
                limits: ImageLimits = .default, minimumShortSide: Int? = nil) throws {
        do {
            try self.init(imageData: PNGDecoder.readFile(path), orientation: orientation, limits: limits,
                          minimumShortSide: minimumShortSide)
        } catch ImageCodecError.unknownFormat(let message) {
            throw ImageCodecError.unknownFormat("\(path): \(message)")
        }
    }

    /// The upright image encoded as JPEG.
    public func jpegData(options: JPEGEncoder.Options = JPEGEncoder.Options()) throws -> [UInt8] {
        try JPEGEncoder.encode(uprightRGB(), options: options)
    }
}

extension RGBImage {
    /// Encodes the image as JPEG bytes.
    public func jpegData(options: JPEGEncoder.Options = JPEGEncoder.Options()) throws -> [UInt8] {
        try JPEGEncoder.encode(self, options: options)
    }

    /// Writes the image as JPEG when `path` ends in `.jpg` or `.jpeg` (any case), else as PNG.
    public func write(to path: String) throws {
        switch ImageFileFormat(outputPath: path) {
        case .jpeg: try JPEGEncoder.write(self, to: path)
        case .png: try PNGEncoder.write(self, to: path)
        }
    }
}
