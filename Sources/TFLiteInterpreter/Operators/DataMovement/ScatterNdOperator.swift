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
        _ = try DataMovementSupport.data(indices, op)
        if updates.elementCount > 0 { _ = try DataMovementSupport.data(updates, op) }
        _ = try DataMovementSupport.data(output, op)
        let bad: Int?
        if indices.type == .int64 {
            bad = try scatter(try indices.view(as: Int64.self, op).base, updates, output, op)
        } else {
            bad = try scatter(try indices.view(as: Int32.self, op).base, updates, output, op)
        }
        if let bad { throw InterpreterError.invocationFailed("\(op): index tuple \(bad) is outside \(output.shape)") }
    }

    private func scatter<Index: FixedWidthInteger>(_ idx: UnsafePointer<Index>, _ updates: RuntimeTensor,
                                                   _ output: RuntimeTensor, _ op: String) throws -> Int? {
        switch output.type {
        case .float32: return try scatter(idx, updates, output, Float.self, op, add: +)
        case .int32: return try scatter(idx, updates, output, Int32.self, op, add: &+)
        case .int64: return try scatter(idx, updates, output, Int64.self, op, add: &+)
        case .int8: return try scatter(idx, updates, output, Int8.self, op, add: &+)
        default: return try scatter(idx, updates, output, UInt8.self, op, add: &+)
        }
    }

    /// Scatters `updates` (or nothing, when it is empty: the output stands in as the unread source)
    /// into `output`, whose elements are `Element`s.
    private func scatter<Index: FixedWidthInteger, Element: Numeric>(
        _ idx: UnsafePointer<Index>, _ updates: RuntimeTensor, _ output: RuntimeTensor, _: Element.Type, _ op: String,
        add: (Element, Element) -> Element) throws -> Int? {
        let dst = try output.mutableView(as: Element.self, op).base
        let upd = updates.elementCount > 0 ? try updates.view(as: Element.self, op).base : UnsafePointer(dst)
        return ScatterNdReference.run(outputShape: output.shape, depth: depth, indexCount: indexCount, indices: idx,
                             updates: upd, output: dst, add: add)
    }
}
