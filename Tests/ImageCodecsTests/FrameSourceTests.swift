import Foundation
import ImageCodecs
import ObjectDetection
import XCTest

final class FrameSourceTests: XCTestCase {
    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("litevision-frames-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func testPNGFolderFramesComeInNameOrder() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try RGBImage(pngFile: ImageTestPaths.sample("rocket.png"))
        // Written out of order; frame k is a 40×30 crop at x = 10k.
        for k in [2, 0, 1] {
            try photo.crop(x: 10 * k, y: 0, width: 40, height: 30).writePNG(to: folder.appendingPathComponent("frame_00\(k).png").path)
        }
        try Data("not a frame".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let source = try FrameSource(path: folder.path)
        XCTAssertEqual(source.frameCount, 3)
        XCTAssertNil(source.framesPerSecond)
        for k in 0..<3 {
            let frame = try XCTUnwrap(try source.nextFrame())
            XCTAssertEqual(frame.index, k)
            XCTAssertEqual(frame.name, "frame_00\(k).png")
            XCTAssertEqual(frame.image.uprightRGB(), try photo.crop(x: 10 * k, y: 0, width: 40, height: 30))
        }
        XCTAssertNil(try source.nextFrame())
    }

    func testY4MFileAndErrors() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("clip.y4m").path
        let frame = [UInt8](repeating: 128, count: 4 * 2 + 2 * 2)
        let stream = Array("YUV4MPEG2 W4 H2 F25:1 C420\n".utf8) + Array("FRAME\n".utf8) + frame + Array("FRAME\n".utf8) + frame
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(stream)))
        let source = try FrameSource(path: path, orientation: .left)
        XCTAssertEqual(source.framesPerSecond, 25)
        let first = try XCTUnwrap(try source.nextFrame())
        XCTAssertEqual(first.image.uprightWidth, 2)
        XCTAssertEqual(try source.nextFrame()?.index, 1)
        XCTAssertNil(try source.nextFrame())

        XCTAssertThrowsError(try FrameSource(path: folder.appendingPathComponent("missing.y4m").path))
        XCTAssertThrowsError(try FrameSource(path: folder.path)) { error in  // holds no PNG
            guard case ImageCodecError.fileAccess = error else { return XCTFail("\(error)") }
        }
        let garbage = folder.appendingPathComponent("garbage.y4m").path
        XCTAssertTrue(FileManager.default.createFile(atPath: garbage, contents: Data("hello".utf8)))
        XCTAssertThrowsError(try FrameSource(path: garbage)) { error in
            guard case ImageCodecError.invalidY4M = error else { return XCTFail("\(error)") }
        }
    }

    func testFrameSequenceIteratesAsynchronously() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("clip.y4m").path
        var stream = Array("YUV4MPEG2 W2 H2 Cmono XCOLORRANGE=FULL\n".utf8)
        for k in 0..<4 { stream += Array("FRAME\n".utf8) + [UInt8](repeating: UInt8(k * 50), count: 4) }
        stream += Array("FRAME\n".utf8) + [1, 2]  // truncated last frame
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(stream)))
        var values = [UInt8]()
        do {
            for try await frame in FrameSequence(path: path) { values.append(frame.image.uprightRGB().pixels[0]) }
            XCTFail("the truncated frame must throw")
        } catch let error as ImageCodecError {
            XCTAssertEqual(error, .truncatedY4MFrame(frameIndex: 4, expected: 4, received: 2))
        }
        XCTAssertEqual(values, [0, 50, 100, 150])
        var iterator = FrameSequence(path: folder.appendingPathComponent("none.y4m").path).makeAsyncIterator()
        do {
            _ = try await iterator.next()
            XCTFail("missing input must throw")
        } catch {
            XCTAssertTrue(error is ImageCodecError)
        }
        let afterError = try await iterator.next()
        XCTAssertNil(afterError)
    }
}
