import ObjectDetection

/// What the marker segments of a JPEG file say beyond the pixels: the EXIF orientation
/// (APP1), whether an Adobe APP14 segment is present (it marks inverted CMYK samples), and
/// whether the entropy-coded data is followed by an end-of-image marker (a file cut short
/// lacks it).
///
/// Every length and offset is checked against the data before it is used; a segment whose
/// length runs past the data ends the walk (the decoder then reports the corruption), and a
/// malformed EXIF block is ignored (orientation `.up`), as photo viewers do.
struct JPEGMarkers: Equatable {
    /// The EXIF orientation tag (0x0112) of IFD0, when present and in 1...8.
    var orientation: ImageOrientation?
    /// An APP14 segment starting with `Adobe` was found.
    var hasAdobeSegment = false
    /// An end-of-image marker (FFD9) follows the first start-of-scan marker.
    var hasEndOfImage = false
    /// The frame header is progressive (SOF2, SOF6, SOF10 or SOF14).
    var isProgressive = false
    /// Sampling factors of one frame component.
    struct Sampling: Equatable {
        var horizontal: Int
        var vertical: Int
    }
    /// Sampling factors of each frame component (from the SOF segment).
    var componentSampling: [Sampling] = []
    /// Components in the first scan; fewer than the frame's means a multi-scan file, which the
    /// decoder buffers whole as a progressive one.
    var firstScanComponentCount = 0

    /// True when libjpeg must buffer the whole image's DCT coefficients (progressive or
    /// multi-scan files): 128 bytes per 8×8 block of every component.
    var buffersCoefficients: Bool {
        isProgressive || (firstScanComponentCount > 0 && firstScanComponentCount < componentSampling.count)
    }

    /// The two-byte start-of-image marker every JPEG begins with.
    static let startOfImage: [UInt8] = [0xFF, 0xD8]

    /// Walks the segments of `data` up to the first start of scan, then looks for the
    /// end-of-image marker after it.
    /// - Complexity: O(header size) for the segments, O(data.count) for the end-of-image scan.
    init(_ data: [UInt8]) {
        guard data.count >= 4, data[0] == 0xFF, data[1] == 0xD8 else { return }
        var position = 2
        while position + 1 < data.count {
            // Extraneous bytes before a marker are skipped, as libjpeg does (with a warning).
            guard data[position] == 0xFF else { position += 1; continue }
            let marker = data[position + 1]
            if marker == 0xFF { position += 1; continue }   // fill byte
            position += 2
            // Standalone markers carry no length.
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            if marker == 0xD9 { hasEndOfImage = true; return }
            guard position + 1 < data.count else { return }
            let length = Int(data[position]) << 8 | Int(data[position + 1])
            guard length >= 2, position + length <= data.count else { return }
            let payload = (position + 2)..<(position + length)
            switch marker {
            case 0xE1 where orientation == nil:
                orientation = Self.exifOrientation(data, payload)
            case 0xEE:
                hasAdobeSegment = hasAdobeSegment || Self.startsWith(data, payload, Array("Adobe".utf8))
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC && componentSampling.isEmpty:
                // SOFn: precision, height, width, component count, then (id, sampling, table) each.
                isProgressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(marker)
                if payload.count >= 6 {
                    let count = Int(data[payload.lowerBound + 5])
                    for k in 0..<count where payload.lowerBound + 6 + 3 * k + 2 < payload.upperBound {
                        let factors = data[payload.lowerBound + 6 + 3 * k + 1]
                        componentSampling.append(Sampling(horizontal: max(1, Int(factors >> 4)), vertical: max(1, Int(factors & 15))))
                    }
                }
            case 0xDA:
                if !payload.isEmpty { firstScanComponentCount = Int(data[payload.lowerBound]) }
                hasEndOfImage = Self.containsEndOfImage(data, from: position + length)
                return
            default:
                break
            }
            position += length
        }
    }

    private static func startsWith(_ data: [UInt8], _ range: Range<Int>, _ prefix: [UInt8]) -> Bool {
        range.count >= prefix.count && data[range.lowerBound..<(range.lowerBound + prefix.count)].elementsEqual(prefix)
    }

    /// Entropy-coded data never holds FF D9 (a coded FF is followed by 00), so an FF D9 after
    /// the first scan header is the end-of-image marker of this image.
    private static func containsEndOfImage(_ data: [UInt8], from start: Int) -> Bool {
        guard start < data.count - 1 else { return false }
        var i = start
        while i < data.count - 1 {
            if data[i] == 0xFF && data[i + 1] == 0xD9 { return true }
            i += 1
        }
        return false
    }

    /// The orientation in an APP1 payload `Exif\0\0` + TIFF header + IFD0; nil when absent,
    /// out of range or malformed.
    static func exifOrientation(_ data: [UInt8], _ payload: Range<Int>) -> ImageOrientation? {
        let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]
        guard startsWith(data, payload, exifHeader) else { return nil }
        let tiff = payload.lowerBound + exifHeader.count
        let end = payload.upperBound
        guard tiff + 8 <= end else { return nil }
        let bigEndian: Bool
        switch (data[tiff], data[tiff + 1]) {
        case (0x4D, 0x4D): bigEndian = true
        case (0x49, 0x49): bigEndian = false
        default: return nil
        }
        /// An unsigned integer of `size` bytes at `offset` from the TIFF header, nil outside the payload.
        func read(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, offset <= end - tiff - size else { return nil }
            var value = 0
            for k in 0..<size {
                let byte = Int(data[tiff + offset + (bigEndian ? k : size - 1 - k)])
                value = value << 8 | byte
            }
            return value
        }
        guard read(2, 2) == 42, let ifd = read(4, 4), let count = read(ifd, 2) else { return nil }
        for entry in 0..<count {
            let at = ifd + 2 + 12 * entry
            guard let tag = read(at, 2) else { return nil }
            guard tag == 0x0112 else { continue }
            // SHORT (type 3), count 1: the value sits in the first two bytes of the value field.
            guard read(at + 2, 2) == 3, read(at + 4, 4) == 1, let value = read(at + 8, 2) else { return nil }
            return ImageOrientation(exifValue: value)
        }
        return nil
    }
}
