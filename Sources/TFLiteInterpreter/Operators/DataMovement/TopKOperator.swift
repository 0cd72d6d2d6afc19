import TFLiteKernels
import TFLiteSchema

/// TOPK_V2: the constant k largest values along the last dimension and their int32 indices.
final class TopKOperator: OperatorKernel {
    private var k = 0, rowCount = 0, rowSize = 0
    private var scratch: [Int32] = []

    func prepare(_ node: NodeContext) throws {
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
        try node.reserveScratch(SharedMemoryBudget.bytes(rowSize, MemoryLayout<Int32>.size), "the row indices")
        scratch = [Int32](repeating: 0, count: rowSize)
    }

    func invoke(_ node: NodeContext) throws {
        let op = "TOPK_V2"
        let input = try node.input(0), values = try node.output(0), indices = try node.output(1)
        guard k > 0, rowCount > 0 else { return }
        _ = try DataMovementSupport.data(input, op); _ = try DataMovementSupport.data(values, op)
        _ = try DataMovementSupport.data(indices, op)
        let idx = try indices.mutableView(as: Int32.self, op).base
        switch input.type {
        case .float32: try run(input, values, idx, Float.self, op)
        case .uint8: try run(input, values, idx, UInt8.self, op)
        case .int8: try run(input, values, idx, Int8.self, op)
        case .int16: try run(input, values, idx, Int16.self, op)
        case .int32: try run(input, values, idx, Int32.self, op)
        default: try run(input, values, idx, Int64.self, op)
        }
    }

    private func run<T: Comparable>(_ input: RuntimeTensor, _ values: RuntimeTensor,
                                    _ idx: UnsafeMutablePointer<Int32>, _ type: T.Type, _ op: String) throws {
        let src = try input.view(as: T.self, op).base, dst = try values.mutableView(as: T.self, op).base
        scratch.withUnsafeMutableBufferPointer { scratch in
            TopKReference.run(rowCount: rowCount, rowSize: rowSize, k: k, input: src, values: dst, indices: idx, scratch: scratch)
        }
    }
}
