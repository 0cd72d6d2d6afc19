import Foundation
import TFLiteInterpreter

/// One golden case directory (format: `Scripts/goldens/common.py`): `model.tflite`,
/// `input_<k>.npy`, `output_<k>.npy` from the reference runtime, and `case.json` with the
/// tolerance.
public struct GoldenCase: Sendable {
    /// `<family>/<case>`.
    public let name: String
    /// The case directory.
    public let directory: URL
    /// How outputs are compared.
    public let tolerance: GoldenTolerance
    /// What the case covers.
    public let description: String

    /// Reads `case.json` in `directory`.
    public init(directory: URL, name: String) throws {
        self.directory = directory
        self.name = name
        let data = try Data(contentsOf: directory.appendingPathComponent("case.json"))
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        let tolerance = json["tolerance"] as? String ?? "float"
        guard let parsed = GoldenTolerance(rawValue: tolerance) else {
            throw GoldenCaseError("\(name): unknown tolerance '\(tolerance)'")
        }
        self.tolerance = parsed
        description = json["description"] as? String ?? ""
    }

    /// Every case below `familyDirectory` (sub-directories holding `case.json`), sorted by name.
    public static func cases(in familyDirectory: URL) throws -> [GoldenCase] {
        let family = familyDirectory.lastPathComponent
        let names = try FileManager.default.contentsOfDirectory(atPath: familyDirectory.path).sorted()
        return try names.compactMap { caseName in
            let directory = familyDirectory.appendingPathComponent(caseName)
            guard FileManager.default.fileExists(atPath: directory.appendingPathComponent("case.json").path) else {
                return nil
            }
            return try GoldenCase(directory: directory, name: "\(family)/\(caseName)")
        }
    }

    /// The numbered `.npy` files with `prefix` (`input` or `output`), in order.
    public func arrays(_ prefix: String) throws -> [NumPyArray] {
        var arrays: [NumPyArray] = []
        while true {
            let path = directory.appendingPathComponent("\(prefix)_\(arrays.count).npy").path
            guard FileManager.default.fileExists(atPath: path) else { return arrays }
            arrays.append(try NumPyArray(contentsOf: path))
        }
    }

    /// Runs the case; returns one message per problem (empty when the case passes).
    public func failures(threadCount: Int = 1) -> [String] {
        do {
            var options = Interpreter.Options()
            options.threadCount = threadCount
            let interpreter = try Interpreter(modelPath: directory.appendingPathComponent("model.tflite").path,
                                              options: options)
            let outputs = try interpreter.run(try arrays("input"))
            let expected = try arrays("output")
            guard outputs.count == expected.count else {
                return ["\(name): \(outputs.count) outputs, the golden has \(expected.count)"]
            }
            return zip(outputs, expected).enumerated().compactMap { k, pair in
                TolerantCompare.mismatch(pair.0, pair.1, tolerance: tolerance).map { "\(name) output \(k): \($0)" }
            }
        } catch {
            return ["\(name): \(error)"]
        }
    }
}

/// A problem with a golden case's files.
public struct GoldenCaseError: Error, CustomStringConvertible {
    /// What is wrong.
    public let description: String
    /// Creates the error.
    public init(_ description: String) { self.description = description }
}
