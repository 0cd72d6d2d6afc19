import Foundation
@testable import TFLiteInterpreter
import TFLiteKernels
import TFLiteSchema
import TestSupport
import XCTest

/// What `BinaryArithmeticOperator` decides at prepare (issue 12 item 2): the float kernel, and
/// which 8-bit pair tables exist, so that invoke only runs.
final class BinaryArithmeticPlanTests: XCTestCase {
    /// The float kernel comes from the operation and the layout: the vector kernels where they
    /// have the operation (over contiguous operands or broadcast rows), the reference otherwise.
    func testFloatKernelIsChosenFromOperationAndLayout() throws {
        let flat = try ElementwiseSupport.broadcastLayout([2, 3, 4], [2, 3, 4], "ADD")
        let broadcast = try ElementwiseSupport.broadcastLayout([2, 3, 4], [1, 3, 1], "ADD")
        XCTAssertTrue(flat.isElementwise)
        XCTAssertFalse(broadcast.isElementwise)
        for op: BinaryArithmeticReference.Operation in [.add, .sub, .mul, .div, .maximum, .minimum, .squaredDifference] {
            XCTAssertEqual(BinaryArithmeticOperator.FloatKernel(op, flat), .vectorElementwise, "\(op)")
            XCTAssertEqual(BinaryArithmeticOperator.FloatKernel(op, broadcast), .vectorRows, "\(op)")
        }
        for op: BinaryArithmeticReference.Operation in [.pow, .floorDiv, .floorMod] {
            XCTAssertEqual(BinaryArithmeticOperator.FloatKernel(op, flat), .referenceRows, "\(op)")
            XCTAssertEqual(BinaryArithmeticOperator.FloatKernel(op, broadcast), .referenceRows, "\(op)")
        }
    }

    /// After prepare, every pair-table node whose own kernel runs holds its table, and a node
    /// that fusion replaced or removed holds none (it would never read it); with fusion off every
    /// pair-table node holds one. The invokes then give the same outputs.
    func testPairTablesExistAfterPrepareExactlyForTheNodesThatRun() throws {
        let model = try Model(file: TFLiteModelFile(contentsOf: try TestPaths.sharedModel("yolov8n_int8_640.tflite")))
        var outputs: [[UInt8]] = []
        for fuses in [true, false] {
            let executor = SubgraphExecutor(blueprint: model.subgraphs[0], threads: ThreadPool(threadCount: 1))
            executor.fusesNodes = fuses
            try executor.prepare()
            let running = Set(executor.runOrder.filter { executor.fusedNodes[$0] == nil })
            var tables = 0
            for (k, node) in executor.nodes.enumerated() {
                guard let built = (node.kernel as? BinaryArithmeticOperator)?.builtPairTable else { continue }
                tables += 1
                XCTAssertEqual(built, running.contains(k), "fusion \(fuses): node \(node.position)'s table")
            }
            XCTAssertGreaterThan(tables, 0, "the model has large 8-bit ADDs / MULs")
            let input = executor.tensors[executor.inputIndices[0]]
            let bytes = ScratchArenaTests.pseudoRandomInput(input)
            bytes.withUnsafeBytes { input.data!.copyMemory(from: $0.baseAddress!, byteCount: input.byteCount) }
            try executor.invoke()
            let output = executor.tensors[executor.outputIndices[0]]
            outputs.append(Array(UnsafeRawBufferPointer(start: output.data!, count: output.byteCount)))
        }
        XCTAssertEqual(outputs[0], outputs[1], "fused and unfused runs agree")
    }
}
