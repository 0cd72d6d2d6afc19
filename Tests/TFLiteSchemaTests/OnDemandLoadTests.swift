import FlatBufferReader
import Foundation
@testable import TFLiteSchema
import TestSupport
import XCTest

/// A model read on demand decodes its buffers, then reads all but the large ones, then decodes
/// the rest (`TFLiteModelFile.init(storage:limits:path:)`): a file cut short while it loads is
/// reported as `unreadableFile` by whichever of those reads first meets its end.
final class OnDemandLoadTests: XCTestCase {
    func testAFileTruncatedWhileItLoadsIsATypedError() throws {
        let url = SchemaTestFiles.modelsDirectory.appendingPathComponent("efficientnet_lite0.tflite")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw TestEnvironment.missing("\(url.path) absent: run Scripts/fetch-models.sh")
        }
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("on-demand-\(UUID().uuidString).tflite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        for cut in [4096, data.count / 2, data.count - 1] {
            // A whole file opened, then cut short before the load reads it.
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: data))
            let descriptor = open(path, O_RDONLY)
            XCTAssertGreaterThanOrEqual(descriptor, 0)
            defer { close(descriptor) }
            let storage = try ByteStorage(readingOnDemand: descriptor, count: data.count)
            XCTAssertEqual(truncate(path, off_t(cut)), 0)
            XCTAssertThrowsError(try TFLiteModelFile(storage: storage, path: path), "cut at \(cut)") { error in
                guard case .unreadableFile(let reported, let reason) = error as? TFLiteSchemaError else {
                    return XCTFail("cut at \(cut), not unreadableFile: \(error)")
                }
                XCTAssertEqual(reported, path)
                XCTAssertTrue(reason.contains("truncated"), reason)
            }
        }
    }
}
