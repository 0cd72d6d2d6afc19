import Foundation
import TestSupport
import XCTest

/// Per-operator golden cases (`Tests/Fixtures/ops/<family>/<case>/`), generated with the
/// reference runtime's reference kernels by `Scripts/generate-goldens.sh`.
/// One test per operator family; each reports every failing case by name.
/// Set `GOLDEN_CASE=<substring>` to run only cases whose `<family>/<case>` name contains it,
/// and `GOLDEN_THREADS=<n>` to run them with n threads (default 1).
final class GoldenOpTests: XCTestCase {
    func testConvolutionFamily() throws { try runFamily("convolution") }
    func testElementwiseFamily() throws { try runFamily("elementwise") }
    func testDataMovementFamily() throws { try runFamily("datamovement") }
    func testDetectionFamily() throws { try runFamily("detection") }
    /// Ties, constant / one-sided / all-zero inputs, NaN and infinities (`Scripts/goldens/ops_ties.py`).
    func testTiesFamily() throws { try runFamily("ties") }
    /// MediaPipe's attention-mesh operators against MediaPipe's own kernels (`Scripts/goldens/ops_mediapipe.py`).
    func testMediaPipeFamily() throws { try runFamily("mediapipe") }

    /// Families whose folder name matches none of the tests above still run, here.
    func testOtherFamilies() throws {
        let known: Set<String> = ["convolution", "elementwise", "datamovement", "detection", "ties", "mediapipe"]
        let others = Self.familyDirectories().filter { !known.contains(Self.normalized($0.lastPathComponent)) }
        guard !others.isEmpty else { throw XCTSkip("no other golden op families") }
        for family in others { try runFamily(Self.normalized(family.lastPathComponent), skipIfEmpty: false) }
    }

    /// Runs every case of the family whose normalized folder name is `family`.
    private func runFamily(_ family: String, skipIfEmpty: Bool = true) throws {
        let directories = Self.familyDirectories().filter { Self.normalized($0.lastPathComponent) == family }
        let filter = ProcessInfo.processInfo.environment["GOLDEN_CASE"].flatMap { $0.isEmpty ? nil : $0 }
        let threads = ProcessInfo.processInfo.environment["GOLDEN_THREADS"].flatMap(Int.init) ?? 1
        var cases: [GoldenCase] = []
        for directory in directories { cases += try GoldenCase.cases(in: directory) }
        if let filter { cases = cases.filter { $0.name.contains(filter) } }
        guard !cases.isEmpty else {
            // Fixtures are committed: an empty family is a failure unless a filter excluded it.
            if let filter, skipIfEmpty { throw XCTSkip("no golden cases for family '\(family)' matching '\(filter)'") }
            if skipIfEmpty { XCTFail("no golden cases for family '\(family)': run Scripts/generate-goldens.sh") }
            return
        }
        var failed: [String] = []
        for goldenCase in cases {
            let failures = goldenCase.failures(threadCount: threads)
            for failure in failures { XCTFail(failure) }
            if !failures.isEmpty { failed.append(goldenCase.name) }
        }
        print("golden \(family): \(cases.count) cases, \(failed.count) failed (threads: \(threads))")
        if !failed.isEmpty {
            XCTFail("\(failed.count) of \(cases.count) '\(family)' cases failed: \(failed.joined(separator: ", "))")
        }
    }

    /// `data_movement`, `DataMovement` and `data-movement` all become `datamovement`.
    private static func normalized(_ name: String) -> String {
        name.lowercased().filter { $0 != "_" && $0 != "-" }
    }

    private static func familyDirectories() -> [URL] {
        let root = TestPaths.fixturesDirectory.appendingPathComponent("ops")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.sorted().map { root.appendingPathComponent($0) }.filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: $0.path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
    }
}
