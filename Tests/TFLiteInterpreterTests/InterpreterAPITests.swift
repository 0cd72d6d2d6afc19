import Foundation
@testable import TFLiteInterpreter
import TFLiteSchema
import TestSupport
import XCTest

/// The public API's behaviour on small fixture models (Tests/Fixtures/interpreter/, made by
/// Scripts/goldens/interpreter_models.py with reference outputs), run with test kernels.
final class InterpreterAPITests: XCTestCase {
    private func model(_ name: String, resolver: (OperatorCode) -> OperatorFactory? = TestKernels.resolver) throws -> Model {
        let path = try TestPaths.fixture("interpreter/\(name)/model.tflite")
        return try Model(file: TFLiteModelFile(contentsOf: path), resolver: resolver)
    }

    private func golden(_ name: String, _ file: String) throws -> NumPyArray {
        try NumPyArray(contentsOf: TestPaths.fixture("interpreter/\(name)/\(file).npy"))
    }

    private func floats(_ data: Data) -> [Float] {
        data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    private func assertThrows<T>(_ expected: InterpreterError, _ body: @autoclosure () throws -> T,
                                 file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual(error as? InterpreterError, expected, file: file, line: line)
        }
    }

    func testRunsAndMatchesReference() throws {
        let interpreter = try Interpreter(model: model("two_inputs"), options: .init(threadCount: 1))
        XCTAssertEqual(interpreter.inputTensorCount, 2)
        XCTAssertEqual(interpreter.outputTensorCount, 2)
        try interpreter.allocateTensors()
        for k in 0..<2 { try interpreter.copy(golden("two_inputs", "input_\(k)").data, toInputAt: k) }
        try interpreter.invoke()
        for k in 0..<2 {
            let output = try interpreter.output(at: k)
            XCTAssertNil(TolerantCompare.mismatch(output, try golden("two_inputs", "output_\(k)"), tolerance: .float))
        }
        let input = try interpreter.input(at: 0)
        XCTAssertEqual(input.dataType, .float32)
        XCTAssertEqual(try interpreter.inputDataType(at: 0), .float32)
        XCTAssertEqual(input.shape, [1, 4])
        XCTAssertEqual(input.shape.rank, 2)
        XCTAssertNil(input.quantizationParameters)
        XCTAssertEqual(try interpreter.input(named: input.name), input)
        XCTAssertEqual(try interpreter.output(named: interpreter.outputNames[1]), try interpreter.output(at: 1))
        assertThrows(.notFound("no input named 'nope' (inputs: \(interpreter.inputNames.joined(separator: ", ")))"),
                     try interpreter.input(named: "nope"))
    }

    func testIndexErrors() throws {
        let interpreter = try Interpreter(model: model("two_inputs"))
        try interpreter.allocateTensors()
        assertThrows(.invalidTensorIndex(index: 2, count: 2), try interpreter.input(at: 2))
        assertThrows(.invalidTensorIndex(index: 2, count: 2), try interpreter.inputDataType(at: 2))
        assertThrows(.invalidTensorIndex(index: -1, count: 2), try interpreter.output(at: -1))
        assertThrows(.invalidTensorIndex(index: -1, count: 2), try interpreter.outputShape(at: -1))
        assertThrows(.invalidTensorIndex(index: 5, count: 2), try interpreter.copy(Data(count: 16), toInputAt: 5))
        assertThrows(.invalidTensorIndex(index: 9, count: 2), try interpreter.resizeInput(at: 9, to: [1]))
        assertThrows(.invalidTensorIndex(index: 3, count: 2), try interpreter.withUnsafeOutputBytes(at: 3) { _ in })
    }

    /// The input type without a copy of the input, before allocation, on real 8-bit and float models.
    func testInputDataTypeOfRealModels() throws {
        for (name, type) in [("efficientnet_lite0.tflite", Tensor.DataType.uInt8), ("face_detection_full_range.tflite", .float32)] {
            let interpreter = try Interpreter(model: Model(path: TestPaths.model(name)))
            XCTAssertEqual(try interpreter.inputDataType(at: 0), type, name)
            try interpreter.allocateTensors()
            XCTAssertEqual(try interpreter.inputDataType(at: 0), try interpreter.input(at: 0).dataType, name)
        }
    }

    func testWrongByteCountAndBadOptions() throws {
        let interpreter = try Interpreter(model: model("two_inputs"))
        try interpreter.allocateTensors()
        assertThrows(.invalidDataCount(provided: 3, required: 16), try interpreter.copy(Data(count: 3), toInputAt: 0))
        assertThrows(.invalidDataCount(provided: 20, required: 16), try interpreter.copy(Data(count: 20), toInputAt: 1))
        assertThrows(.invalidArgument("threadCount must be at least 1, got 0"),
                     try Interpreter(model: model("two_inputs"), options: .init(threadCount: 0)))
    }

    func testAllocateRequired() throws {
        let interpreter = try Interpreter(model: model("dynamic_chain"))
        XCTAssertEqual(interpreter.arenaByteCount, 0)
        assertThrows(.allocateTensorsRequired, try interpreter.input(at: 0))
        assertThrows(.allocateTensorsRequired, try interpreter.invoke())
        assertThrows(.allocateTensorsRequired, try interpreter.copy(Data(count: 32), toInputAt: 0))
        try interpreter.allocateTensors()
        try interpreter.invoke()
        try interpreter.resizeInput(at: 0, to: [2, 8])
        assertThrows(.allocateTensorsRequired, try interpreter.invoke())
        try interpreter.allocateTensors()
        try interpreter.invoke()
    }

    func testResizeReplansAndComputesEveryRow() throws {
        let interpreter = try Interpreter(model: model("dynamic_chain"))
        try interpreter.allocateTensors()
        let smallArena = interpreter.arenaByteCount
        // x (live throughout), t1 = x + c1 (steps 0-1), t2 = t1 * c2 (1-2), y = t2 + x (2):
        // t1 and y never live together, so they share a slot.
        XCTAssertEqual(smallArena, 3 * 64)
        let row = try golden("dynamic_chain", "input_0"), expectedRow = try golden("dynamic_chain", "output_0")
        try interpreter.resizeInput(at: 0, to: [3, 8])
        try interpreter.allocateTensors()
        XCTAssertEqual(try interpreter.input(at: 0).shape, [3, 8])
        XCTAssertEqual(try interpreter.output(at: 0).shape, [3, 8])
        XCTAssertEqual(try interpreter.outputShape(at: 0), [3, 8])
        XCTAssertEqual(interpreter.arenaByteCount, 3 * 128)
        try interpreter.copy(row.data + row.data + row.data, toInputAt: 0)
        try interpreter.invoke()
        let values = floats(try interpreter.output(at: 0).data), expected = expectedRow.doubleValues()
        XCTAssertNil(TolerantCompare.floatMismatch(values.map(Double.init), expected + expected + expected))
        assertThrows(.invalidShape("[-1, 8] for input 'x' (float32)"), try interpreter.resizeInput(at: 0, to: [-1, 8]))
    }

    func testInputsAndOutputsStayValidBetweenInvokes() throws {
        let interpreter = try Interpreter(model: model("dynamic_chain"))
        try interpreter.allocateTensors()
        let input = try golden("dynamic_chain", "input_0")
        try interpreter.copy(input.data, toInputAt: 0)
        try interpreter.invoke()
        let first = try interpreter.output(at: 0)
        try interpreter.invoke()
        XCTAssertEqual(try interpreter.input(at: 0).data, input.data)
        XCTAssertEqual(try interpreter.output(at: 0), first)
        XCTAssertNil(TolerantCompare.mismatch(first, try golden("dynamic_chain", "output_0"), tolerance: .float))
    }

    func testZeroCopyAccess() throws {
        let interpreter = try Interpreter(model: model("two_inputs"))
        try interpreter.allocateTensors()
        for k in 0..<2 {
            try interpreter.withUnsafeMutableInputBytes(at: k) { bytes in
                let values = bytes.bindMemory(to: Float.self)
                for i in values.indices { values[i] = Float(i + 1) * Float(k + 1) }
            }
        }
        try interpreter.invoke()
        // Inputs are (y, x) in the file; outputs are the signature's product and sum in some order.
        let outputs = try (0..<2).map { k in try interpreter.withUnsafeOutputBytes(at: k) { Array($0.bindMemory(to: Float.self)) } }
        let sums: [Float] = [3, 6, 9, 12], products: [Float] = [2, 8, 18, 32]
        XCTAssertEqual(Set(outputs), Set([sums, products]))
        // Memory handed out by the closure is the same the tensor reads.
        let viaCopy = try interpreter.input(at: 1).data
        XCTAssertEqual(floats(viaCopy), [2, 4, 6, 8])
    }

    func testConcurrentUseIsDetected() throws {
        let entered = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let blocking: (OperatorCode) -> OperatorFactory? = { code in
            guard code.builtin == .add else { return TestKernels.resolver(code) }
            return {
                let kernel = BinaryKernel(+)
                kernel.onInvoke = { entered.signal(); release.wait() }
                return kernel
            }
        }
        let interpreter = try Interpreter(model: model("two_inputs", resolver: blocking))
        try interpreter.allocateTensors()
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do { try interpreter.invoke() } catch { XCTFail("invoke on the first thread: \(error)") }
            finished.signal()
        }
        entered.wait()
        assertThrows(.concurrentUse, try interpreter.invoke())
        assertThrows(.concurrentUse, try interpreter.output(at: 0))
        assertThrows(.concurrentUse, try interpreter.copy(Data(count: 16), toInputAt: 0))
        release.signal()
        finished.wait()
        XCTAssertNoThrow(try interpreter.output(at: 0))
    }

    func testSharedModelOnSeveralThreads() throws {
        let shared = try model("dynamic_chain")
        let input = try golden("dynamic_chain", "input_0"), expected = try golden("dynamic_chain", "output_0")
        let failures = NSLock()
        nonisolated(unsafe) var problems: [String] = []
        DispatchQueue.concurrentPerform(iterations: 4) { k in
            do {
                let interpreter = try Interpreter(model: shared, options: .init(threadCount: 1))
                for _ in 0..<50 {
                    let outputs = try interpreter.run([input])
                    if let problem = TolerantCompare.mismatch(outputs[0], expected, tolerance: .float) {
                        failures.lock(); problems.append("thread \(k): \(problem)"); failures.unlock()
                    }
                }
            } catch { failures.lock(); problems.append("thread \(k): \(error)"); failures.unlock() }
        }
        XCTAssertEqual(problems, [])
    }

    func testOperatorProfile() throws {
        var options = Interpreter.Options(threadCount: 1)
        XCTAssertTrue(try Interpreter(model: model("dynamic_chain"), options: options).operatorProfile.isEmpty)
        options.isProfilingEnabled = true
        let interpreter = try Interpreter(model: model("dynamic_chain"), options: options)
        try interpreter.allocateTensors()
        for _ in 0..<3 { try interpreter.invoke() }
        let profile = interpreter.operatorProfile
        XCTAssertEqual(profile.map(\.name), ["ADD", "MUL", "ADD"])
        XCTAssertEqual(profile.map(\.invocations), [3, 3, 3])
        XCTAssertEqual(profile.map(\.outputShape), [[1, 8], [1, 8], [1, 8]])
        XCTAssertTrue(profile.allSatisfy { $0.totalNanoseconds > 0 })
        try interpreter.resetOperatorProfile()
        XCTAssertEqual(interpreter.operatorProfile.map(\.totalNanoseconds), [0, 0, 0])
    }

    func testSignatureRunner() throws {
        let interpreter = try Interpreter(model: model("two_inputs"))
        XCTAssertEqual(interpreter.signatureKeys, ["add_mul"])
        assertThrows(.notFound("no signature 'serving_default' (keys: add_mul)"),
                     try interpreter.signatureRunner(with: "serving_default"))
        let runner = try interpreter.signatureRunner(with: "add_mul")
        XCTAssertEqual(Set(runner.inputs), ["x", "y"])
        XCTAssertEqual(Set(runner.outputs), ["sum", "product"])
        let x: [Float] = [1, 2, 3, 4], y: [Float] = [0.5, -1, 2, 10]
        try runner.invoke(with: ["x": x.withUnsafeBytes { Data($0) }, "y": y.withUnsafeBytes { Data($0) }])
        XCTAssertEqual(floats(try runner.output(named: "sum").data), [1.5, 1, 5, 14])
        XCTAssertEqual(floats(try runner.output(named: "product").data), [0.5, -2, 6, 40])
        XCTAssertThrowsError(try runner.output(named: "difference")) { error in
            guard case InterpreterError.notFound = error else { return XCTFail("\(error)") }
        }
        assertThrows(.invalidDataCount(provided: 4, required: 16), try runner.copy(Data(count: 4), toInputNamed: "x"))
    }

    func testFloat16WeightsAreFoldedAtLoad() throws {
        let loaded = try model("float16_weights")
        // DEQUANTIZE of the constant float16 weights ran once at load; only FULLY_CONNECTED remains.
        XCTAssertEqual(loaded.subgraphs[0].description.operators.count, 2)
        XCTAssertEqual(loaded.subgraphs[0].liveOperators.count, 1)
        XCTAssertEqual(loaded.derivedConstantByteCount, 64 * 8 * 4)
        let interpreter = try Interpreter(model: loaded)
        let outputs = try interpreter.run([try golden("float16_weights", "input_0")])
        XCTAssertEqual(interpreter.operatorCount, 1)
        XCTAssertNil(TolerantCompare.mismatch(outputs[0], try golden("float16_weights", "output_0"), tolerance: .float))
    }

    func testFloat16WeightsOfTheBuiltinFullyConnectedAreConvertedAtPrepare() throws {
        let loaded = try model("float16_weights", resolver: OperatorRegistry.factory(for:))
        // The built-in layer packs its weights from the float16 values (`DeferredDequantization`).
        XCTAssertEqual(loaded.subgraphs[0].liveOperators.count, 1)
        XCTAssertEqual(loaded.derivedConstantByteCount, 0)
        let outputs = try Interpreter(model: loaded).run([try golden("float16_weights", "input_0")])
        XCTAssertNil(TolerantCompare.mismatch(outputs[0], try golden("float16_weights", "output_0"), tolerance: .float))
    }

    func testReshapeSharesMemoryWithItsInput() throws {
        let resolver: (OperatorCode) -> OperatorFactory? = { code in
            code.builtin == .reshape ? OperatorRegistry.factory(for: code) : TestKernels.resolver(code)
        }
        let loaded = try model("reshape_chain", resolver: resolver)
        let interpreter = try Interpreter(model: loaded)
        let outputs = try interpreter.run([try golden("reshape_chain", "input_0")])
        XCTAssertNil(TolerantCompare.mismatch(outputs[0], try golden("reshape_chain", "output_0"), tolerance: .float))
        // Same check at the executor level: the ADD output and the RESHAPE output share bytes.
        let executor = SubgraphExecutor(blueprint: loaded.subgraphs[0], threads: ThreadPool(threadCount: 1))
        try executor.prepare()
        let added = executor.tensors.first { $0.name == "add" }!, reshaped = executor.tensors.first { $0.name == "Reshape" }!
        XCTAssertEqual(added.data, reshaped.data)
        XCTAssertNotEqual(added.data, executor.tensors[executor.inputIndices[0]].data)
    }

    /// SHAPE → STRIDED_SLICE → PACK feed RESHAPE's shape input; they are evaluated at
    /// allocation, again after a resize (uses the engine's real kernels).
    func testShapeDependentValuesAreEvaluatedAtAllocation() throws {
        let interpreter = try Interpreter(modelPath: TestPaths.fixture("interpreter/shape_dependent/model.tflite"))
        let row = try golden("shape_dependent", "input_0"), expected = try golden("shape_dependent", "output_0")
        let outputs = try interpreter.run([row])
        XCTAssertNil(TolerantCompare.mismatch(outputs[0], expected, tolerance: .float))
        XCTAssertEqual(interpreter.operatorCount, 2)  // RESHAPE and MUL
        let three = try NumPyArray(dataType: .float32, shape: [3, 2, 4], data: row.data + row.data + row.data)
        let resized = try interpreter.run([three])
        XCTAssertEqual(resized[0].shape, [3, 8])
        let values = expected.doubleValues()
        XCTAssertNil(TolerantCompare.floatMismatch(resized[0].doubleValues(), values + values + values))
        XCTAssertNil(TolerantCompare.mismatch(try interpreter.run([row])[0], expected, tolerance: .float))
    }

    func testQuantizationParameters() throws {
        let perChannel = QuantizationParameters(Quantization(scales: [0.5, 0.25, 2], zeroPoints: [0, 0, 0],
                                                             quantizedDimension: 3))
        XCTAssertEqual(perChannel?.scales, [0.5, 0.25, 2])
        XCTAssertEqual(perChannel?.zeroPoints, [0, 0, 0])
        XCTAssertEqual(perChannel?.quantizedDimension, 3)
        XCTAssertEqual(perChannel?.scale, 0.5)
        XCTAssertEqual(perChannel?.isPerChannel, true)
        XCTAssertNil(QuantizationParameters(Quantization(scales: [], zeroPoints: [])))
        // A real uint8 model's input carries its scale and zero point.
        let cases = try FileManager.default.contentsOfDirectory(atPath: TestPaths.fixturesDirectory.path + "/ops/convolution")
        guard let u8 = cases.sorted().first(where: { $0.hasPrefix("conv_u8") }) else {
            throw TestEnvironment.missing("no uint8 convolution fixture")
        }
        let interpreter = try Interpreter(modelPath: TestPaths.fixture("ops/convolution/\(u8)/model.tflite"))
        try interpreter.allocateTensors()
        let input = try interpreter.input(at: 0)
        XCTAssertEqual(input.dataType, .uInt8)
        let parameters = try XCTUnwrap(input.quantizationParameters)
        XCTAssertGreaterThan(parameters.scale, 0)
        XCTAssertTrue((0...255).contains(parameters.zeroPoint))
        XCTAssertFalse(parameters.isPerChannel)
    }

    func testSignatureRunnerResize() throws {
        let interpreter = try Interpreter(model: model("dynamic_chain"))
        XCTAssertEqual(interpreter.signatureKeys, [])
        let twoInputs = try Interpreter(model: model("two_inputs"))
        let runner = try twoInputs.signatureRunner(with: "add_mul")
        XCTAssertTrue(try twoInputs.signatureRunner(with: "add_mul") === runner)
        try runner.resizeInput(named: "x", toShape: [2, 4])
        try runner.resizeInput(named: "y", toShape: [2, 4])
        try runner.allocateTensors()
        XCTAssertEqual(try runner.input(named: "x").shape, [2, 4])
        let x = [Float](repeating: 2, count: 8), y = [Float](repeating: 3, count: 8)
        try runner.copy(x.withUnsafeBytes { Data($0) }, toInputNamed: "x")
        try runner.withUnsafeMutableInputBytes(named: "y") { bytes in
            y.withUnsafeBytes { bytes.copyMemory(from: $0) }
        }
        try runner.invoke()
        try runner.withUnsafeOutputBytes(named: "sum") { XCTAssertEqual(Array($0.bindMemory(to: Float.self)), [Float](repeating: 5, count: 8)) }
        XCTAssertEqual(floats(try runner.output(named: "product").data), [Float](repeating: 6, count: 8))
        XCTAssertGreaterThan(runner.arenaByteCount, 0)
    }

    func testUnsupportedOperatorsReportedAtLoadByName() throws {
        let path = try TestPaths.fixture("interpreter/dynamic_chain/model.tflite")
        let file = try TFLiteModelFile(contentsOf: path)
        let add: OperatorFactory = { BinaryKernel(+) }
        let onlyAdd: (OperatorCode) -> OperatorFactory? = { $0.builtin == .add ? add : nil }
        XCTAssertEqual(Model.unsupportedOperators(in: file, resolver: onlyAdd), ["MUL"])
        assertThrows(.unsupportedOperator(name: "MUL"), try Model(file: file, resolver: onlyAdd))
        XCTAssertEqual(Model.unsupportedOperators(in: file, resolver: { _ in nil }), ["ADD", "MUL"])
    }

    func testMalformedModelsThrow() throws {
        XCTAssertThrowsError(try Interpreter(modelData: Data("not a model at all".utf8))) { error in
            guard case InterpreterError.invalidModel = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try Interpreter(modelPath: "/nonexistent/model.tflite")) { error in
            guard case InterpreterError.invalidModel = error else { return XCTFail("\(error)") }
        }
        // Every truncation of a real model is rejected with a typed error, never a crash.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("interpreter/two_inputs/model.tflite")))
        for length in stride(from: 0, to: bytes.count, by: 7) {
            XCTAssertThrowsError(try Interpreter(modelData: bytes.prefix(length)))
        }
    }

    func testRunChecksNumPyInputs() throws {
        let interpreter = try Interpreter(model: model("two_inputs"))
        let x = try NumPyArray(shape: [1, 4], float32: [1, 2, 3, 4])
        assertThrows(.invalidArgument("the model has 2 inputs, got 1"), try interpreter.run([x]))
        let ints = try NumPyArray(dataType: .int32, shape: [1, 4], data: Data(count: 16))
        XCTAssertThrowsError(try interpreter.run([ints, x])) { error in
            guard case InterpreterError.invalidTensorDataType = error else { return XCTFail("\(error)") }
        }
        let wide = try NumPyArray(shape: [1, 5], float32: [1, 2, 3, 4, 5])
        XCTAssertThrowsError(try interpreter.run([x, wide])) { error in
            guard case let InterpreterError.invalidShape(message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("[1, 5]"), message)
        }
        XCTAssertEqual(try interpreter.run([x, x]).count, 2)
    }
}
