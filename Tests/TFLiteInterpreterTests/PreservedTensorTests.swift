import Foundation
import TFLiteInterpreter
import TFLiteSchema
import TestSupport
import XCTest

/// `Options.preservedTensorIndices`: an intermediate tensor stays readable after `invoke()`
/// (its arena slot is not reused by later tensors), outputs are unchanged, and tensors that
/// were not preserved cannot be read.
final class PreservedTensorTests: XCTestCase {
    /// EfficientNet-Lite0's head: the last convolution's 7×7×1280 map (read by the average
    /// pool) and the pooled 1×1×1280 vector, found from the AVERAGE_POOL_2D operator.
    private func headTensors(_ file: TFLiteModelFile) throws -> (map: Int, pooled: Int) {
        let graph = file.subgraphs[0]
        let pool = try XCTUnwrap(graph.operators.first { file.operatorCodes[$0.opcodeIndex].builtin == .averagePool2D })
        return (pool.inputs[0], pool.outputs[0])
    }

    private func run(_ model: Model, preserving indices: Set<Int>, input: Data) throws -> Interpreter {
        var options = Interpreter.Options(threadCount: 1)
        options.preservedTensorIndices = indices
        let interpreter = try Interpreter(model: model, options: options)
        try interpreter.allocateTensors()
        try interpreter.copy(input, toInputAt: 0)
        try interpreter.invoke()
        return interpreter
    }

    func testPreservedFeatureMapAveragesToThePooledVector() throws {
        let model = try Model(path: TestPaths.model("efficientnet_lite0.tflite"))
        let (map, pooled) = try headTensors(model.file)
        var generator = SeededGenerator(seed: 14)
        let input = Data((0..<(224 * 224 * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let plain = try run(model, preserving: [], input: input)
        let kept = try run(model, preserving: [map, pooled], input: input)
        XCTAssertEqual(try plain.output(at: 0).data, try kept.output(at: 0).data, "preserving changes no output")

        let features = try kept.preservedTensor(at: map), vector = try kept.preservedTensor(at: pooled)
        XCTAssertEqual(features.shape.dimensions, [1, 7, 7, 1280])
        let f = features.data.map { Int(Int8(bitPattern: $0)) }, v = vector.data.map { Int(Int8(bitPattern: $0)) }
        XCTAssertEqual(features.quantizationParameters, vector.quantizationParameters)
        var worst = 0
        for c in 0..<1280 {
            let mean = Double((0..<49).reduce(0) { $0 + f[$1 * 1280 + c] }) / 49
            worst = max(worst, Int(abs(mean - Double(v[c])).rounded(.up)))
        }
        XCTAssertLessThanOrEqual(worst, 1, "the map read after invoke averages to the pooled vector")
        XCTAssertGreaterThan(Set(f).count, 10, "the map holds values, not a constant")

        XCTAssertThrowsError(try plain.preservedTensor(at: map)) { error in
            guard case .notFound = error as? InterpreterError else { return XCTFail("\(error)") }
        }
        var options = Interpreter.Options(threadCount: 1)
        options.preservedTensorIndices = [100_000]
        XCTAssertThrowsError(try Interpreter(model: model, options: options))
    }
}
