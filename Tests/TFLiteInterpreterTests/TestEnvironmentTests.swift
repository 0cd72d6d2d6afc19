import TestSupport
import XCTest

/// The CI rule of the test suite: a missing prerequisite skips locally and fails under CI.
final class TestEnvironmentTests: XCTestCase {
    func testCIIsRecognisedFromTheEnvironment() {
        XCTAssertFalse(TestEnvironment.isCI([:]))
        for off in ["", "0", "false", "FALSE", "no"] { XCTAssertFalse(TestEnvironment.isCI(["CI": off]), off) }
        for on in ["1", "true", "yes", "github"] { XCTAssertTrue(TestEnvironment.isCI(["CI": on]), on) }
    }

    /// Locally the error is an `XCTSkip`; under CI it is not one (so XCTest records a failure).
    func testMissingPrerequisiteSkipsLocallyAndFailsUnderCI() {
        XCTAssertTrue(TestEnvironment.missing("model absent", ci: false) is XCTSkip)
        let underCI = TestEnvironment.missing("model absent", ci: true)
        XCTAssertFalse(underCI is XCTSkip)
        XCTAssertEqual((underCI as? MissingPrerequisite)?.message, "model absent")
        XCTAssertNoThrow(try TestEnvironment.require(true, "present", ci: true))
        XCTAssertThrowsError(try TestEnvironment.require(false, "absent", ci: true)) { XCTAssertTrue($0 is MissingPrerequisite) }
        XCTAssertThrowsError(try TestEnvironment.require(false, "absent", ci: false)) { XCTAssertTrue($0 is XCTSkip) }
    }

    /// Where `../shared/models` exists its models must all be there: asking for one that is not
    /// fails (never skips), with or without CI.
    func testAnAbsentSharedModelFailsWhenTheSharedFolderExists() throws {
        guard FileManager.default.fileExists(atPath: TestPaths.sharedModelsDirectory.path) else {
            throw TestEnvironment.missing("\(TestPaths.sharedModelsDirectory.path) absent")
        }
        XCTAssertThrowsError(try TestPaths.sharedModel("no_such_model.tflite")) { XCTAssertTrue($0 is MissingPrerequisite, "\($0)") }
    }
}
