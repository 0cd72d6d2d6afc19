import Foundation
import XCTest

/// Where the tests run, and what a missing prerequisite (a model, `../shared`, an operator the
/// engine cannot run yet) does there: locally a test that lacks one skips and says how to get
/// it; under CI (`CI` set, where `.ci/run` fetches the models and `../shared` is beside the
/// checkout) the same condition fails the test, so a run can never pass by testing less.
public enum TestEnvironment {
    /// True when the environment variable `CI` is set to anything but empty, `0` or `false`.
    public static var isCI: Bool { isCI(ProcessInfo.processInfo.environment) }

    /// Whether `environment` describes a CI run (see ``isCI``).
    public static func isCI(_ environment: [String: String]) -> Bool {
        guard let value = environment["CI"] else { return false }
        return !["", "0", "false", "no"].contains(value.lowercased())
    }

    /// The error for a missing prerequisite described by `message`: an `XCTSkip` locally, a
    /// ``MissingPrerequisite`` (which fails the test when thrown) when `ci` is true.
    public static func missing(_ message: String, ci: Bool = isCI) -> any Error {
        ci ? MissingPrerequisite(message: message) : XCTSkip(message)
    }

    /// Throws ``missing(_:ci:)`` for `message` when `condition` is false.
    public static func require(_ condition: Bool, _ message: @autoclosure () -> String, ci: Bool = isCI) throws {
        if !condition { throw missing(message(), ci: ci) }
    }

    /// Reports skipped parts of a test that ran other parts: under CI each one is a failure
    /// (`XCTFail`), locally they are printed. Empty `skipped` does nothing.
    public static func reportSkipped(_ skipped: [String], ci: Bool = isCI,
                                     file: StaticString = #filePath, line: UInt = #line) {
        guard !skipped.isEmpty else { return }
        if ci {
            XCTFail("skipped under CI: " + skipped.joined(separator: "; "), file: file, line: line)
        } else {
            print("note: skipped " + skipped.joined(separator: "; "))
        }
    }
}

/// A prerequisite of a test is missing under CI: thrown instead of `XCTSkip`, it fails the test.
public struct MissingPrerequisite: Error, CustomStringConvertible {
    /// What is missing and how to provide it.
    public let message: String
    /// A missing prerequisite described by `message`.
    public init(message: String) { self.message = message }
    public var description: String { "missing under CI (a skip here would hide it): \(message)" }
}
