import Foundation
@testable import ImageCodecs
import ObjectDetection
import XCTest

/// The worst JPEG within the pixel cap — progressive CMYK at 2^28 pixels, whose decode would
/// buffer 2 GiB of coefficients next to 1 GiB of samples — is refused with a typed error before
/// anything is allocated; the estimate behind it is exact on small files (one byte less of
/// ``ImageLimits/maxDecodeByteCount`` refuses, the estimate itself decodes).
final class JPEGDecodeMemoryTests: XCTestCase {
    /// A progressive CMYK JPEG of `width × height` (all components sampled 1×1).
    private func progressiveCMYK(width: Int, height: Int) throws -> [UInt8] {
        let pixels = (0..<(width * height * 4)).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        return try JPEGEncoder.encode(pixels: pixels, width: width, height: height, channels: 4,
                                      options: .init(quality: 90, progressive: true, fullChroma: true))
    }

    /// `jpeg` with its frame header claiming `side × side`.
    private func claiming(_ jpeg: [UInt8], side: Int) throws -> [UInt8] {
        var bytes = jpeg
        let sof = try XCTUnwrap((2..<bytes.count - 8).first { bytes[$0] == 0xFF && [0xC0, 0xC2].contains(bytes[$0 + 1]) })
        for k in [5, 7] { bytes[sof + k] = UInt8(side >> 8); bytes[sof + k + 1] = UInt8(side & 0xFF) }
        return bytes
    }

    func testWorstCaseWithinThePixelCapFailsTypedWithoutAllocating() throws {
        let worst = try claiming(try progressiveCMYK(width: 16, height: 16), side: 16384)
        let markers = JPEGMarkers(worst)
        XCTAssertTrue(markers.isProgressive)
        XCTAssertTrue(markers.buffersCoefficients)
        XCTAssertEqual(markers.componentSampling.count, 4)
        XCTAssertEqual(16384 * 16384, ImageLimits.default.maxPixelCount, "exactly at the default pixel cap")
        let before = PeakMemory.residentBytes
        XCTAssertThrowsError(try JPEGDecoder.decode(worst)) { error in
            guard case .image(.decodeTooLarge(16384, 16384, let bytes, let limit, let reason))? = error as? ImageCodecError else {
                return XCTFail("\(error)")
            }
            // 1 GiB of CMYK samples and 2 GiB of coefficients (4 components × 2^22 blocks × 128 bytes).
            XCTAssertEqual(bytes, 3 << 30)
            XCTAssertEqual(limit, 2 << 30)
            XCTAssertTrue(reason.contains("progressive coefficients of 4 components"), reason)
            XCTAssertTrue("\(error)".contains("ImageLimits.maxDecodeByteCount"), "\(error)")
        }
        // The same through the format-sniffing entry point and at a reduced scale (the
        // coefficients are buffered at full size whatever the output scale).
        XCTAssertThrowsError(try VisionImage(imageData: worst, minimumShortSide: 300)) { error in
            guard case .image(.decodeTooLarge)? = error as? ImageCodecError else { return XCTFail("\(error)") }
        }
        XCTAssertLessThan(PeakMemory.residentBytes - before, 256 << 20, "nothing of the 3 GiB may be allocated")
    }

    func testOtherImagesAtTheCapStayWithinThePolicy() throws {
        func estimate(_ jpeg: [UInt8], channels: Int, cmyk: Bool) throws -> Int {
            let markers = JPEGMarkers(try claiming(jpeg, side: 16384))
            return JPEGDecoder.decodeByteCount(width: 16384, height: 16384, outWidth: 16384, outHeight: 16384,
                                               decodedChannels: channels, convertsCMYK: cmyk, markers: markers).bytes
        }
        let rgb = (0..<(16 * 16 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 11) }
        // Progressive 4:2:0 RGB: 768 MiB of samples, 768 MiB of coefficients (Y 2×2, Cb and Cr 1×1).
        let progressive420 = try JPEGEncoder.encode(pixels: rgb, width: 16, height: 16, channels: 3,
                                                    options: .init(quality: 90, progressive: true))
        XCTAssertEqual(try estimate(progressive420, channels: 3, cmyk: false), (768 << 20) + (768 << 20))
        // Baseline CMYK: 1 GiB of samples, then a 768 MiB RGB conversion; no coefficients buffered.
        var cmyk = [UInt8](repeating: 0, count: 16 * 16 * 4)
        for p in 0..<(16 * 16) { cmyk[4 * p] = UInt8(p) }
        let baselineCMYK = try JPEGEncoder.encode(pixels: cmyk, width: 16, height: 16, channels: 4, options: .init(quality: 90))
        XCTAssertFalse(JPEGMarkers(baselineCMYK).buffersCoefficients)
        XCTAssertEqual(try estimate(baselineCMYK, channels: 4, cmyk: true), (1 << 30) + (768 << 20))
        for bytes in [try estimate(progressive420, channels: 3, cmyk: false), try estimate(baselineCMYK, channels: 4, cmyk: true)] {
            XCTAssertLessThanOrEqual(bytes, ImageLimits.default.maxDecodeByteCount)
        }
    }

    func testTheEstimateIsTheLimitThatDecodes() throws {
        // 64×48 progressive CMYK: 12,288 bytes of samples + 48 blocks × 4 components × 128 bytes.
        let jpeg = try progressiveCMYK(width: 64, height: 48)
        let needed = 64 * 48 * 4 + 48 * 4 * 128
        XCTAssertThrowsError(try JPEGDecoder.decode(jpeg, limits: ImageLimits(maxDecodeByteCount: needed - 1))) { error in
            XCTAssertEqual(error as? ImageCodecError,
                           .image(.decodeTooLarge(width: 64, height: 48, bytes: needed, limit: needed - 1,
                                                  reason: "4-channel samples, their RGB conversion, progressive coefficients of 4 components")))
        }
        let decoded = try JPEGDecoder.decode(jpeg, limits: ImageLimits(maxDecodeByteCount: needed))
        XCTAssertEqual([decoded.width, decoded.height, decoded.channels], [64, 48, 3])
    }
}
