import Foundation
import TestSupport
import XCTest

/// Runs the built `litevision` executable (the one `swift test` built next to the test bundle,
/// or `$LITEVISION_BIN`) with standard input from a file and outputs captured to files.
struct LiteVisionBinary {
    /// The executable's path.
    let path: String

    /// Finds the executable, or skips with a message.
    init() throws {
        var candidates: [String] = []
        if let explicit = ProcessInfo.processInfo.environment["LITEVISION_BIN"] { candidates.append(explicit) }
        var directory = Bundle.main.bundleURL
        for _ in 0..<3 {
            candidates.append(directory.appendingPathComponent("litevision").path)
            directory.deleteLastPathComponent()
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        candidates.append(executable.appendingPathComponent("litevision").path)
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw TestEnvironment.missing("no built litevision executable near the tests (\(candidates.first ?? "")): run `swift build -c release` first or set LITEVISION_BIN")
        }
        path = found
    }

    /// What one run produced.
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        /// The standard-output lines parsed as JSON objects.
        func records(file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
            try stdout.split(separator: "\n").map { text in
                guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
                    XCTFail("not a JSON object: \(text)", file: file, line: line)
                    return [:]
                }
                return object
            }
        }
    }

    /// Starts the binary; the caller waits or kills it.
    func start(_ arguments: [String], stdinFile: String? = nil, environment: [String: String] = [:],
               in directory: URL) throws -> (Process, stdout: URL, stderr: URL) {
        try Self.start(executable: path, arguments, stdinFile: stdinFile, environment: environment, in: directory)
    }

    /// Runs the binary to the end (at most `timeout` seconds).
    func run(_ arguments: [String], stdinFile: String? = nil, environment: [String: String] = [:],
             in directory: URL, timeout: TimeInterval = 300) throws -> Run {
        try Self.run(executable: path, arguments, stdinFile: stdinFile, environment: environment, in: directory, timeout: timeout)
    }

    /// Starts any executable with outputs captured to files in `directory`.
    static func start(executable: String, _ arguments: [String], stdinFile: String? = nil, environment: [String: String] = [:],
                      in directory: URL) throws -> (Process, stdout: URL, stderr: URL) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "JOB_COMPLETION_INDEX")
        env.removeValue(forKey: "LITEVISION_SHARD_COUNT")
        env.merge(environment) { $1 }
        process.environment = env
        let tag = UUID().uuidString
        let out = directory.appendingPathComponent("stdout-\(tag)"), err = directory.appendingPathComponent("stderr-\(tag)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)      // opened next, which fails if it is missing
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = try stdinFile.map { try FileHandle(forReadingFrom: URL(fileURLWithPath: $0)) } ?? FileHandle.nullDevice
        try process.run()
        return (process, out, err)
    }

    /// Runs any executable to the end (at most `timeout` seconds).
    static func run(executable: String, _ arguments: [String], stdinFile: String? = nil, environment: [String: String] = [:],
                    in directory: URL, timeout: TimeInterval = 300) throws -> Run {
        let (process, out, err) = try start(executable: executable, arguments, stdinFile: stdinFile,
                                            environment: environment, in: directory)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                XCTFail("\(executable) \(arguments.joined(separator: " ")) took more than \(timeout) s")
                break
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        process.waitUntilExit()
        defer { try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: err) }
        return Run(status: process.terminationStatus,
                   stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                   stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }
}
