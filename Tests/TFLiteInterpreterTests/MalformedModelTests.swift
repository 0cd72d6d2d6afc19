import Foundation
import TFLiteInterpreter
import TestSupport
import XCTest

/// Bad model bytes never crash: random byte mutations of small real models either load and
/// run, or throw a typed error, at load, allocation or invoke.
final class MalformedModelTests: XCTestCase {
    func testRandomMutationsNeverCrash() throws {
        let fixtures = ["interpreter/dynamic_chain", "interpreter/shape_dependent", "interpreter/float16_weights"]
            + Self.operatorCaseSample()
            + (ProcessInfo.processInfo.environment["FUZZ_EXTRA"].map { $0.split(separator: ",").map(String.init) } ?? [])
        let iterations = Int(ProcessInfo.processInfo.environment["FUZZ_ITERATIONS"] ?? "") ?? 150
        var rng = SeededGenerator(seed: 2026)
        var outcomes: [String: Int] = [:]
        for fixture in fixtures {
            let original = try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("\(fixture)/model.tflite")))
            for iteration in 0..<iterations {
                var bytes = [UInt8](original)
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    let position = Int.random(in: 0..<bytes.count, using: &rng)
                    bytes[position] = UInt8.random(in: 0...255, using: &rng)
                }
                let started = Date()
                defer {
                    if Date().timeIntervalSince(started) > 0.5 { print("slow: \(fixture) #\(iteration) \(Date().timeIntervalSince(started)) s") }
                }
                do {
                    let interpreter = try Interpreter(modelData: Data(bytes), options: .init(threadCount: 1))
                    try interpreter.allocateTensors()
                    // Mutated shapes can make legal but huge graphs; loading and planning them is
                    // the point here, computing gigabytes in a debug build is not.
                    guard interpreter.arenaByteCount <= 1 << 24 else { outcomes["huge", default: 0] += 1; continue }
                    for k in 0..<interpreter.inputTensorCount {
                        try interpreter.withUnsafeMutableInputBytes(at: k) { raw in
                            for i in raw.indices { raw[i] = UInt8(truncatingIfNeeded: i &* 37) & 0x3F }
                        }
                    }
                    try interpreter.invoke()
                    for k in 0..<interpreter.outputTensorCount { _ = try interpreter.output(at: k) }
                    outcomes["ran", default: 0] += 1
                } catch let error as InterpreterError {
                    let kind = "\(error)".prefix(while: { $0 != ":" })
                    outcomes[String(kind), default: 0] += 1
                }
            }
        }
        print("mutated models: \(outcomes.sorted { $0.key < $1.key })")
        XCTAssertGreaterThan(outcomes["ran", default: 0], 0)
    }

    /// Every 16th golden operator case of every family (so every family's kernels see bad models).
    static func operatorCaseSample() -> [String] {
        let root = TestPaths.fixturesDirectory.appendingPathComponent("ops")
        let families = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).sorted()
        return families.flatMap { family -> [String] in
            let cases = ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(family).path)) ?? [])
                .sorted().filter {
                    FileManager.default.fileExists(atPath: root.appendingPathComponent("\(family)/\($0)/model.tflite").path)
                }
            return stride(from: 0, to: cases.count, by: 16).map { "ops/\(family)/\(cases[$0])" }
        }
    }
}
