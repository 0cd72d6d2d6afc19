import CLibPNG
import Foundation
import ObjectDetection

/// Decodes PNG files with libpng's simplified `png_image_*` API (errors are reported in the
/// `png_image` structure, so no setjmp/longjmp crosses Swift frames).
///
/// Every PNG flavour (gray, gray+alpha, RGB, RGBA, palette, 1–16 bits per sample) decodes to
/// 8-bit samples: grayscale files to one channel, color files to RGB. Alpha is dropped (not
/// composited). 16-bit samples are treated as sRGB-encoded when the file carries no gamma
/// information and reduced to 8 bits by libpng. Files with a `gAMA` chunk other than sRGB's
/// are converted to sRGB by libpng (most photos carry none, or sRGB's). The image size is checked against
/// ``ImageLimits`` before the pixel buffer is allocated.
public enum PNGDecoder {
    /// A decoded PNG: `width × height × channels` bytes, row-major, no padding.
    public struct DecodedImage: Sendable, Equatable {
        /// Width in pixels.
        public let width: Int
        /// Height in pixels.
        public let height: Int
        /// 1 (gray) or 3 (RGB).
        public let channels: Int
        /// Tightly packed samples.
        public let pixels: [UInt8]
    }

    /// The eight-byte PNG signature.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Decodes a PNG held in memory.
    /// - Throws: ``ImageCodecError/invalidPNG(_:)`` for corrupt or truncated data,
    ///   ``ImageCodecError/image(_:)`` when the size exceeds `limits`.
    public static func decode(_ data: [UInt8], limits: ImageLimits = .default) throws -> DecodedImage {
        guard data.count >= signature.count, Array(data[0..<signature.count]) == signature else {
            throw ImageCodecError.invalidPNG("missing PNG signature")
        }
        return try data.withUnsafeBytes { raw -> DecodedImage in
            var image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
                throw ImageCodecError.invalidPNG(message(of: &image))
            }
            // From here on libpng owns memory in image.opaque until finish_read or png_image_free.
            let width = Int(image.width), height = Int(image.height)
            do throws(ImageError) {
                try limits.validate(width: width, height: height)
            } catch {
                png_image_free(&image)
                throw ImageCodecError.image(error)
            }
            let fileFormat = image.format
            let isColor = fileFormat & UInt32(PNG_FORMAT_FLAG_COLOR) != 0
            let hasAlpha = fileFormat & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0
            if fileFormat & UInt32(PNG_FORMAT_FLAG_LINEAR) != 0 {
                image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
            }
            // Read with alpha when the file has it (so nothing is composited), then drop it.
            let readChannels = (isColor ? 3 : 1) + (hasAlpha ? 1 : 0)
            image.format = (isColor ? UInt32(PNG_FORMAT_FLAG_COLOR) : 0) | (hasAlpha ? UInt32(PNG_FORMAT_FLAG_ALPHA) : 0)
            let rowStride = width * readChannels
            guard rowStride <= Int(Int32.max) else {
                png_image_free(&image)
                throw ImageCodecError.invalidPNG("rows of \(width) pixels are too long for libpng")
            }
            var buffer = [UInt8](repeating: 0, count: rowStride * height)
            let ok = buffer.withUnsafeMutableBytes { out in
                png_image_finish_read(&image, nil, out.baseAddress, Int32(rowStride), nil)
            }
            guard ok != 0, image.warning_or_error & 0x03 <= 1 else {
                let text = message(of: &image)
                png_image_free(&image)
                throw ImageCodecError.invalidPNG(text)
            }
            let channels = isColor ? 3 : 1
            if hasAlpha {
                buffer = dropAlpha(buffer, pixelCount: width * height, channels: channels)
            }
            return DecodedImage(width: width, height: height, channels: channels, pixels: buffer)
        }
    }

    /// Decodes a PNG file.
    public static func decode(contentsOf path: String, limits: ImageLimits = .default) throws -> DecodedImage {
        try decode(readFile(path), limits: limits)
    }

    /// Reads a whole regular file into memory with a typed error (directories and special
    /// files are refused by name).
    static func readFile(_ path: String) throws -> [UInt8] {
        try RegularFile.read(path)
    }

    private static func dropAlpha(_ buffer: [UInt8], pixelCount: Int, channels: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: pixelCount * channels)
        let stride = channels + 1
        for p in 0..<pixelCount {
            for c in 0..<channels { out[p * channels + c] = buffer[p * stride + c] }
        }
        return out
    }

    /// The NUL-terminated message libpng stored in the control structure.
    static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            let text = String(decoding: bytes, as: UTF8.self)
            return text.isEmpty ? "libpng reported an error" : text
        }
    }
}
