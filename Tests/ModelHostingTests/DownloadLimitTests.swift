import Foundation
import TFLiteSchema
import XCTest
@testable import ModelHosting

/// Downloads end within ``ResourceLimits/downloadDeadline`` and fail when a server trickles
/// (issue #17: 1 B/s kept `models download --timeout 5` running for an hour), and a file that
/// fails validation is never resumed and re-validated on the next attempt.
final class DownloadLimitTests: ModelManagerTestCase {
    private func manager(deadline: Double, minimumRate: Double, window: Double,
                         validator: ModelValidator = ModelManagerTestCase.loaderValidator) -> ModelManager {
        var limits = ResourceLimits()
        limits.downloadDeadline = deadline
        limits.minimumTransferRate = minimumRate
        limits.transferRateWindow = window
        return ModelManager(configuration: .init(cacheDirectory: cacheDirectory, idleTimeout: 5, resourceTimeout: 30,
                                                 maximumAttempts: 3, retryDelay: 0.05, validator: validator,
                                                 resourceLimits: limits),
                            notificationCenter: notificationCenter)
    }

    func testTricklingManifestFailsAtTheDeadline() async throws {
        host.publish(modelName, version: "1", bytes: modelV1)
        host.withFaults { $0.manifestTrickle = 2 }   // a byte every half second: never idle
        let error = await expectFailure(manager(deadline: 2, minimumRate: 0, window: 30).download(remote))
        guard case let .timedOut(reason)? = error else { return XCTFail("expected timedOut, got \(String(describing: error))") }
        XCTAssertTrue(reason.contains("deadline"), reason)
        // Checked by requests, not by a clock: a deadline per attempt would retry (3 attempts).
        XCTAssertEqual(host.manifestRequests.count, 1, "the deadline bounds the whole download: no retry after it")
    }

    func testTricklingBodyFailsBelowTheMinimumRate() async throws {
        host.publish(modelName, version: "1", bytes: modelV1)
        host.withFaults { $0.fileTrickle = 10 }
        let error = await expectFailure(manager(deadline: 60, minimumRate: 1000, window: 1).download(remote))
        guard case let .timedOut(reason)? = error else { return XCTFail("expected timedOut, got \(String(describing: error))") }
        XCTAssertTrue(reason.contains("minimumTransferRate"), reason)
        XCTAssertEqual(host.fileRequests.count, 3, "each of the three attempts ended by the rate check")
        XCTAssertNil(manager(deadline: 60, minimumRate: 0, window: 1).latestModelFilePath(remote))
    }

    /// The resume record of a complete file is gone before the validator runs: had the
    /// validator crashed the process, the next attempt would download again.
    func testValidatedFileIsNotResumable() async throws {
        host.publish(modelName, version: "1", bytes: modelV1)
        let cache = ModelCache(root: cacheDirectory)
        let sha = TestModelHost.Published(version: "1", bytes: modelV1).sha256
        let infoPath = cache.partialInfoURL(modelName, sha256: sha).path
        let sawInfo = LockedFlag()
        let rejecting = manager(deadline: 60, minimumRate: 0, window: 30, validator: ModelValidator { _ in
            if FileManager.default.fileExists(atPath: infoPath) { sawInfo.set() }
            throw ModelHostingError.invalidModel("rejected")
        })
        _ = await expectFailure(rejecting.download(remote))
        XCTAssertFalse(sawInfo.value, "the resume record outlived the checksum check")
        XCTAssertTrue(cacheListing().allSatisfy { !$0.contains(".partial-") }, "\(cacheListing())")
        _ = await expectFailure(rejecting.download(remote))
        XCTAssertEqual(host.fileRequests.count, 2, "the second attempt downloaded the file again")
    }
}

private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    func set() { lock.lock(); flag = true; lock.unlock() }
    var value: Bool { lock.lock(); defer { lock.unlock() }; return flag }
}
