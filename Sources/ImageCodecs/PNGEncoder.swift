import CLibPNG
import Foundation
import ObjectDetection

/// Encodes images as 8-bit PNG with libpng's simplified write API.
public enum PNGEncoder {
    /// Encodes an RGB image to PNG bytes.
    ///
    /// - Parameter fast: favour speed over size (libpng `PNG_IMAGE_FLAG_FAST`: several times
    ///   faster, larger files); meant for intermediate files such as annotated frames.
    public static func encode(_ image: RGBImage, fast: Bool = false) throws -> [UInt8] {
        try encode(pixels: image.pixels, width: image.width, height: image.height, channels: 3, fast: fast)
    }

    /// Encodes tightly packed 8-bit gray (`channels == 1`) or RGB (`channels == 3`) samples.
    public static func encode(pixels: [UInt8], width: Int, height: Int, channels: Int,
                              fast: Bool = false) throws -> [UInt8] {
        guard channels == 1 || channels == 3 else {
            throw ImageCodecError.encodingFailed("unsupported channel count \(channels)")
        }
        guard width > 0, height > 0, width <= Int(Int32.max) / 4, height <= Int(UInt32.max),
              pixels.count == width * height * channels else {
            throw ImageCodecError.encodingFailed("buffer of \(pixels.count) bytes does not hold \(width)x\(height)x\(channels)")
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = channels == 3 ? UInt32(PNG_FORMAT_FLAG_COLOR) : 0
        if fast { image.flags |= UInt32(PNG_IMAGE_FLAG_FAST) }
        let rowStride = Int32(width * channels)
        return try pixels.withUnsafeBytes { raw -> [UInt8] in
            // Compress once into a buffer that is almost always large enough; libpng reports
            // the size it needs when it is not, and the second attempt uses that.
            var capacity = pixels.count + pixels.count / 8 + height + 65_536
            for _ in 0..<2 {
                var out = [UInt8](repeating: 0, count: capacity)
                var size = capacity
                let ok = out.withUnsafeMutableBytes { dst in
                    png_image_write_to_memory(&image, dst.baseAddress, &size, 0, raw.baseAddress, rowStride, nil)
                }
                if ok != 0 {
                    out.removeLast(out.count - size)
                    return out
                }
                guard size > capacity else { break }
                capacity = size
            }
            throw ImageCodecError.encodingFailed(PNGDecoder.message(of: &image))
        }
    }

    /// Encodes an RGB image and writes it to `path` (replacing an existing file).
    public static func write(_ image: RGBImage, to path: String, fast: Bool = false) throws {
        try RegularFile.write(try encode(image, fast: fast), to: path)
    }
}
