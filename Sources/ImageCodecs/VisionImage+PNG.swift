import Foundation
import ObjectDetection

extension VisionImage {
    /// Creates an image from PNG bytes: grayscale files become `.gray8`, color files `.rgb8`.
    public init(pngData data: [UInt8], orientation: ImageOrientation = .up,
                limits: ImageLimits = .default) throws {
        let decoded = try PNGDecoder.decode(data, limits: limits)
        try self.init(pixels: decoded.pixels, width: decoded.width, height: decoded.height,
                      format: decoded.channels == 1 ? .gray8 : .rgb8, orientation: orientation, limits: limits)
    }

    /// Creates an image from PNG bytes held in `Data`.
    public init(pngData data: Data, orientation: ImageOrientation = .up, limits: ImageLimits = .default) throws {
        try self.init(pngData: [UInt8](data), orientation: orientation, limits: limits)
    }

    /// Creates an image from a PNG file.
    public init(pngFile path: String, orientation: ImageOrientation = .up,
                limits: ImageLimits = .default) throws {
        try self.init(pngData: PNGDecoder.readFile(path), orientation: orientation, limits: limits)
    }

    /// The upright image encoded as an RGB PNG.
    public func pngData() throws -> [UInt8] {
        try PNGEncoder.encode(uprightRGB())
    }
}

extension RGBImage {
    /// Decodes a PNG into RGB (grayscale files are expanded to three equal channels).
    public init(pngData data: [UInt8], limits: ImageLimits = .default) throws {
        self = try VisionImage(pngData: data, limits: limits).uprightRGB()
    }

    /// Decodes a PNG file into RGB.
    public init(pngFile path: String, limits: ImageLimits = .default) throws {
        self = try VisionImage(pngFile: path, limits: limits).uprightRGB()
    }

    /// Encodes the image as PNG bytes.
    public func pngData() throws -> [UInt8] {
        try PNGEncoder.encode(self)
    }

    /// Writes the image to a PNG file (`fast`: larger file, written several times faster).
    public func writePNG(to path: String, fast: Bool = false) throws {
        try PNGEncoder.write(self, to: path, fast: fast)
    }
}

extension VisionImage {
    /// Draws the annotations on the upright image and writes it as PNG in one pass.
    /// `fast` trades file size for speed (see ``PNGEncoder/encode(_:fast:)``).
    public func writeAnnotatedPNG(_ annotations: [ImageAnnotation], to path: String,
                                  thickness: Int? = nil, textScale: Int? = nil, fast: Bool = false) throws {
        let annotated = uprightRGB().annotated(with: annotations, thickness: thickness, textScale: textScale)
        try PNGEncoder.write(annotated, to: path, fast: fast)
    }
}
