import Foundation
import ImageCodecs
import ObjectDetection
import TestSupport
import XCTest

final class Y4MReaderTests: XCTestCase {
    /// BT.601 video-range planes of an RGB image with 2×2-averaged chroma (test-side converter).
    static func i420Planes(_ image: RGBImage) -> (y: [UInt8], u: [UInt8], v: [UInt8]) {
        let w = image.width, h = image.height, cw = (w + 1) / 2, ch = (h + 1) / 2
        func convert(_ c: RGBColor) -> (Double, Double, Double) {
            let r = Double(c.red), g = Double(c.green), b = Double(c.blue)
            let y = 0.299 * r + 0.587 * g + 0.114 * b
            return (16 + y * 219 / 255, 128 + (b - y) / 1.772 * 224 / 255, 128 + (r - y) / 1.402 * 224 / 255)
        }
        func byte(_ v: Double) -> UInt8 { UInt8(min(255, max(0, v.rounded()))) }
        var y = [UInt8](), u = [UInt8](), v = [UInt8]()
        for py in 0..<h { for px in 0..<w { y.append(byte(convert(image[px, py]).0)) } }
        for cy in 0..<ch {
            for cx in 0..<cw {
                var su = 0.0, sv = 0.0, n = 0.0
                for py in (cy * 2)..<min(h, cy * 2 + 2) {
                    for px in (cx * 2)..<min(w, cx * 2 + 2) {
                        let t = convert(image[px, py]); su += t.1; sv += t.2; n += 1
                    }
                }
                u.append(byte(su / n)); v.append(byte(sv / n))
            }
        }
        return (y, u, v)
    }

    /// Three 4:2:0 frames cut from a photo at different offsets, as a `.y4m` stream.
    func makeStream(header: String = "YUV4MPEG2 W41 H27 F30000:1001 Ip A1:1 C420jpeg XYSCSS=420JPEG") throws
        -> (data: [UInt8], frames: [RGBImage]) {
        var data = Array((header + "\n").utf8)
        var frames = [RGBImage]()
        for k in 0..<3 {
            let frame = try RGBImage(pngFile: ImageTestPaths.sample("chelsea.png")).crop(x: 100 + 20 * k, y: 80 + 5 * k, width: 41, height: 27)
            frames.append(frame)
            let planes = Self.i420Planes(frame)
            data += Array((k == 1 ? "FRAME Ixyz\n" : "FRAME\n").utf8) + planes.y + planes.u + planes.v
        }
        return (data, frames)
    }

    func testReadsFramesFromMemoryFileAndPipe() throws {
        let (data, originals) = try makeStream()
        let reader = try Y4MReader(data: data)
        XCTAssertEqual(reader.header.width, 41)
        XCTAssertEqual(reader.header.height, 27)
        XCTAssertEqual(reader.header.colorspace, .c420jpeg)
        XCTAssertEqual(reader.header.colorRange, .video)
        XCTAssertEqual(reader.header.interlacing, "p")
        XCTAssertEqual(reader.header.framesPerSecond ?? 0, 29.97, accuracy: 0.01)
        XCTAssertEqual(reader.header.frameByteCount, 41 * 27 + 2 * 21 * 14)
        let frames = try reader.readAllFrames()
        XCTAssertEqual(frames.count, 3)
        XCTAssertEqual(reader.frameIndex, 3)
        XCTAssertNil(try reader.nextFrame())
        for (frame, original) in zip(frames, originals) {
            XCTAssertEqual(frame.format, .i420)
            let planes = Self.i420Planes(original)
            let expected = try VisionImage(planarYUV: .i420, y: planes.y, u: planes.u, v: planes.v, width: 41, height: 27)
            XCTAssertEqual(frame.uprightRGB(), expected.uprightRGB())
            // And close to the photo itself (4:2:0 loses some chroma detail).
            let rgb = frame.uprightRGB().pixels
            let error = zip(rgb, original.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            XCTAssertLessThan(Double(error) / Double(rgb.count), 3.5)
        }

        // From a file.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("litevision-\(UUID()).y4m").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(data)))
        let fromFile = try Y4MReader(path: path).readAllFrames()
        XCTAssertEqual(fromFile.map { $0.uprightRGB() }, frames.map { $0.uprightRGB() })

        // From a pipe, written concurrently in small pieces (as ffmpeg would).
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        let payload = data
        let thread = Thread {
            var offset = 0
            while offset < payload.count {
                let end = min(payload.count, offset + 777)
                writer.write(Data(payload[offset..<end]))
                offset = end
            }
            try? writer.close()
        }
        thread.start()
        let fromPipe = try Y4MReader(fileHandle: pipe.fileHandleForReading).readAllFrames()
        XCTAssertEqual(fromPipe.map { $0.uprightRGB() }, frames.map { $0.uprightRGB() })
    }

    func testColorspacesAndRange() throws {
        let w = 5, h = 3
        let y = (0..<(w * h)).map { UInt8(16 + $0 * 10) }
        // 4:4:4 full range: compare with the same planes through VisionImage.
        let u444 = [UInt8](repeating: 100, count: w * h), v444 = [UInt8](repeating: 150, count: w * h)
        var data = Array("YUV4MPEG2 W5 H3 C444 XCOLORRANGE=FULL\nFRAME\n".utf8) + y + u444 + v444
        var reader = try Y4MReader(data: data)
        XCTAssertEqual(reader.header.colorRange, .full)
        var frame = try XCTUnwrap(try reader.nextFrame())
        XCTAssertEqual(frame.format, .i444)
        XCTAssertEqual(frame.uprightRGB(), try VisionImage(planarYUV: .i444, y: y, u: u444, v: v444, width: w, height: h, range: .full).uprightRGB())
        // 4:2:2.
        let u422 = [UInt8](repeating: 90, count: 3 * h), v422 = [UInt8](repeating: 170, count: 3 * h)
        data = Array("YUV4MPEG2 W5 H3 C422\nFRAME\n".utf8) + y + u422 + v422
        reader = try Y4MReader(data: data)
        frame = try XCTUnwrap(try reader.nextFrame())
        XCTAssertEqual(frame.format, .i422)
        XCTAssertEqual(frame.uprightRGB(), try VisionImage(planarYUV: .i422, y: y, u: u422, v: v422, width: w, height: h).uprightRGB())
        // Mono, video range: 16 → 0, 235 → 255.
        data = Array("YUV4MPEG2 W3 H1 Cmono\nFRAME\n".utf8) + [16, 235, 126]
        frame = try XCTUnwrap(try Y4MReader(data: data).nextFrame())
        XCTAssertEqual(frame.uprightRGB().pixels, [0, 0, 0, 255, 255, 255, 128, 128, 128])
        // Every 4:2:0 variant parses to I420.
        for name in ["420jpeg", "420paldv", "420mpeg2", "420"] {
            let header = try Y4MHeader(line: Array("YUV4MPEG2 W4 H2 C\(name)".utf8))
            XCTAssertEqual(header.colorspace.pixelFormat, .i420)
            XCTAssertEqual(header.frameByteCount, 8 + 2 * 2)
        }
        // Default colorspace is 420jpeg; orientation is applied to every frame.
        let rotated = try Y4MReader(data: Array("YUV4MPEG2 W4 H2\nFRAME\n".utf8) + [UInt8](repeating: 128, count: 12), orientation: .right)
        XCTAssertEqual(rotated.header.colorspace, .c420jpeg)
        let rotatedFrame = try XCTUnwrap(try rotated.nextFrame())
        XCTAssertEqual(rotatedFrame.uprightWidth, 2)
        XCTAssertEqual(rotatedFrame.uprightHeight, 4)
    }

    func testMalformedHeadersGiveTypedErrors() {
        let bad = ["", "YUV4MPEG W4 H2\n", "YUV4MPEG2 H2\n", "YUV4MPEG2 W0 H2\n", "YUV4MPEG2 W-4 H2\n", "YUV4MPEG2 Wx H2\n",
                   "YUV4MPEG2 W4 H2 C420p10\n", "YUV4MPEG2 W4 H2 Cfoo\n", "YUV4MPEG2 W4 H2 F30\n", "YUV4MPEG2 W4 H2 Q1\n",
                   "YUV4MPEG2 W4 H2", String(repeating: "YUV4MPEG2 ", count: 1000) + "\n"]
        for text in bad {
            XCTAssertThrowsError(try Y4MReader(data: Array(text.utf8)), text) { error in
                guard case ImageCodecError.invalidY4M = error else { return XCTFail("\(text): \(error)") }
            }
        }
        XCTAssertThrowsError(try Y4MReader(data: Array("YUV4MPEG2 W100000 H100000\n".utf8))) { error in
            XCTAssertEqual(error as? ImageCodecError, .image(.tooManyPixels(width: 100_000, height: 100_000, limit: 1 << 28)))
        }
        XCTAssertThrowsError(try Y4MReader(path: "/nonexistent/video.y4m")) { error in
            guard case ImageCodecError.fileAccess = error else { return XCTFail("\(error)") }
        }
    }

    func testTruncatedAndCorruptStreamsGiveTypedErrors() throws {
        let (data, _) = try makeStream()
        let headerLength = try XCTUnwrap(data.firstIndex(of: 0x0A)) + 1
        var generator = SeededGenerator(seed: 42)
        let frameSize = 6 + 41 * 27 + 2 * 21 * 14
        for _ in 0..<60 {
            let cut = Int.random(in: headerLength..<data.count, using: &generator)
            let reader = try Y4MReader(data: Array(data.prefix(cut)))
            var decoded = 0
            do {
                while try reader.nextFrame() != nil { decoded += 1 }
                // Only cuts exactly at a frame boundary end cleanly.
                XCTAssertTrue([headerLength, headerLength + frameSize, headerLength + 2 * frameSize + 5].contains(cut)
                              || cut == data.count, "cut \(cut) ended cleanly after \(decoded) frames")
            } catch let error as ImageCodecError {
                switch error {
                case .truncatedY4MFrame, .invalidY4M: break
                default: XCTFail("cut \(cut): \(error)")
                }
            }
        }
        // A corrupted frame marker.
        var damaged = data
        damaged[headerLength + 1] = UInt8(ascii: "X")
        XCTAssertThrowsError(try Y4MReader(data: damaged).nextFrame()) { error in
            guard case ImageCodecError.invalidY4M = error else { return XCTFail("\(error)") }
        }
        // An exact truncation inside the pixel data reports the sizes.
        let reader = try Y4MReader(data: Array(data.prefix(headerLength + 6 + 100)))
        XCTAssertThrowsError(try reader.nextFrame()) { error in
            XCTAssertEqual(error as? ImageCodecError, .truncatedY4MFrame(frameIndex: 0, expected: frameSize - 6, received: 100))
        }
    }
}

extension RGBImage {
    /// A sub-image (test helper).
    func crop(x: Int, y: Int, width: Int, height: Int) throws -> RGBImage {
        var pixels = [UInt8]()
        for row in y..<(y + height) {
            let start = (row * self.width + x) * 3
            pixels += self.pixels[start..<(start + width * 3)]
        }
        return try RGBImage(width: width, height: height, pixels: pixels)
    }
}
