import TFLiteKernels
import TFLiteSchema

/// TOPK_V2: the constant k largest values along the last dimension and their int32 indices.
final class TopKOperator: OperatorKernel {
    private var k = 0, rowCount = 0, rowSize = 0
    /// One row's indices (arena scratch; the kernel refills it for every row).
    private var rowIndices: ScratchArray<Int32>?

    func prepare(_ node: NodeContext) throws {
        rowIndices = nil
        let op = "TOPK_V2"
        let input = try node.input(0)
        let kValues = try DataMovementSupport.constantIntegers(try node.input(1), op)
        guard kValues.count == 1, let last = input.shape.last, kValues[0] >= 0, kValues[0] <= last else {
            throw InterpreterError.invalidModel("\(op): k must be a scalar in 0...last dimension")
        }
        let values = try node.output(0), indices = try node.output(1)
        switch input.type {
        case .float32, .uint8, .int8, .int16, .int32, .int64: break
        default: throw InterpreterError.invalidModel("\(op): unsupported type \(input.type)")
        }
        try DataMovementSupport.requireSameType(input, values, op)
        guard indices.type == .int32 else { throw InterpreterError.invalidModel("\(op): indices output must be int32") }
        DataMovementSupport.inheritQuantization(from: input, to: values)
        k = kValues[0]
        rowSize = last
        rowCount = input.shape.dropLast().reduce(1, *)
        var shape = input.shape
        shape[shape.count - 1] = k
        values.shape = shape
        indices.shape = shape
        rowIndices = try node.requestScratch(Int32.self, count: rowSize, "the row indices")
    }

    func invoke(_ node: NodeContext) throws {
        let op = "TOPK_V2"
        guard let scratch = rowIndices else { throw InterpreterError.allocateTensorsRequired }
        let input = try node.input(0), values = try node.output(0), indices = try node.output(1)
        guard k > 0, rowCount > 0 else { return }
        _ = try DataMovementSupport.data(input, op); _ = try DataMovementSupport.data(values, op)
        _ = try DataMovementSupport.data(indices, op)
        let idx = try indices.mutableView(as: Int32.self, op).base
        switch input.type {
        case .float32: try run(input, values, idx, scratch, Float.self, op)
        case .uint8: try run(input, values, idx, scratch, UInt8.self, op)
        case .int8: try run(input, values, idx, scratch, Int8.self, op)
        case .int16: try run(input, values, idx, scratch, Int16.self, op)
        case .int32: try run(input, values, idx, scratch, Int32.self, op)
        default: try run(input, values, idx, scratch, Int64.self, op)
        }
    }

    private func run<T: Comparable>(_ input: RuntimeTensor, _ values: RuntimeTensor,
                                    _ idx: UnsafeMutablePointer<Int32>, _ scratch: ScratchArray<Int32>,
                                    _ type: T.Type, _ op: String) throws {
        let src = try input.view(as: T.self, op).base, dst = try values.mutableView(as: T.self, op).base
        scratch.withUnsafeMutableBufferPointer { scratch in
            TopKReference.run(rowCount: rowCount, rowSize: rowSize, k: k, input: src, values: dst, indices: idx, scratch: scratch)
        }
    }
}
