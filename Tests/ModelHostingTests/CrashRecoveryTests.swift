import Foundation
import XCTest
@testable import ModelHosting

/// A process killed between download and rename (or between the steps of an install) leaves
/// files behind; a manager started afterwards must serve exactly the old or the new verified
/// model and clean up the rest.
final class CrashRecoveryTests: ModelManagerTestCase {
    func testKillBeforeInstallLeavesOldModel() async throws {
        host.publish(modelName, version: "1", bytes: modelV1)
        let oldPath = try await expectSuccess(makeManager().download(remote))
        let directory = cacheDirectory.appendingPathComponent(modelName)
        let sha2 = SHA256.hexString(SHA256.hash(modelV2))

        // State of a kill after the download finished, before/while renaming into place:
        // a complete partial file, an atomic-write temp file, and a version directory the
        // pointer does not name (renamed but pointer not yet switched).
        try Data(modelV2).write(to: directory.appendingPathComponent(".partial-\(sha2)"))
        try Data("{\"url\":\"x\"".utf8).write(to: directory.appendingPathComponent(".tmp-\(UUID().uuidString)"))
        let orphan = directory.appendingPathComponent("2")
        try FileManager.default.createDirectory(at: orphan, withIntermediateDirectories: true)
        try Data(modelV2).write(to: orphan.appendingPathComponent("\(sha2.prefix(16)).tflite"))

        let restarted = makeManager()
        XCTAssertEqual(restarted.latestModelFilePath(remote), oldPath)
        XCTAssertEqual(try fileBytes(oldPath), modelV1)
        let listing = cacheListing()
        XCTAssertFalse(listing.contains { $0.hasPrefix(".tmp-") }, "\(listing)")
        XCTAssertFalse(listing.contains("2"), "unreferenced version removed: \(listing)")
    }

    /// A real kill: `litevision models download` is SIGKILLed mid-transfer. The installed
    /// version is intact for the next manager, which resumes the partial file.
    func testSIGKILLedDownloadProcessLeavesOldModelAndResumes() async throws {
        let executable = try TestPaths.litevisionExecutable()
        host.publish(modelName, version: "1", bytes: modelV1)
        let oldPath = try await expectSuccess(makeManager().download(remote))
        host.publish(modelName, version: "2", bytes: modelV2)
        host.withFaults { $0.stallAfterBytes = 100_000; $0.stallSeconds = 8 }

        let process = Process()
        process.executableURL = executable
        process.arguments = ["models", "download", modelName, "--host", host.baseURL.absoluteString,
                             "--cache", cacheDirectory.path, "--check", "structure"]
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let partial = cacheDirectory.appendingPathComponent(modelName)
            .appendingPathComponent(".partial-\(SHA256.hexString(SHA256.hash(modelV2)))")
        let deadline = Date().addingTimeInterval(6)
        while PartialDownloadInfo.fileSize(partial.path) < 100_000 && Date() < deadline && process.isRunning {
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        XCTAssertEqual(PartialDownloadInfo.fileSize(partial.path), 100_000, "the process wrote the bytes before the stall")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)

        host.withFaults { $0.stallAfterBytes = nil }
        let restarted = makeManager()
        XCTAssertEqual(restarted.latestModelFilePath(remote), oldPath)
        XCTAssertEqual(try fileBytes(oldPath), modelV1)
        let newPath = try await expectSuccess(restarted.download(remote))
        XCTAssertEqual(try fileBytes(newPath), modelV2)
        XCTAssertEqual(host.fileRequests.last?.headers["range"], "bytes=100000-", "resumed after the kill")
    }

    func testKillAfterPointerSwitchLeavesNewModel() async throws {
        host.publish(modelName, version: "1", bytes: modelV1)
        let oldPath = try await expectSuccess(makeManager().download(remote))
        host.publish(modelName, version: "2", bytes: modelV2)
        let newPath = try await expectSuccess(makeManager().download(remote))
        // Re-create the old version as a kill before its removal would have left it.
        try FileManager.default.createDirectory(atPath: (oldPath as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(modelV1).write(to: URL(fileURLWithPath: oldPath))

        let restarted = makeManager()
        XCTAssertEqual(restarted.latestModelFilePath(remote), newPath)
        XCTAssertEqual(try fileBytes(newPath), modelV2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: oldPath))
    }

    func testCorruptPointerMeansNotDownloaded() async throws {
        host.publish(modelName, version: "1", bytes: modelV1)
        let manager = makeManager()
        let path = try await expectSuccess(manager.download(remote))
        // A pointer naming a file of the wrong size (e.g. truncated by a foreign tool) is not trusted.
        try Data(modelV1.prefix(100)).write(to: URL(fileURLWithPath: path))
        XCTAssertNil(manager.latestModelFilePath(remote))
        // Downloading again repairs it.
        let repaired = try await expectSuccess(manager.download(remote))
        XCTAssertEqual(try fileBytes(repaired), modelV1)
    }
}
