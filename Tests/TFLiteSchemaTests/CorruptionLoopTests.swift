import FlatBufferReader
import Foundation
import TFLiteSchema
import TestSupport
import XCTest

/// Seeded truncation and corruption of every real model: loading must either succeed or
/// throw a `TFLiteSchemaError`, never crash. Corruption targets the FlatBuffer structure
/// (everything except the raw weight bytes), where it matters.
final class CorruptionLoopTests: XCTestCase {
    /// Byte positions of `bytes` outside buffer data, i.e. tables, vtables, vectors and strings.
    func structurePositions(_ bytes: [UInt8]) throws -> [Range<Int>] {
        let root = try FlatBuffer(storage: ByteStorage(copying: bytes), limits: nil).rootTable()
        let data = try root.tableArray(4).compactMap { try $0.vector(0, elementSize: 1)?.byteRange }
            .filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound }
        var gaps: [Range<Int>] = []
        var cursor = 0
        for range in data where range.lowerBound > cursor {
            gaps.append(cursor..<range.lowerBound); cursor = range.upperBound
        }
        if cursor < bytes.count { gaps.append(cursor..<bytes.count) }
        return gaps
    }

    func testTruncationAndCorruptionNeverCrash() throws {
        var generator = SeededGenerator(seed: 0xC0FFEE)
        var rejected = 0, accepted = 0
        for url in try SchemaTestFiles.allModels() {
            let original = [UInt8](try Data(contentsOf: url))
            let gaps = try structurePositions(original)
            let gapTotal = gaps.reduce(0) { $0 + $1.count }
            func randomStructurePosition() -> Int {
                var offset = Int(generator.next() % UInt64(gapTotal))
                for gap in gaps {
                    if offset < gap.count { return gap.lowerBound + offset }
                    offset -= gap.count
                }
                return 0
            }
            for round in 0..<48 {
                var bytes = original
                if round < 8 {
                    bytes.removeLast(Int(generator.next() % UInt64(bytes.count)))
                } else {
                    for _ in 0..<(1 + Int(generator.next() % 8)) {
                        bytes[randomStructurePosition()] = UInt8(truncatingIfNeeded: generator.next())
                    }
                }
                do { _ = try TFLiteModelFile(bytes: bytes); accepted += 1 } catch {
                    XCTAssertTrue(error is TFLiteSchemaError, "\(url.lastPathComponent): \(error)")
                    rejected += 1
                }
            }
        }
        XCTAssertGreaterThan(rejected, 0)
        print("corruption loop: \(rejected) rejected, \(accepted) accepted")
    }

    func testMetadataBufferCorruptionNeverCrashes() throws {
        var generator = SeededGenerator(seed: 0xBADA55)
        var outcomes = [String: Int]()
        for name in ["efficientnet_lite0.tflite", "deeplabv3.tflite"] {
            let original = try SchemaTestFiles.referenceModelBytes(name)
            let model = try TFLiteModelFile(bytes: original)
            let entry = try XCTUnwrap(model.metadataEntries.first { $0.name == "TFLITE_METADATA" })
            let patcher = try ModelPatcher(original)
            let data = try XCTUnwrap(try patcher.buffer(entry.buffer).vector(0, elementSize: 1))
            let range = data.byteRange
            for _ in 0..<60 {
                var bytes = original
                for _ in 0..<(1 + Int(generator.next() % 4)) {
                    bytes[range.lowerBound + Int(generator.next() % UInt64(range.count))] = UInt8(truncatingIfNeeded: generator.next())
                }
                do {
                    let loaded = try TFLiteModelFile(bytes: bytes)
                    _ = loaded.labels(forOutput: 0)
                    outcomes["loaded", default: 0] += 1
                } catch let error as TFLiteSchemaError {
                    if case .invalidMetadata = error { outcomes["invalidMetadata", default: 0] += 1 } else {
                        outcomes["other", default: 0] += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(outcomes["invalidMetadata", default: 0], 0, "\(outcomes)")
        print("metadata corruption: \(outcomes)")
    }
}
