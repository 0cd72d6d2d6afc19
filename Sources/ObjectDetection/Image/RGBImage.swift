/// A tightly packed, row-major RGB8 image: the canonical upright representation.
///
/// Pixel `(x, y)` occupies `pixels[(y * width + x) * 3 ..< +3]` as red, green, blue.
public struct RGBImage: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width × height × 3` bytes, row-major, RGB order, no row padding.
    public private(set) var pixels: [UInt8]

    /// Wraps existing pixels; throws when `pixels.count != width × height × 3`.
    public init(width: Int, height: Int, pixels: [UInt8], limits: ImageLimits = .default) throws {
        try limits.validate(width: width, height: height)
        guard pixels.count == width * height * 3 else {
            throw ImageError.bufferTooShort(plane: "RGB", required: width * height * 3, actual: pixels.count)
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Creates an image filled with one color.
    public init(width: Int, height: Int, fill: RGBColor = .black, limits: ImageLimits = .default) throws {
        try limits.validate(width: width, height: height)
        self.width = width
        self.height = height
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        if fill != .black {
            for i in stride(from: 0, to: bytes.count, by: 3) {
                bytes[i] = fill.red
                bytes[i + 1] = fill.green
                bytes[i + 2] = fill.blue
            }
        }
        self.pixels = bytes
    }

    /// Internal initializer for buffers whose size the caller has already validated.
    init(validatedWidth width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 3)
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The color at `(x, y)`; both coordinates must be in range.
    public subscript(x: Int, y: Int) -> RGBColor {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
            let i = (y * width + x) * 3
            return RGBColor(red: pixels[i], green: pixels[i + 1], blue: pixels[i + 2])
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
            let i = (y * width + x) * 3
            pixels[i] = newValue.red
            pixels[i + 1] = newValue.green
            pixels[i + 2] = newValue.blue
        }
    }

    /// Gives mutable access to the raw pixel bytes (for drawing and in-place filters).
    public mutating func withMutablePixels<R>(_ body: (inout [UInt8]) throws -> R) rethrows -> R {
        try body(&pixels)
    }
}
