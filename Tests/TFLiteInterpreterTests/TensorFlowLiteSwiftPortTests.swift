import Foundation
import TFLiteInterpreter   // deliberately not @testable: ported code sees only the public API
import TestSupport
import XCTest

/// Code written against TensorFlowLiteSwift compiles unchanged (only the import differs) and
/// gives the same results as the native API. The snippets below are spelled as TensorFlow
/// Lite's Swift guide and its image-classification example spell them.
final class TensorFlowLiteSwiftPortTests: XCTestCase {
    /// Stands in for `MetalDelegate()` / `CoreMLDelegate()` in ported code.
    private final class StandInDelegate: Delegate {}

    /// A deterministic 224×224 RGB picture (smooth gradients plus seeded noise).
    private func pictureBytes() -> Data {
        var random = SeededGenerator(seed: 14)
        var bytes = [UInt8](repeating: 0, count: 224 * 224 * 3)
        for y in 0..<224 {
            for x in 0..<224 {
                let i = (y * 224 + x) * 3
                bytes[i] = UInt8(truncatingIfNeeded: x + Int(random.next() % 16))
                bytes[i + 1] = UInt8(truncatingIfNeeded: y + Int(random.next() % 16))
                bytes[i + 2] = UInt8(truncatingIfNeeded: (x * y) / 224)
            }
        }
        return Data(bytes)
    }

    /// The classification example's flow, verbatim apart from the model path and input:
    /// options with a thread count, delegates, tensor shapes, data types and dequantization.
    private func classifyAsTensorFlowLiteSwiftDoes(modelPath: String, rgbData: Data) throws -> [Float] {
        var options = Interpreter.Options()
        options.threadCount = 1
        options.isXNNPackEnabled = true
        let delegates: [Delegate]? = [StandInDelegate()]
        let interpreter = try Interpreter(modelPath: modelPath, options: options, delegates: delegates)
        try interpreter.allocateTensors()

        let inputTensor = try interpreter.input(at: 0)
        let batchSize = inputTensor.shape.dimensions[0]
        let inputHeight = inputTensor.shape.dimensions[1]
        let inputWidth = inputTensor.shape.dimensions[2]
        let inputChannels = inputTensor.shape.dimensions[3]
        XCTAssertEqual([batchSize, inputHeight, inputWidth, inputChannels], [1, 224, 224, 3])
        XCTAssertEqual(interpreter.inputTensorCount, 1)
        XCTAssertEqual(interpreter.outputTensorCount, 1)
        XCTAssertEqual(inputTensor.dataType, .uInt8)

        try interpreter.copy(rgbData, toInputAt: 0)
        try interpreter.invoke()
        let outputTensor = try interpreter.output(at: 0)

        let results: [Float]
        switch outputTensor.dataType {
        case .uInt8:
            guard let quantization = outputTensor.quantizationParameters else {
                XCTFail("a uint8 output without quantization parameters"); return []
            }
            let quantizedResults = [UInt8](outputTensor.data)
            results = quantizedResults.map {
                quantization.scale * Float(Int($0) - quantization.zeroPoint)
            }
        case .float32:
            results = outputTensor.data.withUnsafeBytes { Array($0.bindMemory(to: Float32.self)) }
        default:
            XCTFail("unexpected output type \(outputTensor.dataType)"); return []
        }
        // The guide's way of reading a float output into a buffer, on the same tensor.
        let outputSize = outputTensor.shape.dimensions.reduce(1, { x, y in x * y })
        XCTAssertEqual(outputSize, results.count)
        return results
    }

    func testClassificationExampleCompilesAndMatchesNativeAPI() throws {
        let modelPath = try TestPaths.model("efficientnet_lite0.tflite")
        let rgbData = pictureBytes()
        let ported = try classifyAsTensorFlowLiteSwiftDoes(modelPath: modelPath, rgbData: rgbData)

        // The same model through the native API: a shared Model, zero-copy input and output.
        let native = try Interpreter(model: Model(path: modelPath), options: Interpreter.Options(threadCount: 1))
        try native.allocateTensors()
        try native.withUnsafeMutableInputBytes(at: 0) { buffer in
            rgbData.withUnsafeBytes { buffer.copyMemory(from: $0) }
        }
        try native.invoke()
        let quantization = try XCTUnwrap(native.output(at: 0).quantizationParameters)
        let expected = try native.withUnsafeOutputBytes(at: 0) { bytes in
            bytes.map { quantization.scale * Float(Int($0) - quantization.zeroPoint) }
        }
        XCTAssertEqual(ported.count, 1000)
        XCTAssertEqual(ported, expected)
        // Not a degenerate output: some class is clearly preferred.
        XCTAssertGreaterThan(ported.max() ?? 0, 2 * (ported.reduce(0, +) / Float(ported.count)))
    }

    /// The guide's minimal flow, with `delegates: nil` and without options, and a resize
    /// round trip (`resizeInput(at:to:)` then `allocateTensors()`).
    func testGuideSnippetWithoutOptions() throws {
        let modelPath = try TestPaths.model("efficientnet_lite0.tflite")
        let interpreter = try Interpreter(modelPath: modelPath, delegates: nil)
        try interpreter.resizeInput(at: 0, to: Tensor.Shape([1, 224, 224, 3]))
        try interpreter.allocateTensors()
        let inputData: Data = pictureBytes()
        try interpreter.copy(inputData, toInputAt: 0)
        try interpreter.invoke()
        let outputTensor = try interpreter.output(at: 0)
        let outputSize = outputTensor.shape.dimensions.reduce(1, { x, y in x * y })
        XCTAssertEqual(outputSize, 1000)
        XCTAssertEqual(outputTensor.shape.rank, 2)
        XCTAssertEqual(outputTensor.data.count, outputSize * outputTensor.dataType.byteSize)
    }
}
