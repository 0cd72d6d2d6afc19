import Foundation
@testable import ModelHosting
import TestSupport
import XCTest

/// Bounded mutation fuzzing of manifest decoding (FUZZ_SECONDS; see `Scripts/fuzz.sh formats`).
final class ManifestFuzzTests: XCTestCase {
    func testMutatedManifestsDecodeOrThrow() throws {
        let model = RemoteModel(name: "ssd", host: URL(string: "http://127.0.0.1:9/base")!)
        let seeds = [
            #"{"name": "ssd", "version": "3", "size": 4096, "sha256": "\#(String(repeating: "ab", count: 32))", "url": "ssd.tflite"}"#,
            #"{"name":"ssd","version":"1.0.0","size":1,"sha256":"\#(String(repeating: "0", count: 64))","url":"http://127.0.0.1:9/m/ssd-v1.tflite","extra":[1,2,{"a":null}]}"#,
        ].map { Array($0.utf8) }
        var fuzzer = MutationFuzzer(name: "manifest", seeds: seeds)
        let summary = fuzzer.run { bytes in
            let manifest = try ModelManifest.decode(Data(bytes), for: model)
            _ = try? manifest.resolvedURL(host: model.host)
        }
        XCTAssertGreaterThanOrEqual(summary.accepted, seeds.count)
    }
}
