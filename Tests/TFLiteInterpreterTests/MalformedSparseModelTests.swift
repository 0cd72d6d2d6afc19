import TFLiteInterpreter
import TestSupport
import XCTest

/// Models whose structure is valid but whose contents lie, which only the operators can catch.
final class MalformedSparseModelTests: XCTestCase {
    func testDensifyRejectsSparseMetadataThatOverrunsItsBuffer() throws {
        // CSR metadata stores 5 values; the buffer holds 2 (Scripts/goldens/malformed_models.py).
        let path = try TestPaths.fixture("malformed/densify_short_sparse_buffer.tflite")
        XCTAssertThrowsError(try {
            let interpreter = try Interpreter(modelPath: path)
            try interpreter.allocateTensors()
        }()) { error in
            guard case let InterpreterError.invalidModel(message) = error else {
                return XCTFail("expected invalidModel, got \(error)")
            }
            XCTAssertTrue(message.contains("DENSIFY"), message)
        }
    }
}
