import TFLiteKernels
import TFLiteSchema

/// RANGE: constant scalar start, limit and delta (int32, int64 or float32); the output
/// length depends on their values, so they must be constant.
final class RangeOperator: OperatorKernel {
    private var count = 0

    func prepare(_ node: NodeContext) throws {
        let op = "RANGE"
        let start = try node.input(0), limit = try node.input(1), delta = try node.input(2)
        let output = try node.output(0)
        for t in [start, limit, delta] {
            guard t.isConstant, t.type == start.type, t.elementCount == 1, t.data != nil else {
                throw InterpreterError.invalidModel("\(op): start, limit and delta must be constant scalars of one type")
            }
        }
        guard output.type == start.type else { throw InterpreterError.invalidModel("\(op): output type differs") }
        let (s, l, d) = (Self.value(start), Self.value(limit), Self.value(delta))
        guard start.type == .int32 || start.type == .int64 || start.type == .float32,
              let n = ArithmeticRange.count(start: s, limit: l, delta: d, integral: start.type != .float32) else {
            throw InterpreterError.invalidModel("\(op): invalid range \(s) to \(l) by \(d)")
        }
        count = n
        output.shape = [n]
    }

    private static func value(_ t: RuntimeTensor) -> Double {
        switch t.type {
        case .int32: return Double(t.pointer(as: Int32.self).pointee)
        case .int64: return Double(t.pointer(as: Int64.self).pointee)
        default: return Double(t.pointer(as: Float.self).pointee)
        }
    }

    func invoke(_ node: NodeContext) throws {
        let output = try node.output(0)
        guard count > 0 else { return }
        let start = try node.input(0), delta = try node.input(2)
        _ = try DataMovementSupport.data(output, "RANGE")
        switch output.type {
        case .int32:
            ArithmeticRange.run(start: start.pointer(as: Int32.self).pointee, delta: delta.pointer(as: Int32.self).pointee,
                                count: count, output: output.pointer(as: Int32.self))
        case .int64:
            ArithmeticRange.run(start: start.pointer(as: Int64.self).pointee, delta: delta.pointer(as: Int64.self).pointee,
                                count: count, output: output.pointer(as: Int64.self))
        default:
            ArithmeticRange.run(start: start.pointer(as: Float.self).pointee, delta: delta.pointer(as: Float.self).pointee,
                                count: count, output: output.pointer(as: Float.self))
        }
    }
}
