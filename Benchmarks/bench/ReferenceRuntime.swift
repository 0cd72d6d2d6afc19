import Foundation
import MachineCode

/// Runs the reference runtime (PyPI `ai-edge-litert`) through `Scripts/reference-bench.py`
/// with the same models, thread counts and iteration policy as our runs.
/// The interpreter is `$LITEVISION_PYTHON` when set, else `python3` from `PATH`.
struct ReferenceRuntime {
    /// The python executable (a path or a name looked up in `PATH`).
    let python: String
    /// The helper script.
    let script: String
    /// The instruction-set level the runtime's kernels are capped at (`--cap-isa`), or nil.
    var instructionSetCap: InstructionSetLevel?

    /// Uses `$LITEVISION_PYTHON` (else `python3`) and the package's helper script.
    init(locations: PackageLocations) {
        let environment = ProcessInfo.processInfo.environment
        python = environment["LITEVISION_PYTHON"].flatMap { $0.isEmpty ? nil : $0 } ?? "python3"
        script = locations.referenceScript
    }

    /// Nil when the runtime can be used, else a message saying why not and how to fix it.
    func unavailabilityReason() -> String? {
        guard FileManager.default.fileExists(atPath: script) else { return "helper script \(script) is missing" }
        switch run(arguments: ["--check"]) {
        case .success: return nil
        case .failure(let failure):
            return """
                \(failure.message)
                The comparison needs the reference runtime: install it with `python3 -m pip install ai-edge-litert` \
                (or point LITEVISION_PYTHON at a python that has it).
                """
        }
    }

    /// Measures `model` at each of `threads` with both resolvers, in a process of its own. With
    /// `xnnpackFirst`, XNNPACK makes the process's first interpreter, so its first cold start
    /// pays the runtime's first-use costs as ours does on the first model of `bench`'s process;
    /// otherwise the built-in kernels go first. On failure every measurement carries the error
    /// instead of numbers.
    func measure(model: String, threads: [Int], policy: IterationPolicy, xnnpackFirst: Bool = false) -> [ReferenceMeasurement] {
        var arguments = ["--model", model]
        if xnnpackFirst { arguments.append("--xnnpack-first") }
        for count in threads { arguments += ["--threads", String(count)] }
        arguments += policy.scriptArguments
        if let instructionSetCap { arguments += ["--cap-isa", instructionSetCap.description] }
        let failed = { (message: String) in
            threads.flatMap { count in
                ["builtin", "xnnpack"].map {
                    ReferenceMeasurement(model: model, threads: count, runtime: $0, error: message)
                }
            }
        }
        switch run(arguments: arguments) {
        case .failure(let failure): return failed(failure.message)
        case .success(let output):
            do {
                return try JSONDecoder().decode([ReferenceMeasurement].self, from: output)
            } catch {
                return failed("unreadable reference-bench.py output: \(error)")
            }
        }
    }

    /// A failed helper run.
    struct Failure: Error { var message: String }

    /// Runs the script; stdout on exit status 0, else the last lines of stderr.
    private func run(arguments: [String]) -> Result<Data, Failure> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, script] + arguments
        let errorLog = FileManager.default.temporaryDirectory
            .appendingPathComponent("reference-bench-\(ProcessInfo.processInfo.processIdentifier).log")
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        do {
            _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: errorLog)
            defer { try? FileManager.default.removeItem(at: errorLog) }
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                let log = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
                let tail = log.split(separator: "\n").suffix(3).joined(separator: "\n")
                return .failure(Failure(message: "`\(python) \(script)` exited with status \(process.terminationStatus)"
                                        + (tail.isEmpty ? "" : ": \(tail)")))
            }
            return .success(data)
        } catch {
            return .failure(Failure(message: "cannot run `\(python)`: \(error)"))
        }
    }
}
