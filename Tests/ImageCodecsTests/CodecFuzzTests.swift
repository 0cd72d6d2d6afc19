import Foundation
import ImageCodecs
import ObjectDetection
import TestSupport
import XCTest

/// Bounded mutation fuzzing of the PNG, JPEG and YUV4MPEG2 readers (FUZZ_SECONDS per target;
/// see `Scripts/fuzz.sh formats`): every mutated file decodes or throws a typed error, never
/// crashes, hangs or allocates beyond the image limits.
final class CodecFuzzTests: XCTestCase {
    func testMutatedPNGFilesDecodeOrThrow() throws {
        var seeds: [[UInt8]] = []
        for (width, height, channels) in [(1, 1, 1), (7, 5, 3), (16, 9, 3), (3, 33, 1)] {
            let pixels = (0..<(width * height * channels)).map { UInt8(truncatingIfNeeded: $0 &* 29) }
            seeds.append(try PNGEncoder.encode(pixels: pixels, width: width, height: height, channels: channels))
        }
        let limits = ImageLimits(maxPixelCount: 1 << 20)
        var fuzzer = MutationFuzzer(name: "png", seeds: seeds)
        let summary = fuzzer.run { bytes in _ = try PNGDecoder.decode(bytes, limits: limits) }
        XCTAssertGreaterThanOrEqual(summary.accepted, seeds.count)
    }

    func testMutatedJPEGFilesDecodeOrThrowTypedErrors() throws {
        /// A `width × height` crop at (`x`, `y`) of a decoded sample photo.
        func crop(_ image: PNGDecoder.DecodedImage, x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
            var pixels: [UInt8] = []
            for row in y..<(y + height) {
                let start = (row * image.width + x) * image.channels
                pixels += image.pixels[start..<(start + width * image.channels)]
            }
            return pixels
        }
        let photo = try PNGDecoder.decode(contentsOf: ImageTestPaths.sample("chelsea.png"))
        let gray = try PNGDecoder.decode(contentsOf: ImageTestPaths.sample("camera.png"))
        let color = crop(photo, x: 180, y: 60, width: 40, height: 24)
        var seeds: [[UInt8]] = []
        // Baseline 4:2:0, progressive 4:4:4 (its scans buffer the whole image), odd sizes, grayscale.
        seeds.append(try JPEGEncoder.encode(pixels: color, width: 40, height: 24, channels: 3, options: .init(quality: 90)))
        seeds.append(try JPEGEncoder.encode(pixels: color, width: 40, height: 24, channels: 3,
                                            options: .init(quality: 75, progressive: true, fullChroma: true)))
        seeds.append(try JPEGEncoder.encode(pixels: crop(photo, x: 7, y: 3, width: 17, height: 9), width: 17, height: 9,
                                            channels: 3, options: .init(quality: 50, progressive: true)))
        seeds.append(try JPEGEncoder.encode(pixels: crop(gray, x: 200, y: 100, width: 24, height: 16), width: 24, height: 16,
                                            channels: 1, options: .init(quality: 85)))
        // CMYK (Adobe APP14 segment) from the color crop.
        var cmyk: [UInt8] = []
        for p in 0..<(16 * 16) { let rgb = color[(3 * p)..<(3 * p + 3)]; cmyk += rgb + [rgb.max()!] }
        seeds.append(try JPEGEncoder.encode(pixels: cmyk, width: 16, height: 16, channels: 4, options: .init(quality: 90)))
        // An EXIF block (IFD0 with the orientation and a second entry) spliced in after SOI, so
        // mutations reach the EXIF offsets and counts.
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 2, 0x01, 0x0F, 0, 2, 0, 0, 0, 4, 0, 0, 0, 38,
                             0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0, 0x41, 0x42, 0x43, 0]
        let exif = Array("Exif".utf8) + [0, 0] + tiff
        let app1 = [0xFF, 0xE1, UInt8((exif.count + 2) >> 8), UInt8((exif.count + 2) & 0xFF)] + exif
        seeds.append(Array(seeds[0].prefix(2)) + app1 + seeds[0].dropFirst(2))
        XCTAssertEqual(try JPEGDecoder.decode(seeds.last!).orientation, .right, "the EXIF seed must carry its orientation")
        // The fixture photo as shot (its own markers and tables), when it is present.
        if let path = try? ImageTestPaths.sample("rocket.jpg") { seeds.append(Array(try Data(contentsOf: URL(fileURLWithPath: path)))) }

        let limits = ImageLimits(maxPixelCount: 1 << 20)
        var fuzzer = MutationFuzzer(name: "jpeg", seeds: seeds)
        var untyped: [String] = []
        let summary = fuzzer.run { bytes in
            do {
                let full = try JPEGDecoder.decode(bytes, limits: limits)
                XCTAssertEqual(full.pixels.count, full.width * full.height * full.channels)
                // The reduced-scale path (1/8 here) and the sniffing entry point on the same bytes.
                _ = try JPEGDecoder.decode(bytes, limits: limits, minimumShortSide: 1)
                _ = try VisionImage(imageData: bytes, limits: limits)
            } catch let error as ImageCodecError {
                throw error
            } catch {
                untyped.append("\(type(of: error)): \(error)")
                throw error
            }
        }
        XCTAssertGreaterThanOrEqual(summary.accepted, seeds.count)
        XCTAssertEqual(untyped.prefix(5), [], "every failure must be an ImageCodecError")
    }

    func testMutatedY4MStreamsDecodeOrThrow() throws {
        func stream(_ header: String, frames: Int, frameBytes: Int) -> [UInt8] {
            var bytes = Array((header + "\n").utf8)
            for f in 0..<frames {
                bytes += Array("FRAME\n".utf8) + (0..<frameBytes).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ f) }
            }
            return bytes
        }
        let seeds = [stream("YUV4MPEG2 W4 H4 F30:1 C420jpeg", frames: 2, frameBytes: 24),
                     stream("YUV4MPEG2 W3 H2 F25:1 Ip A1:1 C444", frames: 1, frameBytes: 18),
                     stream("YUV4MPEG2 W2 H2 F30:1 Cmono", frames: 3, frameBytes: 4)]
        let limits = ImageLimits(maxPixelCount: 1 << 20)
        var fuzzer = MutationFuzzer(name: "y4m", seeds: seeds)
        let summary = fuzzer.run { bytes in
            let reader = try Y4MReader(data: bytes, limits: limits)
            for _ in 0..<8 { guard try reader.nextFrame() != nil else { break } }
        }
        XCTAssertGreaterThanOrEqual(summary.accepted, seeds.count)
    }
}
