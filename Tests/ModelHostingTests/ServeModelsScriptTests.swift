import Foundation
import TestSupport
import XCTest
@testable import ModelHosting

/// `Scripts/serve-models.sh` and the `litevision models` command line, end to end: a real
/// python3 server process on loopback and the built `litevision` executable.
final class ServeModelsScriptTests: XCTestCase {
    private var server: Process?
    private var workDirectory: URL!

    override func setUpWithError() throws {
        workDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("litevision-serve-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: workDirectory.appendingPathComponent("models"),
                                                withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let server, server.isRunning {
            server.terminate()
            let deadline = Date().addingTimeInterval(3)
            while server.isRunning && Date() < deadline { usleep(20_000) }
            if server.isRunning { kill(server.processIdentifier, SIGKILL) }
        }
        try? FileManager.default.removeItem(at: workDirectory)
    }

    private var servedDirectory: URL { workDirectory.appendingPathComponent("models") }
    private var cacheDirectory: URL { workDirectory.appendingPathComponent("cache") }

    /// Starts the script on port 0 and returns the host URL it prints.
    private func startServer() throws -> URL {
        guard let python = Self.executable("python3") else { throw TestEnvironment.missing("python3 is not installed") }
        _ = python
        let process = Process()
        process.executableURL = TestPaths.packageRoot.appendingPathComponent("Scripts/serve-models.sh")
        process.arguments = [servedDirectory.path, "0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        server = process
        // The first line names the port; read it with a bound.
        let reader = output.fileHandleForReading
        var text = ""
        let deadline = Date().addingTimeInterval(5)
        while !text.contains("\n"), Date() < deadline, process.isRunning {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: "http://127.0.0.1:"),
              let url = URL(string: String(text[range.lowerBound...]).trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw TestEnvironment.missing("serve-models.sh did not start: '\(text)'") }
        return url
    }

    private static func executable(_ name: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        return paths.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs litevision with `arguments`; returns (exit status, stdout, stderr). Bounded to 20 s.
    private func run(_ arguments: [String]) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = try TestPaths.litevisionExecutable()
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            XCTFail("litevision \(arguments) did not finish in 20 s")
        }
        process.waitUntilExit()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, out, err)
    }

    func testCommandLineDownloadListDeleteAgainstServeModelsScript() throws {
        let model = try TestPaths.model("face_detection_short_range.tflite")
        try FileManager.default.copyItem(at: model, to: servedDirectory.appendingPathComponent("faces.tflite"))
        try Data("7".utf8).write(to: servedDirectory.appendingPathComponent("faces.version"))
        let host = try startServer()
        let cache = ["--cache", cacheDirectory.path]

        let (status, out, err) = try run(["models", "download", "faces", "--host", host.absoluteString, "--check", "structure"] + cache)
        XCTAssertEqual(status, 0, err)
        XCTAssertTrue(out.contains("100%"), out)
        XCTAssertTrue(out.contains("faces version 7"), out)
        let installed = cacheDirectory.appendingPathComponent("faces/7")
        let files = try FileManager.default.contentsOfDirectory(atPath: installed.path)
        XCTAssertEqual(files.count, 1)
        XCTAssertEqual(try Data(contentsOf: installed.appendingPathComponent(files[0])), try Data(contentsOf: model))

        let (againStatus, againOut, _) = try run(["models", "download", "faces", "--host", host.absoluteString, "--check", "structure"] + cache)
        XCTAssertEqual(againStatus, 0)
        XCTAssertTrue(againOut.contains("faces version 7"), againOut)

        let (listStatus, listOut, _) = try run(["models", "list"] + cache)
        XCTAssertEqual(listStatus, 0)
        XCTAssertTrue(listOut.contains("faces\tversion 7\t229032 bytes"), listOut)

        let (missingStatus, _, missingErr) = try run(["models", "download", "absent", "--host", host.absoluteString] + cache)
        XCTAssertNotEqual(missingStatus, 0, "failure exits non-zero")
        XCTAssertTrue(missingErr.contains("HTTP 404"), missingErr)

        let (deleteStatus, deleteOut, _) = try run(["models", "delete", "faces"] + cache)
        XCTAssertEqual(deleteStatus, 0)
        XCTAssertTrue(deleteOut.contains("deleted faces"), deleteOut)
        let (_, emptyOut, _) = try run(["models", "list"] + cache)
        XCTAssertTrue(emptyOut.contains("no downloaded models"), emptyOut)
    }

    /// The script's server honours If-None-Match and Range + If-Range, as the manager uses them.
    func testManagerResumesAgainstServeModelsScript() async throws {
        let bytes = try TestPaths.modelBytes("face_detection_back.tflite")
        try Data(bytes).write(to: servedDirectory.appendingPathComponent("back.tflite"))
        let host = try startServer()
        let sha = SHA256.hexString(SHA256.hash(bytes))

        // Leave a partial download behind as an interrupted transfer would, with the file's
        // validator (serve_models.py's strong ETag: the first 32 hex digits of the SHA-256).
        let fileURL = host.appendingPathComponent("files/back.tflite")
        let etag = "\"\(sha.prefix(32))\""
        let modelDirectory = cacheDirectory.appendingPathComponent("back")
        try FileManager.default.createDirectory(at: modelDirectory, withIntermediateDirectories: true)
        try Data(bytes.prefix(123_456)).write(to: modelDirectory.appendingPathComponent(".partial-\(sha)"))
        try PartialDownloadInfo(url: fileURL.absoluteString, validator: etag)
            .save(modelDirectory.appendingPathComponent(".partial-\(sha).json").path)

        let manager = ModelManager(configuration: .init(cacheDirectory: cacheDirectory, idleTimeout: 5,
                                                        resourceTimeout: 10, validator: ModelManagerTestCase.loaderValidator))
        let remote = RemoteModel(name: "back", host: host)
        let download = manager.download(remote)
        var resumedFrom: Int64?
        for await update in download.progressUpdates() where update.totalBytes > 0 && resumedFrom == nil {
            resumedFrom = update.completedBytes
        }
        let path = try await download.result()
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: path))), bytes)
        XCTAssertEqual(resumedFrom, 123_456, "progress starts at the kept bytes")
        XCTAssertEqual(manager.downloadedModelInfo(remote)?.version, String(sha.prefix(12)))
        // Unchanged: a second download is answered by a 304.
        let again = try await manager.download(remote).result()
        XCTAssertEqual(again, path)
    }
}
