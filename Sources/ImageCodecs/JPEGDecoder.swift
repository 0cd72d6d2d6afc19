import CTurboJPEG
import Foundation
import ObjectDetection

/// Decodes JPEG files with libjpeg-turbo's TurboJPEG API.
///
/// Baseline and progressive files decode; grayscale files to one channel, YCbCr and RGB files
/// to RGB, CMYK and YCCK files to RGB by the naive formula (Adobe files, which store inverted
/// samples and carry an APP14 `Adobe` segment: `R = C·K / 255`; others:
/// `R = (255 − C)(255 − K) / 255`; no color management). The EXIF orientation is read from
/// the APP1 segment and returned, not applied, so the pixels stay as stored.
///
/// Hostile input: the header's size is checked against ``ImageLimits`` before any pixel
/// memory is allocated (also at full size, since progressive decoding buffers the whole
/// image's coefficients), and so is the decode's peak memory (``ImageLimits/maxDecodeByteCount``:
/// samples, CMYK conversion, buffered coefficients) and the end-of-image marker (a file cut short is refused
/// before it is decoded); progressive files are limited to 500 scans; fatal library errors
/// throw typed errors. EXIF offsets and counts are bounds-checked (``JPEGMarkers``). Recoverable
/// corruption warnings in complete files (extraneous bytes before a marker, say) are
/// tolerated, as photo viewers do.
public enum JPEGDecoder {
    /// A decoded JPEG: `width × height × channels` bytes, row-major, no padding.
    public struct DecodedImage: Sendable, Equatable {
        /// Width of the decoded pixels (after any scaling).
        public let width: Int
        /// Height of the decoded pixels (after any scaling).
        public let height: Int
        /// 1 (gray) or 3 (RGB).
        public let channels: Int
        /// Tightly packed samples.
        public let pixels: [UInt8]
        /// The EXIF orientation; `.up` when the file has none.
        public let orientation: ImageOrientation
        /// Width of the image at full scale.
        public let fullWidth: Int
        /// Height of the image at full scale.
        public let fullHeight: Int
        /// Decoded size over full size (1, 1/2, 1/4 or 1/8 when a reduced scale was asked for).
        public let scale: Double
    }

    /// The first three bytes of every JPEG file (SOI and the next marker's FF).
    static let signature: [UInt8] = [0xFF, 0xD8, 0xFF]

    /// The reduced scales offered, largest reduction first.
    static let reducedScales = [8, 4, 2]

    /// Decodes a JPEG held in memory.
    ///
    /// - Parameters:
    ///   - limits: checked on the full-size image before anything is allocated.
    ///   - minimumShortSide: when given, decode at the smallest of 1/8, 1/4 and 1/2 scale
    ///     whose shorter side still has at least this many pixels (full scale when none has);
    ///     libjpeg-turbo then skips most of the inverse DCT work. Use it when the model input
    ///     is much smaller than the photo; the pixels are then the reduced image's
    ///     (`VisionImage(jpegData:)` records the reduction so detection results come out in
    ///     the full photo's coordinates).
    /// - Throws: ``ImageCodecError/invalidJPEG(_:)`` for data that is not a JPEG or that the
    ///   library rejects, ``ImageCodecError/truncatedJPEG(bytes:)`` for a file cut short,
    ///   ``ImageCodecError/image(_:)`` when the size exceeds `limits`.
    public static func decode(_ data: [UInt8], limits: ImageLimits = .default,
                              minimumShortSide: Int? = nil) throws -> DecodedImage {
        guard data.count >= signature.count, Array(data[0..<signature.count]) == signature else {
            throw ImageCodecError.invalidJPEG("missing JPEG start-of-image marker")
        }
        guard data.count <= Int(Int32.max) else {
            throw ImageCodecError.invalidJPEG("file of \(data.count) bytes is larger than 2 GiB")
        }
        let markers = JPEGMarkers(data)
        guard let handle = tjInitDecompress() else {
            throw ImageCodecError.invalidJPEG("libjpeg-turbo could not create a decompressor")
        }
        defer { tjDestroy(handle) }
        return try data.withUnsafeBufferPointer { buffer -> DecodedImage in
            let size = UInt(buffer.count)
            var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
            guard tjDecompressHeader3(handle, buffer.baseAddress, size, &width, &height, &subsampling, &colorspace) == 0 else {
                throw ImageCodecError.invalidJPEG(message(handle))
            }
            let fullWidth = Int(width), fullHeight = Int(height)
            guard fullWidth > 0, fullHeight > 0 else {
                throw ImageCodecError.invalidJPEG("the header gives no image size (\(fullWidth)x\(fullHeight))")
            }
            do throws(ImageError) {
                try limits.validate(width: fullWidth, height: fullHeight)
            } catch {
                throw ImageCodecError.image(error)
            }
            // A file cut short is refused here, before its pixels are allocated and decoded: a
            // header claiming 16000×16000 followed by a few bytes would otherwise cost 768 MB
            // and seconds of decoding gray before the missing end-of-image marker is noticed.
            guard markers.hasEndOfImage else { throw ImageCodecError.truncatedJPEG(bytes: data.count) }
            let divisor = scaleDivisor(width: fullWidth, height: fullHeight, minimumShortSide: minimumShortSide)
            let outWidth = (fullWidth + divisor - 1) / divisor, outHeight = (fullHeight + divisor - 1) / divisor
            let gray = colorspace == Int32(TJCS_GRAY.rawValue)
            let cmyk = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
            let (pixelFormat, decodedChannels) = gray ? (TJPF_GRAY, 1) : cmyk ? (TJPF_CMYK, 4) : (TJPF_RGB, 3)
            let pitch = outWidth * decodedChannels
            guard pitch <= Int(Int32.max) else {
                throw ImageCodecError.invalidJPEG("rows of \(outWidth) pixels are too long for libjpeg-turbo")
            }
            // The decode's peak memory, from the header, before anything is allocated.
            let (bytes, reason) = decodeByteCount(width: fullWidth, height: fullHeight, outWidth: outWidth,
                                                  outHeight: outHeight, decodedChannels: decodedChannels,
                                                  convertsCMYK: cmyk, markers: markers)
            do throws(ImageError) {
                try limits.validateDecode(width: fullWidth, height: fullHeight, bytes: bytes, reason: reason)
            } catch {
                throw ImageCodecError.image(error)
            }
            var pixels = [UInt8](repeating: 0, count: pitch * outHeight)
            let flags = Int32(TJFLAG_LIMITSCANS) | Int32(TJFLAG_ACCURATEDCT)
            let status = pixels.withUnsafeMutableBufferPointer { out in
                tjDecompress2(handle, buffer.baseAddress, size, out.baseAddress, Int32(outWidth), Int32(pitch),
                              Int32(outHeight), Int32(pixelFormat.rawValue), flags)
            }
            if status != 0, tjGetErrorCode(handle) == Int32(TJERR_FATAL.rawValue) {
                throw ImageCodecError.invalidJPEG(message(handle))
            }
            if cmyk { pixels = rgb(fromCMYK: pixels, inverted: markers.hasAdobeSegment) }
            return DecodedImage(width: outWidth, height: outHeight, channels: gray ? 1 : 3, pixels: pixels,
                                orientation: markers.orientation ?? .up, fullWidth: fullWidth, fullHeight: fullHeight,
                                scale: 1 / Double(divisor))
        }
    }

    /// Decodes a JPEG file.
    public static func decode(contentsOf path: String, limits: ImageLimits = .default,
                              minimumShortSide: Int? = nil) throws -> DecodedImage {
        try decode(PNGDecoder.readFile(path), limits: limits, minimumShortSide: minimumShortSide)
    }

    /// The peak bytes a decode takes and what they are: the decoded samples, plus the larger of
    /// the RGB copy a CMYK file is converted into (made after libjpeg has freed its memory) and,
    /// for progressive and multi-scan files, the whole image's DCT coefficients that libjpeg
    /// buffers at full scale whatever the output scale (64 two-byte coefficients per 8×8 block
    /// of each component, blocks rounded up to whole MCUs). Saturates at `Int.max`.
    static func decodeByteCount(width: Int, height: Int, outWidth: Int, outHeight: Int, decodedChannels: Int,
                                convertsCMYK: Bool, markers: JPEGMarkers) -> (bytes: Int, reason: String) {
        func product(_ values: Int...) -> Int {
            values.reduce(1) { a, b in
                let (r, o) = a.multipliedReportingOverflow(by: max(0, b))
                return o ? Int.max : r
            }
        }
        func sum(_ values: Int...) -> Int {
            values.reduce(0) { a, b in
                let (r, o) = a.addingReportingOverflow(b)
                return o ? Int.max : r
            }
        }
        let samples = product(outWidth, outHeight, decodedChannels)
        let rgb = convertsCMYK ? product(outWidth, outHeight, 3) : 0
        var coefficients = 0
        if markers.buffersCoefficients, !markers.componentSampling.isEmpty {
            let hMax = markers.componentSampling.map(\.horizontal).max()!
            let vMax = markers.componentSampling.map(\.vertical).max()!
            let mcuColumns = (width + 8 * hMax - 1) / (8 * hMax), mcuRows = (height + 8 * vMax - 1) / (8 * vMax)
            for component in markers.componentSampling {
                coefficients = sum(coefficients, product(mcuColumns, component.horizontal, mcuRows, component.vertical, 128))
            }
        }
        var parts = ["\(decodedChannels)-channel samples"]
        if convertsCMYK { parts.append("their RGB conversion") }
        if coefficients > 0 { parts.append("\(markers.isProgressive ? "progressive" : "multi-scan") coefficients of \(markers.componentSampling.count) components") }
        return (sum(samples, max(rgb, coefficients)), parts.joined(separator: ", "))
    }

    /// The largest of 8, 4, 2 that keeps the shorter side at `minimumShortSide` or more; 1 otherwise.
    static func scaleDivisor(width: Int, height: Int, minimumShortSide: Int?) -> Int {
        guard let minimumShortSide, minimumShortSide > 0 else { return 1 }
        let shortSide = min(width, height)
        return reducedScales.first { (shortSide + $0 - 1) / $0 >= minimumShortSide } ?? 1
    }

    /// Converts packed CMYK samples to RGB.
    static func rgb(fromCMYK cmyk: [UInt8], inverted: Bool) -> [UInt8] {
        let count = cmyk.count / 4
        var out = [UInt8](repeating: 0, count: count * 3)
        for p in 0..<count {
            var k = Int(cmyk[4 * p + 3])
            if !inverted { k = 255 - k }
            for c in 0..<3 {
                let ink = inverted ? Int(cmyk[4 * p + c]) : 255 - Int(cmyk[4 * p + c])
                out[3 * p + c] = UInt8((ink * k + 127) / 255)
            }
        }
        return out
    }

    /// The library's last error message for `handle`.
    static func message(_ handle: tjhandle?) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "libjpeg-turbo reported an error" }
        let string = String(cString: text)
        return string.isEmpty ? "libjpeg-turbo reported an error" : string
    }
}
