import Foundation
import TestSupport
import XCTest

/// The generated schema files (`Scripts/generate-schema-swift.py`) are what the script
/// writes: never edited by hand (content stamps, no schema needed), and — when
/// `TFLITE_SCHEMA_FBS` names the schema and `TFLITE_SCHEMA_SOURCE` its recorded source —
/// reproduced byte for byte.
final class GeneratedSchemaFilesTests: XCTestCase {
    private let script = SchemaTestFiles.packageRoot.appendingPathComponent("Scripts/generate-schema-swift.py")

    /// Runs the generator with `arguments`; (exit status, stdout + stderr).
    private func runGenerator(_ arguments: [String]) throws -> (Int32, String) {
        let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let python else { throw TestEnvironment.missing("python3 is not installed: generated files not checked") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script.path] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    func testGeneratedFilesAreUnedited() throws {
        let (status, output) = try runGenerator(["--verify-stamps"])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("stamps match"), output)
    }

    func testGeneratedFilesReproduceFromTheSchema() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let schema = environment["TFLITE_SCHEMA_FBS"], let source = environment["TFLITE_SCHEMA_SOURCE"] else {
            throw XCTSkip("set TFLITE_SCHEMA_FBS (path of schema.fbs) and TFLITE_SCHEMA_SOURCE (as in the generated headers)")
        }
        let (status, output) = try runGenerator([schema, "--source", source, "--check"])
        XCTAssertEqual(status, 0, output)
    }

    func testTheStampDetectsAnEdit() throws {
        // A copy of the package's Scripts/ and generated files with one edited character fails.
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("schema-stamp-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let files = ["Sources/TFLiteSchema/BuiltinOperator+Codes.swift",
                     "Sources/TFLiteSchema/Options/BuiltinOptionsType+Codes.swift",
                     "Sources/TFLiteSchema/Options/OptionEnums.swift",
                     "Sources/TFLiteSchema/Options/BuiltinOptions+Tables.swift",
                     "Scripts/generate-schema-swift.py"]
        for file in files {
            let target = root.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: SchemaTestFiles.packageRoot.appendingPathComponent(file), to: target)
        }
        let edited = root.appendingPathComponent(files[2])
        let text = try String(contentsOf: edited, encoding: .utf8)
        try text.replacingOccurrences(of: "case valid = 1", with: "case valid = 2").write(to: edited, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent(files[4]).path, "--verify-stamps"]
        process.standardOutput = Pipe(); process.standardError = Pipe()
        guard (try? process.run()) != nil else { throw TestEnvironment.missing("python3 is not runnable") }
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 1, "an edited generated file must fail --verify-stamps")
    }
}
