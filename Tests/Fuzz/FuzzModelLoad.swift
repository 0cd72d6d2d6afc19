// libFuzzer entry point for model loading and validation (built by Scripts/fuzz.sh, not by
// SwiftPM). Every input must either load or be rejected with an error; any crash, trap or
// sanitizer report is a bug, and the input that caused it becomes a regression test
// (Tests/Fixtures/schema/crashes/, replayed by FuzzRegressionTests).
import FlatBufferReader
@testable import TFLiteSchema

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModelLoad(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    FuzzTargets.exercise(bytes)
    return 0
}
