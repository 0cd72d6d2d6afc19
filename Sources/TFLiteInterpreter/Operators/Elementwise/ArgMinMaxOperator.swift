import TFLiteSchema
import TFLiteKernels

/// ARG_MAX / ARG_MIN along a constant axis; output int32 or int64 as the model declares.
final class ArgMinMaxOperator: OperatorKernel {
    /// How a node runs, decided at prepare from the input type, the axis and the output type.
    enum Plan {
        /// Not prepared (or the last prepare failed): invoke throws.
        case unprepared
        /// The reference kernel over `outer × axisSize × inner` elements of `type`.
        case search(type: ArgMinMaxReference.InputType, outer: Int, axisSize: Int, inner: Int, outputIsInt64: Bool)
    }

    private let isMax: Bool
    private let name: String
    private var plan = Plan.unprepared

    init(max: Bool) { isMax = max; name = max ? "ARG_MAX" : "ARG_MIN" }

    func prepare(_ node: NodeContext) throws {
        plan = .unprepared
        let x = try node.input(0), axisTensor = try node.input(1), out = try node.output(0)
        let axes = try ElementwiseSupport.constantIntegers(axisTensor, name)
        guard axes.count == 1, !x.shape.isEmpty else {
            throw InterpreterError.invalidModel("\(name): needs one axis and a non-scalar input")
        }
        let rank = x.shape.count
        let axis = axes[0] < 0 ? axes[0] + rank : axes[0]
        guard axis >= 0 && axis < rank else { throw InterpreterError.invalidModel("\(name): axis \(axes[0]) out of range") }
        _ = try ElementwiseSupport.checkedCount(x.shape, name)
        let inputType: ArgMinMaxReference.InputType
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
        if out.type != .int32 && out.type != .int64 { out.type = .int64 }
        var shape = x.shape
        shape.remove(at: axis)
        out.shape = shape
        plan = .search(type: inputType, outer: x.shape[..<axis].reduce(1, *), axisSize: x.shape[axis],
                       inner: x.shape[(axis + 1)...].reduce(1, *), outputIsInt64: out.type == .int64)
    }

    func invoke(_ node: NodeContext) throws {
        switch plan {
        case .unprepared:
            throw InterpreterError.allocateTensorsRequired
        case let .search(type, outer, axisSize, inner, outputIsInt64):
            let px = try ElementwiseSupport.data(node.input(0), name), po = try ElementwiseSupport.data(node.output(0), name)
            ArgMinMaxReference.argMinMax(isMax: isMax, type: type, outer: outer, axisSize: axisSize, inner: inner,
                                         UnsafeRawPointer(px), po, outputIsInt64: outputIsInt64)
        }
    }
}
