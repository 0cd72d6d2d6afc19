@testable import TFLiteInterpreter
import TFLiteSchema
import XCTest

/// The typed tensor views' contract (`TensorViewCheck`), tested directly: a violating view traps
/// under `LITEVISION_INTERNAL_CHECKS`, which would end the test process, so these tests call the
/// check the views call and assert on its verdict. The trap itself was verified by hand with a
/// throwaway test in a debug build: viewing a float32 tensor as `Int32` stopped with
/// "Fatal error: OP: tensor 't' is float32, viewed as Int32", and the same test passed in a
/// release build without the flag (the check compiled out).
final class TensorViewTests: XCTestCase {
    private var memory: UnsafeMutableRawPointer!

    override func setUp() {
        memory = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 64)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: 256)
    }

    override func tearDown() { memory.deallocate() }

    private func tensor(_ type: TensorType, _ shape: [Int], at offset: Int = 0, constantBytes: Int? = nil) -> RuntimeTensor {
        let t = RuntimeTensor(index: 0, name: "t", type: type, shape: shape, quantization: nil, sparsity: nil,
                              isConstant: constantBytes != nil)
        t.data = memory + offset
        t.constantByteCount = constantBytes
        return t
    }

    func testMatchingElementTypesPass() {
        XCTAssertNil(TensorViewCheck.violation(tensor(.float32, [2, 3]), memory, as: Float.self))
        XCTAssertNil(TensorViewCheck.violation(tensor(.int8, [5]), memory, as: Int8.self))
        XCTAssertNil(TensorViewCheck.violation(tensor(.uint8, [5]), memory, as: UInt8.self))
        XCTAssertNil(TensorViewCheck.violation(tensor(.int16, [4]), memory, as: Int16.self))
        XCTAssertNil(TensorViewCheck.violation(tensor(.int32, [4]), memory, as: Int32.self))
        XCTAssertNil(TensorViewCheck.violation(tensor(.int64, [4]), memory, as: Int64.self))
        XCTAssertNil(TensorViewCheck.violation(tensor(.float16, [4]), memory, as: UInt16.self), "float16 as its bits")
        XCTAssertNil(TensorViewCheck.violation(tensor(.bool, [4]), memory, as: UInt8.self))
        XCTAssertNil(TensorViewCheck.violation(tensor(.bool, [4]), memory, as: Bool.self))
        XCTAssertNil(TensorViewCheck.violation(tensor(.float32, []), memory, as: Float.self), "a scalar")
    }

    func testWrongElementTypesFail() {
        XCTAssertNotNil(TensorViewCheck.violation(tensor(.float32, [2, 3]), memory, as: Int32.self), "same width, other type")
        XCTAssertNotNil(TensorViewCheck.violation(tensor(.float32, [2, 3]), memory, as: Int8.self))
        XCTAssertNotNil(TensorViewCheck.violation(tensor(.int8, [5]), memory, as: UInt8.self), "int8 is not uint8")
        XCTAssertNotNil(TensorViewCheck.violation(tensor(.int16, [4]), memory, as: UInt16.self))
        XCTAssertNotNil(TensorViewCheck.violation(tensor(.int64, [4]), memory, as: Double.self))
        XCTAssertNotNil(TensorViewCheck.violation(tensor(.uint8, [4]), memory, as: Bool.self))
    }

    func testByteViewsTakeOneByteTypesOnly() {
        XCTAssertNil(TensorViewCheck.byteViolation(tensor(.int8, [5]), memory))
        XCTAssertNil(TensorViewCheck.byteViolation(tensor(.uint8, [5]), memory))
        XCTAssertNil(TensorViewCheck.byteViolation(tensor(.bool, [5]), memory))
        XCTAssertNotNil(TensorViewCheck.byteViolation(tensor(.int16, [5]), memory))
        XCTAssertNotNil(TensorViewCheck.byteViolation(tensor(.float32, [5]), memory))
    }

    func testConstantsMustHoldTheViewsBytes() {
        XCTAssertNil(TensorViewCheck.violation(tensor(.float32, [4], constantBytes: 16), memory, as: Float.self))
        let short = tensor(.float32, [4], constantBytes: 12)
        XCTAssertNotNil(TensorViewCheck.violation(short, memory, as: Float.self), "4 floats behind 12 bytes")
    }

    func testMisalignedDataFails() {
        let t = tensor(.int32, [4], at: 2)
        XCTAssertNotNil(TensorViewCheck.violation(t, memory + 2, as: Int32.self))
        XCTAssertNil(TensorViewCheck.byteViolation(tensor(.int8, [4], at: 3), memory + 3), "bytes need no alignment")
    }

    /// Views of well-typed tensors see the tensor's memory.
    func testViewsOfAllocatedTensorsMatchTheirData() throws {
        let t = tensor(.float32, [2, 2])
        let out = try t.mutableView(as: Float.self, "test")
        out[3] = 1.5
        XCTAssertEqual(try t.view(as: Float.self, "test")[3], 1.5)
        XCTAssertEqual(UnsafeRawPointer(out.base), UnsafeRawPointer(memory))
        let bytes = try tensor(.int8, [4]).byteView("test")
        XCTAssertEqual(UnsafeRawPointer(bytes.base), UnsafeRawPointer(memory))
        #if LITEVISION_INTERNAL_CHECKS
        XCTAssertEqual(out.count, 4, "views keep their element count when checks are on")
        #endif
    }

    func testViewOfUnallocatedTensorThrows() {
        let t = tensor(.float32, [2])
        t.data = nil
        XCTAssertThrowsError(try t.view(as: Float.self, "TEST")) { error in
            guard case InterpreterError.invocationFailed(let message) = error else {
                return XCTFail("expected invocationFailed, got \(error)")
            }
            XCTAssertTrue(message.hasPrefix("TEST:"), message)
        }
    }
}
