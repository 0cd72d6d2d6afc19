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
        let src = try DataMovementSupport.data(input, op), dst = try DataMovementSupport.data(values, op)
        let idx = try DataMovementSupport.data(indices, op).assumingMemoryBound(to: Int32.self)
        scratch.withUnsafeMutableBufferPointer { scratch in
            switch input.type {
            case .float32: run(src, dst, idx, scratch, Float.self)
            case .uint8: run(src, dst, idx, scratch, UInt8.self)
            case .int8: run(src, dst, idx, scratch, Int8.self)
            case .int16: run(src, dst, idx, scratch, Int16.self)
            case .int32: run(src, dst, idx, scratch, Int32.self)
            default: run(src, dst, idx, scratch, Int64.self)
            }
        }
    }

    private func run<T: Comparable>(_ src: UnsafeMutableRawPointer, _ dst: UnsafeMutableRawPointer,
                                    _ idx: UnsafeMutablePointer<Int32>, _ scratch: UnsafeMutableBufferPointer<Int32>,
                                    _ type: T.Type) {
        TopK.run(rowCount: rowCount, rowSize: rowSize, k: k, input: src.assumingMemoryBound(to: T.self),
                 values: dst.assumingMemoryBound(to: T.self), indices: idx, scratch: scratch)
    }
}
