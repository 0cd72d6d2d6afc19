import Foundation
import TestSupport
import XCTest
@testable import ModelHosting

/// Shared set-up: a fresh cache directory, a loopback model host, and a manager with short
/// timeouts. Real models from Models/ are the payloads.
class ModelManagerTestCase: XCTestCase {
    var cacheDirectory: URL!
    var host: TestModelHost!
    var notificationCenter: NotificationCenter!
    var modelV1: [UInt8] = []
    var modelV2: [UInt8] = []
    let modelName = "face_detector"

    override func setUpWithError() throws {
        modelV1 = try TestPaths.modelBytes("face_detection_short_range.tflite")
        modelV2 = try TestPaths.modelBytes("face_detection_back.tflite")
        cacheDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("litevision-hosting-tests-\(UUID().uuidString)", isDirectory: true)
        host = try TestModelHost()
        notificationCenter = NotificationCenter()
    }

    override func tearDown() {
        host?.stop()
        if let cacheDirectory { try? FileManager.default.removeItem(at: cacheDirectory) }
    }

    var remote: RemoteModel { RemoteModel(name: modelName, host: host.baseURL) }

    /// The validator most tests use: the file identifier and the engine's model-file loader
    /// (bounds and graph checks). ``ModelValidator/standard`` additionally needs every operator
    /// of the payload models implemented; its tests check that first (`requireInterpreterSupport`).
    static let loaderValidator = ModelValidator { path in
        try ModelValidator.fileIdentifier.validate(path)
        try ModelValidator.modelFile.validate(path)
    }

    func makeManager(idleTimeout: TimeInterval = 5, maximumAttempts: Int = 3,
                     validator: ModelValidator = ModelManagerTestCase.loaderValidator) -> ModelManager {
        ModelManager(configuration: .init(cacheDirectory: cacheDirectory, idleTimeout: idleTimeout,
                                          resourceTimeout: 8, maximumAttempts: maximumAttempts,
                                          retryDelay: 0.05, validator: validator),
                     notificationCenter: notificationCenter)
    }

    /// Downloads and returns the outcome, failing the test after `seconds`.
    func outcome(of download: ModelDownload, within seconds: Double = 8) async -> Result<String, ModelHostingError> {
        let result: Result<String, ModelHostingError>? = await withTaskGroup(of: Result<String, ModelHostingError>?.self) { group in
            group.addTask {
                do { return .success(try await download.result()) } catch {
                    return .failure(error as? ModelHostingError ?? .network("\(error)"))
                }
            }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let result else {
            XCTFail("download did not finish within \(seconds) s")
            download.cancel()
            return .failure(.timedOut("test bound"))
        }
        return result
    }

    /// Asserts success and returns the path.
    @discardableResult
    func expectSuccess(_ download: ModelDownload, file: StaticString = #filePath, line: UInt = #line) async throws -> String {
        switch await outcome(of: download) {
        case let .success(path): return path
        case let .failure(error):
            XCTFail("download failed: \(error)", file: file, line: line)
            throw error
        }
    }

    /// Asserts failure and returns the error.
    func expectFailure(_ download: ModelDownload, file: StaticString = #filePath, line: UInt = #line) async -> ModelHostingError? {
        switch await outcome(of: download) {
        case let .success(path):
            XCTFail("download unexpectedly succeeded: \(path)", file: file, line: line)
            return nil
        case let .failure(error): return error
        }
    }

    /// Returns when the engine can load and allocate `Models/<name>` (all its operators
    /// implemented); otherwise skips locally and fails under CI (``TestEnvironment``), so a
    /// validation error can never pass CI as a skip.
    func requireInterpreterSupport(_ name: String) throws {
        let path = try TestPaths.model(name).path
        do {
            try ModelValidator.interpreter.validate(path)
        } catch {
            throw TestEnvironment.missing("the interpreter cannot run \(name) (\(error)); standard-validator test not run")
        }
    }

    func fileBytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Every file under the model's cache directory, relative paths, sorted.
    func cacheListing() -> [String] {
        let directory = cacheDirectory.appendingPathComponent(modelName)
        guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        return (enumerator.allObjects as? [String] ?? []).sorted()
    }
}
