import Foundation
import XCTest
@testable import ModelHosting

final class ModelManifestTests: XCTestCase {
    private let model = RemoteModel(name: "ssd", host: URL(string: "https://models.example/base")!)
    private let sha = String(repeating: "a1", count: 32)

    private func manifest(_ fields: [String: Any]) throws -> ModelManifest {
        var json: [String: Any] = ["name": "ssd", "version": "3", "size": 1000, "sha256": sha, "url": "files/ssd.tflite"]
        for (key, value) in fields { json[key] = value }
        return try ModelManifest.decode(JSONSerialization.data(withJSONObject: json), for: model)
    }

    private func assertInvalid(_ fields: [String: Any], _ fragment: String, line: UInt = #line) {
        XCTAssertThrowsError(try manifest(fields), line: line) { error in
            guard case let .invalidManifest(reason)? = error as? ModelHostingError else {
                return XCTFail("expected invalidManifest, got \(error)", line: line)
            }
            XCTAssertTrue(reason.contains(fragment), reason, line: line)
        }
    }

    func testValidManifestAndURLResolution() throws {
        let decoded = try manifest(["sha256": sha.uppercased()])
        XCTAssertEqual(decoded.sha256, sha, "checksum normalized to lower case")
        XCTAssertEqual(model.manifestURL.absoluteString, "https://models.example/base/models/ssd.json")
        XCTAssertEqual(try decoded.resolvedURL(host: model.host).absoluteString, "https://models.example/base/files/ssd.tflite")
        XCTAssertEqual(try manifest(["url": "/cdn/ssd.tflite"]).resolvedURL(host: model.host).absoluteString,
                       "https://models.example/cdn/ssd.tflite")
        XCTAssertEqual(try manifest(["url": "https://cdn.example/x.tflite"]).resolvedURL(host: model.host).absoluteString,
                       "https://cdn.example/x.tflite")
    }

    func testRejectedManifests() throws {
        assertInvalid(["name": "other"], "does not match")
        assertInvalid(["version": "../../etc"], "version")
        assertInvalid(["size": 0], "size")
        assertInvalid(["size": -5], "size")
        assertInvalid(["sha256": "abc"], "sha256")
        assertInvalid(["sha256": String(repeating: "zz", count: 32)], "sha256")
        assertInvalid(["url": ""], "url")
        XCTAssertThrowsError(try ModelManifest.decode(Data("not json".utf8), for: model))
        XCTAssertThrowsError(try ModelManifest.decode(Data("{\"name\":\"ssd\"}".utf8), for: model))
    }

    func testRejectedModelURLs() throws {
        XCTAssertThrowsError(try manifest(["url": "http://cdn.example/x.tflite"]).resolvedURL(host: model.host),
                             "no downgrade from an https host")
        XCTAssertThrowsError(try manifest(["url": "file:///etc/passwd"]).resolvedURL(host: model.host))
        XCTAssertThrowsError(try manifest(["url": "ftp://cdn.example/x"]).resolvedURL(host: model.host))
    }

    func testContentRangeParsing() {
        XCTAssertEqual(ContentRange("bytes 100-199/200"), ContentRange(start: 100, end: 199, total: 200))
        XCTAssertEqual(ContentRange("bytes 0-9/*")?.total, nil)
        XCTAssertNotNil(ContentRange("bytes 0-9/*"))
        XCTAssertNil(ContentRange("bytes 10-5/100"))
        XCTAssertNil(ContentRange("bytes 0-99/50"))
        XCTAssertNil(ContentRange("items 0-1/2"))
        XCTAssertNil(ContentRange(nil))
    }
}
