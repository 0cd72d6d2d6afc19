import CLibPNG
import Foundation
import ObjectDetection

/// Encodes images as 8-bit PNG with libpng's simplified write API.
public enum PNGEncoder {
    /// Encodes an RGB image to PNG bytes.
    public static func encode(_ image: RGBImage) throws -> [UInt8] {
        try encode(pixels: image.pixels, width: image.width, height: image.height, channels: 3)
    }

    /// Encodes tightly packed 8-bit gray (`channels == 1`) or RGB (`channels == 3`) samples.
    public static func encode(pixels: [UInt8], width: Int, height: Int, channels: Int) throws -> [UInt8] {
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
        let rowStride = Int32(width * channels)
        return try pixels.withUnsafeBytes { raw -> [UInt8] in
            // First call measures the encoded size, second call writes.
            var size = 0
            guard png_image_write_to_memory(&image, nil, &size, 0, raw.baseAddress, rowStride, nil) != 0 else {
                throw ImageCodecError.encodingFailed(PNGDecoder.message(of: &image))
            }
            var out = [UInt8](repeating: 0, count: size)
            let ok = out.withUnsafeMutableBytes { dst in
                png_image_write_to_memory(&image, dst.baseAddress, &size, 0, raw.baseAddress, rowStride, nil)
            }
            guard ok != 0 else { throw ImageCodecError.encodingFailed(PNGDecoder.message(of: &image)) }
            if size < out.count { out.removeLast(out.count - size) }
            return out
        }
    }

    /// Encodes an RGB image and writes it to `path` (replacing an existing file).
    public static func write(_ image: RGBImage, to path: String) throws {
        let bytes = try encode(image)
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw ImageCodecError.fileAccess(path: path, reason: "cannot create file")
        }
    }
}
