import Foundation
import TestSupport
import TFLiteSchema
import XCTest
@testable import TFLiteInterpreter

/// `Model.checkSupport`: every operator the engine cannot run is listed at load, by subgraph,
/// index, name and reason, without stopping at the first one; real models list nothing.
final class SupportCheckTests: XCTestCase {
    private func file(_ fixture: String) throws -> TFLiteModelFile {
        try TFLiteModelFile(contentsOf: try TestPaths.fixture(fixture))
    }

    private func summary(_ report: SupportReport) -> [String] {
        report.findings.map { "\($0.subgraph)/\($0.operatorIndex.map(String.init) ?? "-") \($0.operatorName ?? "-") \($0.reason.rawValue)" }
    }

    func testMixedModelListsEveryUnsupportedOperatorInOrder() throws {
        let report = Model.checkSupport(try file("unsupported/mixed.tflite"))
        XCTAssertFalse(report.isSupported)
        XCTAssertEqual(summary(report), [
            "0/1 EMBEDDING_LOOKUP unknownOperator",
            "0/2 MUL unsupportedOption",
            "0/3 TANH unsupportedType",
            "0/4 NotARealOp unknownOperator",
            "0/6 DIV invalidModel",
        ])
        let messages = report.findings.map(\.message)
        guard messages.count == 5 else { return }
        XCTAssertTrue(messages[1].contains("fused activation code 4"), messages[1])
        XCTAssertTrue(messages[2].contains("bool"), messages[2])
        XCTAssertTrue(messages[4].contains("divisor"), messages[4])
    }

    func testLoadingRejectsWhatTheCheckReports() throws {
        // The check agrees with loading: the model does not load, naming its unknown operators.
        XCTAssertThrowsError(try Model(file: try file("unsupported/mixed.tflite"))) { error in
            XCTAssertEqual(error as? InterpreterError, .unsupportedOperator(name: "EMBEDDING_LOOKUP, NotARealOp"))
        }
    }

    func testEveryOperatorUnknownUnderAnEmptyResolver() throws {
        let mixed = try file("unsupported/mixed.tflite")
        let report = Model.checkSupport(mixed, resolver: { _ in nil })
        XCTAssertEqual(report.findings.map(\.operatorIndex), Array(0..<7))
        XCTAssertTrue(report.findings.allSatisfy { $0.reason == .unknownOperator })
    }

    /// int16 ADD on the power-of-two path with broadcasting: the reference runtime aborts on it
    /// (it has no broadcasting form), so the check names it rather than invoke guessing.
    func testPowerOfTwoInt16AddWithBroadcastingIsReported() throws {
        let report = Model.checkSupport(try file("unsupported/add_int16_pot_broadcast.tflite"))
        XCTAssertEqual(summary(report), ["0/0 ADD unsupportedType"])
        XCTAssertTrue(report.findings.first?.message.contains("broadcasting") ?? false, "\(report.findings)")
    }

    /// The int16 operators added for issue 13 (LOGISTIC, TANH, SOFTMAX, RSQRT, broadcasting
    /// power-of-two SUB) report nothing.
    func testInt16ActivationFixturesReportNothing() throws {
        for name in ["logistic_scale_2e-12", "logistic_scale_0.0003", "tanh_scale_2e-11", "tanh_scale_1_over_3000",
                     "softmax_rows_scale_0.001", "rsqrt_scale_0.001_out_0.002", "sub_pot_broadcast_row_input2_finer"] {
            let report = Model.checkSupport(try file("ops/int16x8/\(name)/model.tflite"))
            XCTAssertEqual(report.findings, [], name)
        }
    }

    /// Control-flow models report nothing, in any subgraph: IF, WHILE (growing state), CALL_ONCE
    /// with variables, and handles passed into IF branches and a WHILE body (resource tensors as
    /// subgraph inputs and outputs). The check prepares them against the model's subgraphs.
    func testControlFlowAndResourceHandlesReportNothing() throws {
        for name in ["if_then", "if_shapes_then", "while_count", "call_once_variable", "where_ties",
                     "resource_if_then", "resource_while"] {
            let report = Model.checkSupport(try file("ops/control_flow/\(name)/model.tflite"))
            XCTAssertEqual(report.findings, [], name)
        }
    }

    func testSupportedFixtureReportsNothing() throws {
        let report = Model.checkSupport(try file("ops/quantized/div_int8_broadcast/model.tflite"))
        XCTAssertEqual(report.findings, [])
        XCTAssertTrue(report.isSupported)
    }

    func testEveryPinnedModelIsSupported() throws {
        let directory = TestPaths.modelsDirectory
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".tflite") }.sorted()
        guard !names.isEmpty else { throw XCTSkip("Models/ holds no .tflite files (Scripts/fetch-models.sh)") }
        for name in names {
            let model = try TFLiteModelFile(contentsOf: directory.appendingPathComponent(name).path)
            let report = Model.checkSupport(model)
            XCTAssertEqual(report.findings.map(\.description), [], name)
        }
    }

    func testReportRoundTripsThroughJSON() throws {
        let report = Model.checkSupport(try file("unsupported/mixed.tflite"))
        let data = try JSONEncoder().encode(report)
        XCTAssertEqual(try JSONDecoder().decode(SupportReport.self, from: data), report)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let first = (object?["findings"] as? [[String: Any]])?.first
        XCTAssertEqual(first?["reason"] as? String, "unknownOperator")
        XCTAssertEqual(first?["operatorName"] as? String, "EMBEDDING_LOOKUP")
    }
}
