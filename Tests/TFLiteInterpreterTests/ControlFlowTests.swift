import Foundation
@testable import TFLiteInterpreter
import TFLiteSchema
import TestSupport
import XCTest

/// IF, WHILE, CALL_ONCE with resource variables, and WHERE on a computed input (shapes known only
/// at invoke), against the reference runtime (`Tests/Fixtures/ops/control_flow/`, from
/// `Scripts/goldens/ops_control_flow.py`), plus the hostile models of
/// `Tests/Fixtures/control_flow/hostile/`: every one is a typed error, none hangs or crashes.
final class ControlFlowTests: XCTestCase {
    private func caseDirectory(_ name: String) -> URL {
        TestPaths.fixturesDirectory.appendingPathComponent("ops/control_flow/\(name)")
    }

    private func array(_ name: String, _ file: String) throws -> NumPyArray {
        try NumPyArray(contentsOf: caseDirectory(name).appendingPathComponent(file).path)
    }

    private func interpreter(_ name: String, limits: ResourceLimits = .default) throws -> Interpreter {
        try Interpreter(modelPath: caseDirectory(name).appendingPathComponent("model.tflite").path,
                        options: .init(threadCount: 1, resourceLimits: limits))
    }

    /// Every case: each output bit-exact, with the reference's shape (e.g. WHERE's [0, 2]).
    func testGoldenCasesMatchTheReference() throws {
        let cases = try GoldenCase.cases(in: TestPaths.fixturesDirectory.appendingPathComponent("ops/control_flow"))
        XCTAssertEqual(cases.count, 13, "run Scripts/generate-goldens.sh ops_control_flow")
        for goldenCase in cases {
            for failure in goldenCase.failures() { XCTFail(failure) }
            let interpreter = try Interpreter(modelPath: goldenCase.directory.appendingPathComponent("model.tflite").path)
            let outputs = try interpreter.run(try goldenCase.arrays("input"))
            for (k, (output, expected)) in zip(outputs, try goldenCase.arrays("output")).enumerated() {
                XCTAssertEqual(output.shape, expected.shape, "\(goldenCase.name) output \(k)")
                XCTAssertEqual(output.data, expected.data, "\(goldenCase.name) output \(k)")
            }
        }
    }

    /// CALL_ONCE initialises the variable on the first invoke only; the assignment of one invoke
    /// is read by the next; a new interpreter starts again from the initial value.
    func testCallOnceRunsOncePerInterpreterAndVariablesPersist() throws {
        let input = try array("call_once_variable", "input_0.npy")
        let first = try array("call_once_variable", "output_0.npy")
        let second = try array("call_once_variable", "invoke2_output_0.npy")
        let interpreter = try interpreter("call_once_variable")
        XCTAssertEqual(try interpreter.run([input])[0].data, first.data)
        XCTAssertEqual(try interpreter.run([input])[0].data, second.data)
        XCTAssertNotEqual(first.data, second.data)
        XCTAssertEqual(try self.interpreter("call_once_variable").run([input])[0].data, first.data)
    }

    /// A VAR_HANDLE handle passed into IF's branches (a resource tensor as subgraph input): each
    /// branch reads and assigns the main graph's variable through it, and a second invoke sees
    /// the first one's assignment, as in the reference.
    func testResourceHandlePassedIntoIfBranches() throws {
        for name in ["resource_if_then", "resource_if_else"] {
            let inputs = [try array(name, "input_0.npy"), try array(name, "input_1.npy")]
            let first = try array(name, "output_0.npy"), second = try array(name, "invoke2_output_0.npy")
            let interpreter = try interpreter(name)
            XCTAssertEqual(try interpreter.run(inputs)[0].data, first.data, name)
            XCTAssertEqual(try interpreter.run(inputs)[0].data, second.data, name)
            XCTAssertNotEqual(first.data, second.data, name)
        }
    }

    /// The handle carried through WHILE's state: the body reads and assigns the variable each
    /// trip, and the main graph reads the accumulated value after the loop.
    func testResourceHandleCarriedThroughWhile() throws {
        let inputs = [try array("resource_while", "input_0.npy"), try array("resource_while", "input_1.npy")]
        let outputs = try interpreter("resource_while").run(inputs)
        XCTAssertEqual(outputs.count, 3)
        for k in 0..<3 { XCTAssertEqual(outputs[k].data, try array("resource_while", "output_\(k).npy").data, "output \(k)") }
    }

    /// Signature runners of one interpreter share its variables and its CALL_ONCE record: "step"
    /// initialises and updates `v`, "peek" (which has its own CALL_ONCE of the same init
    /// subgraph) sees the updates, as in the reference (`control_flow/variable_signatures.json`).
    func testSignatureRunnersShareVariablesAndInitialisation() throws {
        let directory = TestPaths.fixturesDirectory.appendingPathComponent("control_flow")
        let json = try JSONSerialization.jsonObject(
            with: Data(contentsOf: directory.appendingPathComponent("variable_signatures.json"))) as? [String: Any]
        let x = try XCTUnwrap(json?["x"] as? [Double]).map(Float.init)
        let sequence = try XCTUnwrap(json?["sequence"] as? [String])
        let results = try XCTUnwrap(json?["results"] as? [[Double]]).map { $0.map(Float.init) }
        let interpreter = try Interpreter(modelPath: directory.appendingPathComponent("variable_signatures.tflite").path)
        for (key, expected) in zip(sequence, results) {
            let runner = try interpreter.signatureRunner(with: key)
            if key == "step" {
                try runner.invoke(with: ["x": Data(bytes: x, count: 12)])
                XCTAssertEqual(floats(try runner.output(named: "out").data), expected, key)
            } else {
                try runner.invoke(with: ["unused": Data(count: 4)])
                XCTAssertEqual(floats(try runner.output(named: "value").data), expected, key)
            }
        }
    }

    /// The loop-carried tensor that doubles each iteration: outputs for several trip counts from
    /// one interpreter (the body re-plans as shapes change), and a repeated invoke with the same
    /// inputs reuses the output memory of the last one.
    func testWhileGrowingTensorForEveryTripCount() throws {
        let interpreter = try interpreter("while_count")
        try interpreter.allocateTensors()
        var previous: (start: Int32, pointer: UnsafeRawPointer?)?
        for start in [Int32(5), 0, 3, 0, 0, 7] {
            let grow0: Float = 1.25
            try interpreter.copy(Data(bytes: [start], count: 4), toInputAt: 0)
            try interpreter.copy(Data(bytes: [Float(0.75), -3], count: 8), toInputAt: 1)
            try interpreter.copy(Data(bytes: [grow0], count: 4), toInputAt: 2)
            try interpreter.invoke()
            let trips = max(0, 5 - Int(start))
            var grow: [Float] = [grow0]
            for _ in 0..<trips { grow += grow.map { $0 * 2 } }
            XCTAssertEqual(try interpreter.output(at: 2).shape.dimensions, [grow.count], "start \(start)")
            XCTAssertEqual(try floats(interpreter.output(at: 2).data), grow, "start \(start)")
            XCTAssertEqual(try floats(interpreter.output(at: 3).data), grow.map { $0 + $0 }, "start \(start)")
            XCTAssertEqual(try interpreter.output(at: 0).data, Data(bytes: [max(start, 5)], count: 4))
            let pointer = try interpreter.withUnsafeOutputBytes(at: 2) { $0.baseAddress }
            if let previous, previous.start == start {
                // Same shapes as the invoke before (start 0 twice in a row): no new memory.
                XCTAssertEqual(pointer, previous.pointer, "the grown output was reallocated although its shape did not change")
            }
            previous = (start, pointer)
        }
    }

    /// One interpreter alternating between IF branches of different output shapes ([8], [4]):
    /// each invoke gives the reference's output for its branch.
    func testIfBranchesOfDifferentShapesAlternate() throws {
        let interpreter = try interpreter("if_shapes_then")
        for name in ["if_shapes_then", "if_shapes_else", "if_shapes_else", "if_shapes_then", "if_shapes_else"] {
            let outputs = try interpreter.run([try array(name, "input_0.npy"), try array(name, "input_1.npy"),
                                               try array(name, "input_2.npy")])
            for k in 0..<2 {
                let expected = try array(name, "output_\(k).npy")
                XCTAssertEqual(outputs[k].shape, expected.shape, "\(name) output \(k)")
                XCTAssertEqual(outputs[k].data, expected.data, "\(name) output \(k)")
            }
        }
    }

    /// A loop-carried tensor that outgrows ResourceLimits.maximumTensorByteCount is a typed
    /// error at invoke (it doubles each iteration: 32 floats after five).
    func testGrowingLoopStateStopsAtTheTensorLimit() throws {
        var limits = ResourceLimits.default
        limits.maximumTensorByteCount = 64
        let interpreter = try interpreter("while_count", limits: limits)
        let inputs = try (0..<3).map { try array("while_count", "input_\($0).npy") }
        XCTAssertThrowsError(try interpreter.run(inputs)) { error in
            guard case .resourceLimitExceeded(let message)? = error as? InterpreterError else {
                return XCTFail("\(error)")
            }
            XCTAssertTrue(message.contains("maximumTensorByteCount"), message)
        }
    }

    /// WHERE on a computed input is planned at its largest size, so a different count of hits
    /// changes the shape at invoke without moving the output.
    func testWhereOnComputedInputKeepsItsMemory() throws {
        let interpreter = try interpreter("where_ties")
        try interpreter.allocateTensors()
        let x: [Int32] = [1, 2, 3, 4, 5, 6]
        var pointers = Set<Int>()
        for (y, hits) in [([Int32](x), 6), ([1, 0, 3, 4, 4, 6], 4), ([0, 0, 0, 0, 0, 0], 0), ([9, 2, 9, 9, 9, 9], 1)] {
            try interpreter.copy(Data(bytes: x, count: 24), toInputAt: 0)
            try interpreter.copy(Data(bytes: y, count: 24), toInputAt: 1)
            try interpreter.invoke()
            XCTAssertEqual(try interpreter.output(at: 0).shape.dimensions, [hits, 2])
            XCTAssertEqual(try interpreter.output(at: 1).shape.dimensions, [hits])
            pointers.insert(Int(bitPattern: try interpreter.withUnsafeOutputBytes(at: 0) { $0.baseAddress }))
        }
        XCTAssertEqual(pointers.count, 1, "WHERE's output moved although it fits its plan")
    }

    private func floats(_ data: Data) -> [Float] {
        data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    // MARK: Hostile models

    private func hostileError(_ name: String, limits: ResourceLimits = .default,
                              file: StaticString = #filePath, line: UInt = #line) -> InterpreterError? {
        do {
            let path = TestPaths.fixturesDirectory.appendingPathComponent("control_flow/hostile/\(name).tflite").path
            let interpreter = try Interpreter(modelPath: path, options: .init(threadCount: 1, resourceLimits: limits))
            try interpreter.allocateTensors()
            for k in 0..<interpreter.inputTensorCount {
                let size = try interpreter.input(at: k).data.count
                try interpreter.copy(Data(count: size), toInputAt: k)
            }
            try interpreter.invoke()
            XCTFail("\(name) was accepted", file: file, line: line)
        } catch let error as InterpreterError {
            return error
        } catch {
            XCTFail("\(name): untyped error \(error)", file: file, line: line)
        }
        return nil
    }

    func testRecursionIsRejectedAtLoad() {
        for name in ["recursion_self", "recursion_indirect"] {
            guard case .invalidModel(let message)? = hostileError(name) else { XCTFail(name); continue }
            XCTAssertTrue(message.contains("recursively"), message)
        }
        XCTAssertEqual(ControlFlowGraph.firstCycle([[1], [2], [1]]), [1, 2, 1])
        XCTAssertEqual(ControlFlowGraph.firstCycle([[0]]), [0, 0])
        XCTAssertNil(ControlFlowGraph.firstCycle([[1, 2], [2], []]))
    }

    func testSubgraphIndexOutOfRangeIsRejectedAtLoad() {
        guard case .invalidModel(let message)? = hostileError("subgraph_out_of_range") else { return XCTFail() }
        XCTAssertTrue(message.contains("5"), message)
    }

    func testInputCountMismatchIsRejectedAtLoad() {
        guard case .invalidModel(let message)? = hostileError("arity_mismatch") else { return XCTFail() }
        XCTAssertTrue(message.contains("inputs"), message)
    }

    /// A loop whose condition stays true ends at ResourceLimits.maximumWhileIterations.
    func testEndlessWhileStopsAtTheIterationLimit() {
        var limits = ResourceLimits.default
        limits.maximumWhileIterations = 1_000
        guard case .resourceLimitExceeded(let message)? = hostileError("while_forever", limits: limits) else { return XCTFail() }
        XCTAssertTrue(message.contains("maximumWhileIterations"), message)
        XCTAssertEqual(ResourceLimits.default.maximumWhileIterations, 1_000_000)
    }
}
