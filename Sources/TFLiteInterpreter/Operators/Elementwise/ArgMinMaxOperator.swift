import TFLiteSchema
import TFLiteKernels

/// ARG_MAX / ARG_MIN along a constant axis; output int32 or int64 as the model declares.
final class ArgMinMaxOperator: OperatorKernel {
    private let isMax: Bool
    private let name: String
    private var outer = 0, axisSize = 0, inner = 0
    private var inputType: ArgMinMaxReference.InputType = .float32

    init(max: Bool) { isMax = max; name = max ? "ARG_MAX" : "ARG_MIN" }

    func prepare(_ node: NodeContext) throws {
        let x = try node.input(0), axisTensor = try node.input(1), out = try node.output(0)
        let axes = try ElementwiseSupport.constantIntegers(axisTensor, name)
        guard axes.count == 1, !x.shape.isEmpty else {
            throw InterpreterError.invalidModel("\(name): needs one axis and a non-scalar input")
        }
        let rank = x.shape.count
        let axis = axes[0] < 0 ? axes[0] + rank : axes[0]
        guard axis >= 0 && axis < rank else { throw InterpreterError.invalidModel("\(name): axis \(axes[0]) out of range") }
        _ = try ElementwiseSupport.checkedCount(x.shape, name)
        switch x.type {
        case .float32: inputType = .float32
        case .int32: inputType = .int32
        case .int64: inputType = .int64
        case .int8: inputType = .int8
        case .uint8: inputType = .uint8
        case .int16: inputType = .int16
        case .bool: inputType = .bool
        default: throw ElementwiseSupport.unsupported(name, x.type)
        }
        guard x.shape[axis] > 0 else { throw InterpreterError.invalidShape("\(name): empty reduction axis") }
        outer = x.shape[..<axis].reduce(1, *)
        axisSize = x.shape[axis]
        inner = x.shape[(axis + 1)...].reduce(1, *)
        if out.type != .int32 && out.type != .int64 { out.type = .int64 }
        var shape = x.shape
        shape.remove(at: axis)
        out.shape = shape
    }

    func invoke(_ node: NodeContext) throws {
        let x = try node.input(0), out = try node.output(0)
        let px = try ElementwiseSupport.data(x, name), po = try ElementwiseSupport.data(out, name)
        ArgMinMaxReference.argMinMax(isMax: isMax, type: inputType, outer: outer, axisSize: axisSize, inner: inner,
                                   UnsafeRawPointer(px), po, outputIsInt64: out.type == .int64)
    }
}
