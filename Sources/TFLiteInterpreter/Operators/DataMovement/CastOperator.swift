import TFLiteKernels
import TFLiteSchema

/// CAST: converts between the numeric element types and bool (C++ `static_cast` semantics).
final class CastOperator: OperatorKernel {
    private var inputType = CastElementType.float32
    private var outputType = CastElementType.float32

    func prepare(_ node: NodeContext) throws {
        let input = try node.input(0)
        let output = try node.output(0)
        guard let i = Self.castType(input.type), let o = Self.castType(output.type) else {
            throw InterpreterError.invalidModel("CAST: unsupported conversion \(input.type) → \(output.type)")
        }
        inputType = i
        outputType = o
        output.shape = input.shape
    }

    static func castType(_ type: TensorType) -> CastElementType? {
        switch type {
        case .float32: return .float32
        case .float64: return .float64
        case .float16: return .float16
        case .uint8: return .uint8
        case .int8: return .int8
        case .int16: return .int16
        case .uint16: return .uint16
        case .int32: return .int32
        case .uint32: return .uint32
        case .int64: return .int64
        case .bool: return .bool
        default: return nil
        }
    }

    func invoke(_ node: NodeContext) throws {
        let input = try node.input(0), output = try node.output(0)
        let n = output.elementCount
        guard n > 0 else { return }
        CastReference.run(count: n, inputType: inputType, input: try DataMovementSupport.data(input, "CAST"),
                 outputType: outputType, output: try DataMovementSupport.data(output, "CAST"))
    }
}
