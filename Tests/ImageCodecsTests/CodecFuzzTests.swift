import Foundation
import ImageCodecs
import ObjectDetection
import TestSupport
import XCTest

/// Bounded mutation fuzzing of the PNG and YUV4MPEG2 readers (FUZZ_SECONDS per target; see
/// `Scripts/fuzz.sh formats`): every mutated file decodes or throws, never crashes, hangs or
/// allocates beyond the image limits.
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
