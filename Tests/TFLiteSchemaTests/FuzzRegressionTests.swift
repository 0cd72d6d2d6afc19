import Foundation
@testable import TFLiteSchema
import XCTest

/// Replays inputs the fuzzer (Scripts/fuzz.sh) found crashing, plus the fuzz seeds, through
/// the same body as the fuzz target: each must be handled without a crash.
final class FuzzRegressionTests: XCTestCase {
    func testRecordedInputsDoNotCrash() throws {
        let directory = SchemaTestFiles.fixturesDirectory
        let crashes = directory.appendingPathComponent("crashes")
        let crashFiles = ((try? FileManager.default.contentsOfDirectory(atPath: crashes.path)) ?? [])
            .filter { !$0.hasPrefix(".") && $0 != "README.md" }.map { crashes.appendingPathComponent($0) }
        let seeds = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".tflite") || $0.hasSuffix(".bin") || $0.hasSuffix(".zip") }
            .map { directory.appendingPathComponent($0) }
        XCTAssertFalse(seeds.isEmpty, "schema fixtures missing")
        for url in seeds + crashFiles {
            FuzzTargets.exercise([UInt8](try Data(contentsOf: url)))
        }
    }
}
