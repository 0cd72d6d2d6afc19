import Foundation
import ImageCodecs
import ObjectDetection
import TestSupport
import XCTest

/// `litevision detect <photo> --annotate out.jpg` through the built executable: the annotated
/// image is written as a JPEG that decodes to the photo's size, with the boxes drawn on it.
final class AnnotateCommandTests: XCTestCase {
    func testDetectWritesADecodableAnnotatedJPEG() throws {
        let binary = try LiteVisionBinary()
        _ = try TestPaths.model("deeplabv3.tflite")
        let photo = TestPaths.imagesDirectory.appendingPathComponent("astronaut.png").path
        guard FileManager.default.fileExists(atPath: photo) else { throw TestEnvironment.missing("\(photo) absent: run Scripts/fetch-models.sh") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("annotate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.jpg").path

        let run = try binary.run(["detect", photo, "--annotate", out, "--threads", "1", "--models", TestPaths.modelsDirectory.path],
                                 in: directory, timeout: 120)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("512x512: 1 object"), run.stdout)
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: out), "no file at \(out)")
        XCTAssertEqual(Array(bytes.prefix(3)), [0xFF, 0xD8, 0xFF], "a JPEG, as the .jpg name asks, not a PNG")
        let annotated = try VisionImage(contentsOf: out).uprightRGB()
        let original = try VisionImage(contentsOf: photo).uprightRGB()
        XCTAssertEqual([annotated.width, annotated.height], [original.width, original.height])
        // The box is drawn: some pixels differ far more than JPEG compression moves them.
        let changed = zip(annotated.pixels, original.pixels).filter { abs(Int($0) - Int($1)) > 100 }.count
        XCTAssertGreaterThan(changed, 1000, "no box drawn on the annotated image")
    }
}
