import FlatBufferReader
import Foundation
import TestSupport
import XCTest

/// Depth, table-count and apparent-size limits on a real model (efficientnet_lite0).
final class VerifierLimitTests: XCTestCase {
    func modelStorage() throws -> ByteStorage {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Models/efficientnet_lite0.tflite")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw TestEnvironment.missing("\(url.path) absent: run Scripts/fetch-models.sh")
        }
        return ByteStorage(copying: [UInt8](data))
    }

    /// Model → subgraphs[0] → tensors[0] → quantization: four nested tables.
    func readQuantization(_ buffer: FlatBuffer) throws {
        let subgraph = try buffer.rootTable().vector(2, elementSize: 4)!.table(at: 0)
        let tensor = try subgraph.vector(0, elementSize: 4)!.table(at: 0)
        _ = try tensor.table(4)
    }

    func testDepthLimit() throws {
        let storage = try modelStorage()
        XCTAssertNoThrow(try readQuantization(try FlatBuffer(storage: storage)))
        let shallow = FlatBufferLimits(maxDepth: 3, maxTables: 100, maxApparentSizeFactor: 4)
        XCTAssertThrowsError(try readQuantization(try FlatBuffer(storage: storage, limits: shallow))) { error in
            XCTAssertEqual(error as? FlatBufferError, .depthLimitExceeded(limit: 3))
        }
    }

    func testTableLimit() throws {
        let limits = FlatBufferLimits(maxDepth: 64, maxTables: 50, maxApparentSizeFactor: 4)
        let root = try FlatBuffer(storage: try modelStorage(), limits: limits).rootTable()
        XCTAssertThrowsError(try root.tableArray(4)) { error in
            XCTAssertEqual(error as? FlatBufferError, .tableLimitExceeded(limit: 50))
        }
    }

    func testApparentSizeLimit() throws {
        let limits = FlatBufferLimits(maxDepth: 64, maxTables: 1_000_000, maxApparentSizeFactor: 0)
        let root = try FlatBuffer(storage: try modelStorage(), limits: limits).rootTable()
        XCTAssertThrowsError(try root.tableArray(4).forEach { _ = try $0.vector(0, elementSize: 1) }) { error in
            guard case .apparentSizeExceeded? = error as? FlatBufferError else { return XCTFail("\(error)") }
        }
        // Without limits (lazy reads after load) the same reads succeed.
        let unlimited = try FlatBuffer(storage: try modelStorage(), limits: nil).rootTable()
        XCTAssertNoThrow(try unlimited.tableArray(4).forEach { _ = try $0.vector(0, elementSize: 1) })
    }
}
