import Foundation
import XCTest
@testable import ModelHosting
import TFLiteInterpreter

/// Downloads against a real HTTP server on loopback: the happy paths.
final class ModelDownloadTests: ModelManagerTestCase {
    func testFirstDownloadInstallsVerifiedModelAndReportsProgress() async throws {
        host.publish(modelName, version: "1", bytes: modelV1)
        let manager = makeManager()
        XCTAssertFalse(manager.isModelDownloaded(remote))
        XCTAssertNil(manager.latestModelFilePath(remote))

        let download = manager.download(remote)
        let updates = Task { () -> [ModelDownloadProgress] in
            var seen: [ModelDownloadProgress] = []
            for await update in download.progressUpdates() { seen.append(update) }
            return seen
        }
        let path = try await expectSuccess(download)
        let seen = await updates.value

        XCTAssertEqual(try fileBytes(path), modelV1)
        XCTAssertTrue(manager.isModelDownloaded(remote))
        XCTAssertEqual(manager.latestModelFilePath(remote), path)
        XCTAssertTrue(path.hasPrefix(cacheDirectory.appendingPathComponent("\(modelName)/1/").path), path)
        XCTAssertEqual(download.fractionCompleted, 1)
        XCTAssertEqual(download.progress.completedUnitCount, Int64(modelV1.count))
        XCTAssertEqual(download.progress.fractionCompleted, 1, accuracy: 1e-9)
        XCTAssertEqual(seen.last?.fractionCompleted, 1)
        XCTAssertEqual(seen.last?.totalBytes, Int64(modelV1.count))
        XCTAssertEqual(seen.map(\.completedBytes), seen.map(\.completedBytes).sorted(), "progress never goes back")
        let info = try XCTUnwrap(manager.downloadedModelInfo(remote))
        XCTAssertEqual(info.version, "1")
        XCTAssertEqual(info.sha256, SHA256.hexString(SHA256.hash(modelV1)))
        XCTAssertEqual(cacheListing().filter { !$0.hasPrefix(".") }.count, 3, "\(cacheListing())") // current.json, 1, 1/file
        XCTAssertEqual(host.fileRequests.count, 1)
        XCTAssertEqual(host.fileRequests[0].headers["accept-encoding"], "identity", "sizes and ranges are of the raw file")
    }

    func testUnchangedModelIsNotDownloadedAgain() async throws {
        host.publish(modelName, version: "1", bytes: modelV1)
        let manager = makeManager()
        let first = try await expectSuccess(manager.download(remote))
        let second = try await expectSuccess(manager.download(remote))

        XCTAssertEqual(first, second)
        XCTAssertEqual(host.fileRequests.count, 1, "the model file is fetched once")
        let manifests = host.manifestRequests
        XCTAssertEqual(manifests.count, 2)
        XCTAssertNil(manifests[0].headers["if-none-match"])
        XCTAssertNotNil(manifests[1].headers["if-none-match"], "second check is conditional (answered 304)")

        // A fresh manager on the same cache also answers from disk after a 304.
        let restarted = makeManager()
        XCTAssertEqual(restarted.latestModelFilePath(remote), first)
        let third = try await expectSuccess(restarted.download(remote))
        XCTAssertEqual(third, first)
        XCTAssertEqual(host.fileRequests.count, 1)
    }

    func testNewVersionReplacesOld() async throws {
        host.publish(modelName, version: "1", bytes: modelV1)
        let manager = makeManager()
        let oldPath = try await expectSuccess(manager.download(remote))

        host.publish(modelName, version: "2", bytes: modelV2)
        XCTAssertEqual(manager.latestModelFilePath(remote), oldPath, "old version serves until the new one is in")
        let newPath = try await expectSuccess(manager.download(remote))

        XCTAssertNotEqual(oldPath, newPath)
        XCTAssertEqual(try fileBytes(newPath), modelV2)
        XCTAssertEqual(manager.latestModelFilePath(remote), newPath)
        XCTAssertEqual(manager.downloadedModelInfo(remote)?.version, "2")
        XCTAssertFalse(FileManager.default.fileExists(atPath: oldPath), "old version removed after the switch")
        XCTAssertFalse(cacheListing().contains("1"), "\(cacheListing())")
    }

    /// A host that replaces the file without bumping the version still gets its new bytes
    /// installed (the file name carries the checksum) and the old file removed.
    func testSameVersionWithNewContentReplacesFile() async throws {
        host.publish(modelName, version: "1", bytes: modelV1)
        let manager = makeManager()
        let oldPath = try await expectSuccess(manager.download(remote))
        host.publish(modelName, version: "1", bytes: modelV2)
        let newPath = try await expectSuccess(manager.download(remote))
        XCTAssertNotEqual(oldPath, newPath)
        XCTAssertEqual(try fileBytes(newPath), modelV2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: oldPath))
        XCTAssertEqual(cacheListing().filter { $0.hasPrefix("1/") }.count, 1, "\(cacheListing())")
    }

    func testAbsoluteFileURLAndSameSchemeRedirectAreFollowed() async throws {
        host.publish(modelName, version: "1", bytes: modelV1)
        host.withFaults {
            $0.absoluteFileURL = true
            $0.manifestRedirect = self.host.baseURL.absoluteString + "models/\(self.modelName).json?moved=1"
        }
        let manager = makeManager()
        let path = try await expectSuccess(manager.download(remote))
        XCTAssertEqual(try fileBytes(path), modelV1)
        XCTAssertEqual(host.manifestRequests.count, 2, "302 then the target")
    }

    func testRedirectToOtherSchemeIsRejected() async throws {
        host.publish(modelName, version: "1", bytes: modelV1)
        host.withFaults { $0.manifestRedirect = "ftp://127.0.0.1:\(self.host.baseURL.port!)/models/x.json" }
        let manager = makeManager()
        let error = await expectFailure(manager.download(remote))
        guard case .redirectRejected = error else { return XCTFail("expected redirectRejected, got \(String(describing: error))") }
        XCTAssertFalse(manager.isModelDownloaded(remote))
    }

    func testRedirectPolicy() {
        let http = URL(string: "http://a.example/x")!, https = URL(string: "https://a.example/x")!
        XCTAssertTrue(HTTPTransfer.allowsRedirect(from: http, to: URL(string: "http://b.example/y")))
        XCTAssertTrue(HTTPTransfer.allowsRedirect(from: http, to: https))
        XCTAssertTrue(HTTPTransfer.allowsRedirect(from: https, to: URL(string: "https://b.example/")))
        XCTAssertFalse(HTTPTransfer.allowsRedirect(from: https, to: http), "no downgrade")
        XCTAssertFalse(HTTPTransfer.allowsRedirect(from: http, to: URL(string: "file:///etc/passwd")))
        XCTAssertFalse(HTTPTransfer.allowsRedirect(from: http, to: URL(string: "ftp://a.example/")))
    }

    func testConcurrentDownloadsOfSameModelJoin() async throws {
        host.publish(modelName, version: "1", bytes: modelV1)
        host.withFaults { $0.fileDelay = 0.3 }
        let manager = makeManager()
        let model = remote
        let downloads = await withTaskGroup(of: ModelDownload.self) { group in
            for _ in 0..<8 { group.addTask { manager.download(model) } }
            var all: [ModelDownload] = []
            for await download in group { all.append(download) }
            return all
        }
        XCTAssertTrue(downloads.allSatisfy { $0 === downloads[0] }, "every caller joined the one running download")
        var paths = Set<String>()
        for download in downloads { paths.insert(try await expectSuccess(download)) }
        XCTAssertEqual(paths.count, 1)
        XCTAssertEqual(host.fileRequests.count, 1)
        XCTAssertEqual(host.manifestRequests.count, 1)
        // After it finished, a new call starts a new download (a 304 check).
        let again = manager.download(model)
        XCTAssertFalse(again === downloads[0])
        try await expectSuccess(again)
    }

    /// Two managers on one cache directory (e.g. an app and the command line) serialize on the
    /// model's lock: the second waits, then finds the model current (304), no second transfer.
    func testTwoManagersOnOneCacheDoNotDownloadTwice() async throws {
        host.publish(modelName, version: "1", bytes: modelV1)
        host.withFaults { $0.fileDelay = 0.5 }
        let first = makeManager(), second = makeManager()
        let one = first.download(remote)
        try await Task.sleep(nanoseconds: 200_000_000)
        let two = second.download(remote)
        let pathOne = try await expectSuccess(one)
        let pathTwo = try await expectSuccess(two)
        XCTAssertEqual(pathOne, pathTwo)
        XCTAssertEqual(try fileBytes(pathTwo), modelV1)
        XCTAssertEqual(host.fileRequests.count, 1, "the second manager waited and found the model current")
    }

    func testDownloadContinuesWhenRequesterIsGone() async throws {
        final class Requester {
            let download: ModelDownload
            init(manager: ModelManager, model: RemoteModel) { download = manager.download(model) }
        }
        host.publish(modelName, version: "1", bytes: modelV1)
        host.withFaults { $0.fileDelay = 0.3 }
        let manager = makeManager()
        let events = manager.events()
        weak var weakRequester: Requester?
        do {
            let requester = Requester(manager: manager, model: remote)
            weakRequester = requester
        }
        XCTAssertNil(weakRequester, "the requester is gone")
        var iterator = events.makeAsyncIterator()
        guard case let .succeeded(model, path)? = await iterator.next() else { return XCTFail("expected success event") }
        XCTAssertEqual(model, remote)
        XCTAssertEqual(try fileBytes(path), modelV1)
    }

    func testSuccessAndFailureNotificationsAndEvents() async throws {
        host.publish(modelName, version: "1", bytes: modelV1)
        let manager = makeManager()
        let received = NotificationLog()
        let observers = [Notification.Name.modelDownloadDidSucceed, .modelDownloadDidFail].map { name in
            notificationCenter.addObserver(forName: name, object: manager, queue: nil) { received.append($0) }
        }
        defer { observers.forEach(notificationCenter.removeObserver) }
        let events = manager.events()

        let path = try await expectSuccess(manager.download(remote))
        host.withFaults { $0.manifestStatus = 500 }
        _ = await expectFailure(manager.download(remote))

        let notes = received.all
        XCTAssertEqual(notes.map(\.name), [.modelDownloadDidSucceed, .modelDownloadDidFail])
        XCTAssertEqual(notes[0].userInfo?[ModelDownloadUserInfoKey.remoteModel.rawValue] as? RemoteModel, remote)
        XCTAssertEqual(notes[0].userInfo?[ModelDownloadUserInfoKey.modelFilePath.rawValue] as? String, path)
        XCTAssertEqual(notes[1].userInfo?[ModelDownloadUserInfoKey.remoteModel.rawValue] as? RemoteModel, remote)
        XCTAssertEqual(notes[1].userInfo?[ModelDownloadUserInfoKey.error.rawValue] as? ModelHostingError,
                       .httpStatus(code: 500, url: remote.manifestURL.absoluteString))

        var iterator = events.makeAsyncIterator()
        guard case .succeeded? = await iterator.next() else { return XCTFail("expected success event") }
        guard case let .failed(_, error)? = await iterator.next() else { return XCTFail("expected failure event") }
        XCTAssertEqual(error, .httpStatus(code: 500, url: remote.manifestURL.absoluteString))
        XCTAssertEqual(manager.latestModelFilePath(remote), path, "failure keeps the installed model")
    }

    func testDeleteAndSelectionHelper() async throws {
        host.publish(modelName, version: "1", bytes: modelV1)
        let manager = makeManager()
        let bundled = LocalModel(path: try TestPaths.model("face_detection_back.tflite").path)
        let source = ModelSource.remote(remote, fallback: bundled)
        XCTAssertEqual(try source.resolvedFilePath(using: manager), bundled.path, "falls back before download")
        XCTAssertEqual(manager.preferredModel(remote: remote, local: bundled), .local(bundled))
        XCTAssertThrowsError(try ModelSource.remote(remote).resolvedFilePath(using: manager)) {
            XCTAssertEqual($0 as? ModelHostingError, .modelNotDownloaded(self.modelName))
        }
        let path = try await expectSuccess(manager.download(remote))
        XCTAssertEqual(try source.resolvedFilePath(using: manager), path, "remote once downloaded")
        XCTAssertEqual(manager.modelFilePath(remote: remote, fallback: bundled), path)
        XCTAssertEqual(manager.preferredModel(remote: remote, local: bundled), .remote(remote))
        XCTAssertEqual(try bundled.modelSource.resolvedFilePath(using: manager), bundled.path)

        try await manager.deleteDownloadedModel(remote)
        XCTAssertFalse(manager.isModelDownloaded(remote))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        XCTAssertEqual(try source.resolvedFilePath(using: manager), bundled.path)
        XCTAssertEqual(manager.downloadedModels(), [])
    }

    func testInterpreterLoadsFromModelSource() async throws {
        try requireInterpreterSupport("face_detection_short_range.tflite")
        try requireInterpreterSupport("face_detection_back.tflite")
        host.publish(modelName, version: "1", bytes: modelV1)
        let manager = makeManager()
        let bundled = LocalModel(path: try TestPaths.model("face_detection_back.tflite").path)
        let before = try Interpreter(modelSource: ModelSource.remote(remote, fallback: bundled), manager: manager)
        try before.allocateTensors()
        XCTAssertEqual(try before.inputShape(at: 0).dimensions, [1, 256, 256, 3], "the bundled back-camera model")
        try await expectSuccess(manager.download(remote))
        let after = try Interpreter(modelSource: ModelSource.remote(remote, fallback: bundled), manager: manager)
        try after.allocateTensors()
        XCTAssertEqual(try after.inputShape(at: 0).dimensions, [1, 128, 128, 3], "the downloaded short-range model")
    }

    func testInvalidNamesAndHostsFail() async throws {
        let manager = makeManager()
        let badName = await expectFailure(manager.download(RemoteModel(name: "../etc", host: host.baseURL)))
        XCTAssertEqual(badName, .invalidModelName("../etc"))
        let badHost = await expectFailure(manager.download(RemoteModel(name: "m", host: URL(string: "file:///tmp")!)))
        XCTAssertEqual(badHost, .invalidURL("file:///tmp"))
        XCTAssertFalse(RemoteModel.isValidName(".hidden"))
        XCTAssertFalse(RemoteModel.isValidName("a/b"))
        XCTAssertTrue(RemoteModel.isValidName("ssd_mobilenet-v2.1"))
    }
}

/// Thread-safe notification collector.
final class NotificationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var notes: [Notification] = []
    func append(_ note: Notification) { lock.lock(); notes.append(note); lock.unlock() }
    var all: [Notification] { lock.lock(); defer { lock.unlock() }; return notes }
}
