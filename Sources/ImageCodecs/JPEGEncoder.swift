import CTurboJPEG
import Foundation
import ObjectDetection

/// Encodes images as JPEG with libjpeg-turbo's TurboJPEG API.
public enum JPEGEncoder {
    /// How the encoder stores the image.
    public struct Options: Sendable, Equatable {
        /// Quality 1...100 (default 90).
        public var quality: Int
        /// Write a progressive file instead of a baseline one.
        public var progressive: Bool
        /// Keep full chroma resolution (4:4:4) instead of 4:2:0.
        public var fullChroma: Bool

        /// Creates options.
        public init(quality: Int = 90, progressive: Bool = false, fullChroma: Bool = false) {
            self.quality = quality; self.progressive = progressive; self.fullChroma = fullChroma
        }
    }

    /// Encodes tightly packed 8-bit gray (`channels == 1`, a grayscale JPEG), RGB
    /// (`channels == 3`) or inverted CMYK (`channels == 4`, Adobe convention, a YCCK JPEG) samples.
    public static func encode(pixels: [UInt8], width: Int, height: Int, channels: Int,
                              options: Options = Options()) throws -> [UInt8] {
        let format: TJPF
        switch channels {
        case 1: format = TJPF_GRAY
        case 3: format = TJPF_RGB
        case 4: format = TJPF_CMYK
        default: throw ImageCodecError.encodingFailed("unsupported channel count \(channels)")
        }
        guard (1...100).contains(options.quality) else {
            throw ImageCodecError.encodingFailed("JPEG quality \(options.quality) is outside 1...100")
        }
        // JPEG stores 16-bit dimensions.
        guard width > 0, height > 0, width <= 65_535, height <= 65_535, pixels.count == width * height * channels else {
            throw ImageCodecError.encodingFailed("buffer of \(pixels.count) bytes does not hold \(width)x\(height)x\(channels) (JPEG sides are at most 65535)")
        }
        let subsampling = channels == 1 ? TJSAMP_GRAY : options.fullChroma ? TJSAMP_444 : TJSAMP_420
        guard let handle = tjInitCompress() else {
            throw ImageCodecError.encodingFailed("libjpeg-turbo could not create a compressor")
        }
        defer { tjDestroy(handle) }
        let capacity = tjBufSize(Int32(width), Int32(height), Int32(subsampling.rawValue))
        guard capacity != UInt(bitPattern: -1), capacity > 0 else {
            throw ImageCodecError.encodingFailed(JPEGDecoder.message(handle))
        }
        var out = [UInt8](repeating: 0, count: Int(capacity))
        var size = capacity
        var flags = Int32(TJFLAG_NOREALLOC) | Int32(TJFLAG_ACCURATEDCT)
        if options.progressive { flags |= Int32(TJFLAG_PROGRESSIVE) }
        let status = pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { destination -> Int32 in
                var pointer = destination.baseAddress
                return tjCompress2(handle, source.baseAddress, Int32(width), Int32(width * channels), Int32(height),
                                   Int32(format.rawValue), &pointer, &size, Int32(subsampling.rawValue),
                                   Int32(options.quality), flags)
            }
        }
        guard status == 0, size <= capacity else {
            throw ImageCodecError.encodingFailed(JPEGDecoder.message(handle))
        }
        out.removeLast(out.count - Int(size))
        return out
    }

    /// Encodes an RGB image.
    public static func encode(_ image: RGBImage, options: Options = Options()) throws -> [UInt8] {
        try encode(pixels: image.pixels, width: image.width, height: image.height, channels: 3, options: options)
    }

    /// Encodes an RGB image and writes it to `path` (replacing an existing file).
    public static func write(_ image: RGBImage, to path: String, options: Options = Options()) throws {
        let bytes = try encode(image, options: options)
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw ImageCodecError.fileAccess(path: path, reason: "cannot create file")
        }
    }
}
