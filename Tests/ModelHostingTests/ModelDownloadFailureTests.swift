import Foundation
import XCTest
@testable import ModelHosting
import TFLiteSchema
#if canImport(Glibc)
import Glibc
#endif

/// Everything that can go wrong on the wire or on disk: each case must fail cleanly (typed error,
/// no partial install) and leave the previously installed model serving.
final class ModelDownloadFailureTests: ModelManagerTestCase {
    /// Installs v1 and publishes v2, returning v1's path.
    private func installV1ThenPublishV2(_ manager: ModelManager) async throws -> String {
        host.publish(modelName, version: "1", bytes: modelV1)
        let path = try await expectSuccess(manager.download(remote))
        host.publish(modelName, version: "2", bytes: modelV2)
        return path
    }

    private func assertOldModelIntact(_ manager: ModelManager, _ oldPath: String,
                                      file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(manager.latestModelFilePath(remote), oldPath, file: file, line: line)
        XCTAssertEqual(try fileBytes(oldPath), modelV1, file: file, line: line)
        XCTAssertEqual(manager.downloadedModelInfo(remote)?.version, "1", file: file, line: line)
        // A fresh manager (a restart) sees the same.
        XCTAssertEqual(makeManager().latestModelFilePath(remote), oldPath, file: file, line: line)
    }

    func testResumeAfterServerDropsConnectionMidBody() async throws {
        let manager = makeManager()
        let oldPath = try await installV1ThenPublishV2(manager)
        host.withFaults { $0.dropAfterBytes = 100_000; $0.dropCount = 1 }

        let path = try await expectSuccess(manager.download(remote))

        XCTAssertEqual(try fileBytes(path), modelV2)
        XCTAssertNotEqual(path, oldPath)
        let files = host.fileRequests
        XCTAssertEqual(files.count, 3, "v1, the dropped v2 transfer, the resumed v2 transfer")
        let resumed = files[2]
        XCTAssertEqual(resumed.headers["range"], "bytes=100000-", "resumes where the dropped transfer ended")
        XCTAssertEqual(resumed.headers["if-range"], "\"f-\(SHA256.hexString(SHA256.hash(modelV2)).prefix(16))\"")
        XCTAssertFalse(cacheListing().contains { $0.hasPrefix(".partial") }, "\(cacheListing())")
    }

    func testResumeAcrossManagerRestart() async throws {
        let manager = makeManager(maximumAttempts: 1)
        let oldPath = try await installV1ThenPublishV2(manager)
        host.withFaults { $0.dropAfterBytes = 150_000; $0.dropCount = 1 }
        let error = await expectFailure(manager.download(remote))
        guard case .network? = error else { return XCTFail("expected a network error, got \(String(describing: error))") }
        try assertOldModelIntact(manager, oldPath)
        XCTAssertTrue(cacheListing().contains { $0.hasPrefix(".partial") }, "partial kept for resume")

        let restarted = makeManager(maximumAttempts: 1)
        let path = try await expectSuccess(restarted.download(remote))
        XCTAssertEqual(try fileBytes(path), modelV2)
        XCTAssertEqual(host.fileRequests.last?.headers["range"], "bytes=150000-")
    }

    func testFullResponseToRangeRequestStartsOver() async throws {
        let manager = makeManager()
        _ = try await installV1ThenPublishV2(manager)
        host.withFaults { $0.dropAfterBytes = 120_000; $0.dropCount = 1; $0.ignoreRange = true }

        let path = try await expectSuccess(manager.download(remote))

        XCTAssertEqual(try fileBytes(path), modelV2, "the 200 body replaced the partial bytes instead of being appended")
        XCTAssertEqual(host.fileRequests.last?.headers["range"], "bytes=120000-")
    }

    func testServerErrorFails() async throws {
        let manager = makeManager()
        let oldPath = try await installV1ThenPublishV2(manager)
        host.withFaults { $0.fileStatus = 500 }
        let error = await expectFailure(manager.download(remote))
        guard case .httpStatus(500, _)? = error else { return XCTFail("expected HTTP 500, got \(String(describing: error))") }
        try assertOldModelIntact(manager, oldPath)

        host.withFaults { $0.fileStatus = nil; $0.manifestStatus = 500 }
        let manifestError = await expectFailure(manager.download(remote))
        guard case .httpStatus(500, _)? = manifestError else { return XCTFail("got \(String(describing: manifestError))") }
        try assertOldModelIntact(manager, oldPath)
    }

    /// The idle timeout ends a stalled transfer, checked by outcome rather than by a clock: the
    /// server resumes after its 6 s stall, so a download that waited the stall out would succeed;
    /// instead both attempts end with the idle-timeout error.
    func testStalledServerTimesOut() async throws {
        let manager = makeManager(idleTimeout: 1.5, maximumAttempts: 2)
        let oldPath = try await installV1ThenPublishV2(manager)
        host.withFaults { $0.stallAfterBytes = 50_000; $0.stallSeconds = 6 }
        let error = await expectFailure(manager.download(remote))
        guard case let .timedOut(reason)? = error else { return XCTFail("expected timedOut, got \(String(describing: error))") }
        XCTAssertTrue(reason.hasPrefix("no data for 1.5 s"), "the idle timeout ended it, not another limit: \(reason)")
        XCTAssertEqual(host.fileRequests.count, 3, "v1 + two attempts")
        XCTAssertEqual(host.fileRequests.last?.headers["range"], "bytes=50000-", "the retry resumed")
        try assertOldModelIntact(manager, oldPath)
    }

    func testContentLengthThatLiesIsRejected() async throws {
        let manager = makeManager()
        let oldPath = try await installV1ThenPublishV2(manager)
        // Shorter than the real body and the manifest.
        host.withFaults { $0.fileContentLength = self.modelV2.count - 1000 }
        let short = await expectFailure(manager.download(remote))
        XCTAssertEqual(short, .sizeMismatch(expected: modelV2.count, actual: modelV2.count - 1000))
        try assertOldModelIntact(manager, oldPath)

        // Longer than the body: the connection ends early every time.
        host.withFaults { $0.fileContentLength = self.modelV2.count + 1000 }
        let long = await expectFailure(manager.download(remote))
        XCTAssertNotNil(long)
        try assertOldModelIntact(manager, oldPath)
        XCTAssertFalse(cacheListing().contains("2"), "\(cacheListing())")
    }

    func testManifestSizeThatLiesIsRejected() async throws {
        let manager = makeManager()
        let oldPath = try await installV1ThenPublishV2(manager)
        host.withFaults { $0.manifestSize = self.modelV2.count - 10 }
        let error = await expectFailure(manager.download(remote))
        guard case .sizeMismatch? = error else { return XCTFail("expected sizeMismatch, got \(String(describing: error))") }
        try assertOldModelIntact(manager, oldPath)
    }

    func testChecksumMismatchIsRejected() async throws {
        let manager = makeManager()
        let oldPath = try await installV1ThenPublishV2(manager)
        let wrong = String(repeating: "ab", count: 32)
        host.withFaults { $0.manifestSHA256 = wrong }
        let error = await expectFailure(manager.download(remote))
        XCTAssertEqual(error, .checksumMismatch(expected: wrong, actual: SHA256.hexString(SHA256.hash(modelV2))))
        try assertOldModelIntact(manager, oldPath)
        XCTAssertFalse(cacheListing().contains { $0.hasPrefix(".partial") }, "corrupt partial deleted: \(cacheListing())")
    }

    func testNonModelFileIsRejected() async throws {
        let manager = makeManager()
        let oldPath = try await installV1ThenPublishV2(manager)
        let image = try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent("Models/images/camera.png"))
        host.publish(modelName, version: "2", bytes: Array(image))
        let error = await expectFailure(manager.download(remote))
        guard case .invalidModel? = error else { return XCTFail("expected invalidModel, got \(String(describing: error))") }
        try assertOldModelIntact(manager, oldPath)
    }

    /// A file that carries the TFLite identifier but is cut short passes the cheap checks and
    /// must be stopped by the engine's loader (the standard validator).
    func testTruncatedModelFailsLoaderValidation() async throws {
        let manager = makeManager()
        let oldPath = try await installV1ThenPublishV2(manager)
        host.publish(modelName, version: "3", bytes: Array(modelV2.prefix(40_000)))
        XCTAssertNoThrow(try ModelValidator.fileIdentifier.validate(
            writeTemporary(Array(modelV2.prefix(40_000)))), "the identifier alone does not catch it")
        let error = await expectFailure(manager.download(remote))
        guard case .invalidModel? = error else { return XCTFail("expected invalidModel, got \(String(describing: error))") }
        try assertOldModelIntact(manager, oldPath)
    }

    /// The standard validator (load with every operator, allocate) installs real models and
    /// rejects truncated ones.
    func testStandardValidatorInstallsRealModelAndRejectsTruncated() async throws {
        try requireInterpreterSupport("face_detection_short_range.tflite")
        let manager = makeManager(validator: .standard)
        let oldPath = try await installV1ThenPublishV2(manager)
        host.publish(modelName, version: "3", bytes: Array(modelV2.prefix(200_000)))
        let error = await expectFailure(manager.download(remote))
        guard case .invalidModel? = error else { return XCTFail("expected invalidModel, got \(String(describing: error))") }
        try assertOldModelIntact(manager, oldPath)
    }

    /// The standard validator made with tighter limits (what `models download --max-memory 1`
    /// builds) rejects a model the default limits install, naming the limit; the old model stays.
    func testStandardValidatorUnderTighterLimitsNamesTheLimit() async throws {
        try requireInterpreterSupport("face_detection_back.tflite")
        let oldPath = try await installV1ThenPublishV2(makeManager(validator: .standard))
        var limits = ResourceLimits.default
        limits.maximumTotalByteCount = 1 << 20
        let strict = makeManager(validator: .standard(limits: limits))
        let error = await expectFailure(strict.download(remote))
        guard case let .invalidModel(reason)? = error else { return XCTFail("expected invalidModel, got \(String(describing: error))") }
        XCTAssertTrue(reason.contains("maximumTotalByteCount"), reason)
        try assertOldModelIntact(strict, oldPath)
        XCTAssertNoThrow(try ModelValidator.standard.validate(try TestPaths.model("face_detection_back.tflite").path))
    }

    /// A custom validator (e.g. an app requiring a particular input shape) vetoes the install.
    func testModelFailingCustomValidationIsRejected() async throws {
        let manager = makeManager()
        let oldPath = try await installV1ThenPublishV2(manager)
        let strict = makeManager(validator: ModelValidator { path in
            try ModelManagerTestCase.loaderValidator.validate(path)
            throw ModelHostingError.invalidModel("rejected by the app's validator: \((path as NSString).lastPathComponent)")
        })
        let error = await expectFailure(strict.download(remote))
        guard case let .invalidModel(reason)? = error else { return XCTFail("expected invalidModel, got \(String(describing: error))") }
        XCTAssertTrue(reason.contains("rejected by the app"), reason)
        try assertOldModelIntact(strict, oldPath)
    }

    private func writeTemporary(_ bytes: [UInt8]) throws -> String {
        let url = cacheDirectory.appendingPathComponent("scratch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return url.path
    }

    #if canImport(Glibc)
    /// Disk full, simulated with RLIMIT_FSIZE: writes past the limit fail with EFBIG exactly as
    /// they fail with ENOSPC on a full disk (SIGXFSZ is ignored for the test).
    func testDiskFullKeepsOldModel() async throws {
        let manager = makeManager()
        let oldPath = try await installV1ThenPublishV2(manager)
        var original = rlimit()
        XCTAssertEqual(getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &original), 0)
        let previousHandler = signal(SIGXFSZ, SIG_IGN)
        var limited = original
        limited.rlim_cur = 100_000
        XCTAssertEqual(setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limited), 0)
        let error = await expectFailure(manager.download(remote))
        XCTAssertEqual(setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &original), 0)
        signal(SIGXFSZ, previousHandler)

        guard case let .fileSystem(reason)? = error else { return XCTFail("expected fileSystem, got \(String(describing: error))") }
        XCTAssertFalse(reason.isEmpty)
        try assertOldModelIntact(manager, oldPath)

        // With space again, the next attempt completes.
        let path = try await expectSuccess(manager.download(remote))
        XCTAssertEqual(try fileBytes(path), modelV2)
    }
    #endif

    func testCancelKeepsOldModel() async throws {
        let manager = makeManager()
        let oldPath = try await installV1ThenPublishV2(manager)
        host.withFaults { $0.stallAfterBytes = 10_000; $0.stallSeconds = 5 }
        let download = manager.download(remote)
        try await Task.sleep(nanoseconds: 300_000_000)
        download.cancel()
        let error = await expectFailure(download)
        XCTAssertEqual(error, .cancelled)
        try assertOldModelIntact(manager, oldPath)
    }
}
