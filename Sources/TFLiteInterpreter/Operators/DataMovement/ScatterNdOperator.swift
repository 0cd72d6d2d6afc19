import TFLiteKernels
import TFLiteSchema

/// SCATTER_ND: inputs indices, updates and the constant output shape; duplicates add up.
final class ScatterNdOperator: OperatorKernel {
    private var depth = 0, indexCount = 0

    func prepare(_ node: NodeContext) throws {
        let op = "SCATTER_ND"
        let indices = try node.input(0), updates = try node.input(1)
        let output = try node.output(0)
        let shape = try DataMovementSupport.checkedShape(try DataMovementSupport.constantIntegers(try node.input(2), op), op)
        guard indices.type == .int32 || indices.type == .int64, let last = indices.shape.last, last <= shape.count else {
            throw InterpreterError.invalidModel("\(op): indices must be int32/int64 with depth ≤ output rank")
        }
        let expected = Array(indices.shape.dropLast()) + Array(shape[last...])
        guard updates.shape == expected else {
            throw InterpreterError.invalidShape("\(op): updates shape \(updates.shape), expected \(expected)")
        }
        switch updates.type {
        case .float32, .int32, .int64, .int8, .uint8: break
        default: throw InterpreterError.invalidModel("\(op): unsupported type \(updates.type)")
        }
        try DataMovementSupport.requireSameType(updates, output, op)
        depth = last
        indexCount = indices.shape.dropLast().reduce(1, *)
        output.shape = shape
    }

    func invoke(_ node: NodeContext) throws {
        let op = "SCATTER_ND"
        let indices = try node.input(0), updates = try node.input(1), output = try node.output(0)
        guard output.elementCount > 0 else { return }
        let idx = try DataMovementSupport.data(indices, op)
        let upd = updates.elementCount > 0 ? try DataMovementSupport.data(updates, op) : try DataMovementSupport.data(output, op)
        let dst = try DataMovementSupport.data(output, op)
        let bad: Int?
        if indices.type == .int64 {
            bad = scatter(idx.assumingMemoryBound(to: Int64.self), upd, dst, output)
        } else {
            bad = scatter(idx.assumingMemoryBound(to: Int32.self), upd, dst, output)
        }
        if let bad { throw InterpreterError.invocationFailed("\(op): index tuple \(bad) is outside \(output.shape)") }
    }

    private func scatter<Index: FixedWidthInteger>(_ idx: UnsafeMutablePointer<Index>, _ upd: UnsafeMutableRawPointer,
                                                   _ dst: UnsafeMutableRawPointer, _ output: RuntimeTensor) -> Int? {
        let shape = output.shape
        switch output.type {
        case .float32:
            return ScatterNd.run(outputShape: shape, depth: depth, indexCount: indexCount, indices: idx,
                                 updates: upd.assumingMemoryBound(to: Float.self),
                                 output: dst.assumingMemoryBound(to: Float.self), add: +)
        case .int32:
            return ScatterNd.run(outputShape: shape, depth: depth, indexCount: indexCount, indices: idx,
                                 updates: upd.assumingMemoryBound(to: Int32.self),
                                 output: dst.assumingMemoryBound(to: Int32.self), add: &+)
        case .int64:
            return ScatterNd.run(outputShape: shape, depth: depth, indexCount: indexCount, indices: idx,
                                 updates: upd.assumingMemoryBound(to: Int64.self),
                                 output: dst.assumingMemoryBound(to: Int64.self), add: &+)
        case .int8:
            return ScatterNd.run(outputShape: shape, depth: depth, indexCount: indexCount, indices: idx,
                                 updates: upd.assumingMemoryBound(to: Int8.self),
                                 output: dst.assumingMemoryBound(to: Int8.self), add: &+)
        default:
            return ScatterNd.run(outputShape: shape, depth: depth, indexCount: indexCount, indices: idx,
                                 updates: upd.assumingMemoryBound(to: UInt8.self),
                                 output: dst.assumingMemoryBound(to: UInt8.self), add: &+)
        }
    }
}
