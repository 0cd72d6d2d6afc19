import Foundation
import TestSupport
import XCTest
@testable import TFLiteInterpreter

/// Quantized DIV and RSQRT (int8, int16) inputs the reference rejects at invoke, which therefore have no
/// golden output: a divisor code equal to the divisor's zero point (a real 0), an RSQRT input
/// below its zero point. The golden cases (`Tests/Fixtures/ops/quantized`) cover the rest.
final class QuantizedDivisionTests: XCTestCase {
    private func interpreter(_ fixture: String) throws -> Interpreter {
        let interpreter = try Interpreter(modelPath: try TestPaths.fixture(fixture))
        try interpreter.allocateTensors()
        return interpreter
    }

    private func bytes(_ values: [Int8]) -> Data { Data(values.map { UInt8(bitPattern: $0) }) }

    func testDivisorAtItsZeroPointFailsAtInvoke() throws {
        // div_int8_relu: divisor zero point is -128 + 130 = 2.
        let interpreter = try interpreter("ops/quantized/div_int8_relu/model.tflite")
        let count = try interpreter.input(at: 1).data.count
        _ = try interpreter.copy(bytes([Int8](repeating: 5, count: count)), toInputAt: 0)
        var divisor = [Int8](repeating: 3, count: count)
        _ = try interpreter.copy(bytes(divisor), toInputAt: 1)
        XCTAssertNoThrow(try interpreter.invoke())
        divisor[count - 1] = 2
        _ = try interpreter.copy(bytes(divisor), toInputAt: 1)
        XCTAssertThrowsError(try interpreter.invoke()) { error in
            guard case InterpreterError.invocationFailed(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("DIV"), message)
        }
        // A raw code 0 is a valid divisor when the zero point is not 0.
        divisor[count - 1] = 0
        _ = try interpreter.copy(bytes(divisor), toInputAt: 1)
        XCTAssertNoThrow(try interpreter.invoke())
    }

    func testRsqrtInputBelowZeroPointFailsAtInvoke() throws {
        // rsqrt_int8_zp0: every code from 0 up is valid, -1 is not.
        let interpreter = try interpreter("ops/quantized/rsqrt_int8_zp0_s0.01/model.tflite")
        let count = try interpreter.input(at: 0).data.count
        var x = [Int8](repeating: 0, count: count)
        _ = try interpreter.copy(bytes(x), toInputAt: 0)
        try interpreter.invoke()
        XCTAssertEqual(try interpreter.output(at: 0).data.first.map { Int8(bitPattern: $0) }, 127,
                       "a real 0 gives the largest output code, as the reference does")
        x[count / 2] = -1
        _ = try interpreter.copy(bytes(x), toInputAt: 0)
        XCTAssertThrowsError(try interpreter.invoke())
    }

    func testInt16RsqrtNegativeInputFailsAtInvoke() throws {
        // int16 RSQRT (zero point 0): every code from 0 up is valid (the golden sweeps them), -1 is not.
        let interpreter = try interpreter("ops/int16x8/rsqrt_scale_0.001_out_0.002/model.tflite")
        let count = try interpreter.input(at: 0).data.count / 2
        var x = [Int16](repeating: 7, count: count)
        _ = try interpreter.copy(x.withUnsafeBytes { Data($0) }, toInputAt: 0)
        XCTAssertNoThrow(try interpreter.invoke())
        x[count - 1] = -1
        _ = try interpreter.copy(x.withUnsafeBytes { Data($0) }, toInputAt: 0)
        XCTAssertThrowsError(try interpreter.invoke()) { error in
            guard case InterpreterError.invocationFailed(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("RSQRT"), message)
        }
    }
}
