import Foundation
import TestSupport
import XCTest

/// A real distributed engine drives the binary: a local Spark job (`local[2]`, four partitions)
/// pipes a few hundred work items through `RDD.pipe` into `litevision detect --jsonl`
/// (Scripts/spark-detect.py), and the collected records equal a single-process run, item for
/// item, error records included. Skips when Java or PySpark is missing (`.ci/run` installs PySpark).
final class SparkPipeTests: XCTestCase {
    func testASparkJobPipingItemsThroughTheBinaryEqualsASingleProcessRun() throws {
        let binary = try LiteVisionBinary()
        _ = try TestPaths.model("deeplabv3.tflite")
        let items = try BatchWorkItems()
        defer { items.remove() }
        let python = ProcessInfo.processInfo.environment["LITEVISION_PYTHON"] ?? "/usr/bin/env"
        let pythonPrefix = python == "/usr/bin/env" ? ["python3"] : []
        let java = try LiteVisionBinary.run(executable: "/usr/bin/env", ["java", "-version"], in: items.directory)
        guard java.status == 0 else { throw TestEnvironment.missing("Java is missing (Spark needs Java 17): \(java.stderr)") }
        let pyspark = try LiteVisionBinary.run(executable: python, pythonPrefix + ["-c", "import pyspark"], in: items.directory)
        guard pyspark.status == 0 else {
            throw TestEnvironment.missing("PySpark is missing: python3 -m pip install pyspark (.ci/run does) — \(pyspark.stderr.suffix(200))")
        }

        var lines = items.lines(count: 240)
        lines.insert("", at: 100)   // a blank line is not an item, for Spark as for the binary
        let list = items.directory.appendingPathComponent("items.txt")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: list)
        let detectArguments = ["--multiple", "--threads", "1", "--models", TestPaths.modelsDirectory.path]

        let single = try binary.run(["detect", "--jsonl"] + detectArguments, stdinFile: list.path, in: items.directory)
        XCTAssertEqual(single.status, 0, single.stderr)
        let expected = single.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(expected.count, lines.count - 1)

        let collected = items.directory.appendingPathComponent("spark-records.jsonl")
        let script = TestPaths.packageRoot.appendingPathComponent("Scripts/spark-detect.py").path
        let spark = try LiteVisionBinary.run(
            executable: python,
            pythonPrefix + [script, "--master", "local[2]", "--binary", binary.path, "--items", list.path,
                            "--partitions", "4", "--collect", collected.path, "--"] + detectArguments,
            environment: ["PYSPARK_PYTHON": python == "/usr/bin/env" ? "python3" : python],
            in: items.directory, timeout: 600)
        XCTAssertEqual(spark.status, 0, String(spark.stderr.suffix(3000)))
        let records = try String(contentsOf: collected, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(records.count, expected.count)
        XCTAssertEqual(records, expected, "Spark's records equal the single-process run, item for item")
        XCTAssertGreaterThan(records.filter { $0.contains("\"error\":{") }.count, 40, "error records went through Spark too")
    }
}
