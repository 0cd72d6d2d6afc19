import TFLiteSchema
import TFLiteKernels

/// Shared checks and conversions for the elementwise operator family.
enum ElementwiseSupport {
    /// The tensor's data pointer, or an error naming the operator when it is unallocated.
    static func data(_ t: RuntimeTensor, _ op: String) throws -> UnsafeMutableRawPointer {
        guard let d = t.data else {
            throw InterpreterError.invocationFailed("\(op): tensor \(t.index) ('\(t.name)') has no data")
        }
        return d
    }

    /// Typed data pointer (through ``RuntimeTensor/mutableView(as:_:)``: `T` must store the
    /// tensor's type, checked under `LITEVISION_INTERNAL_CHECKS`).
    static func pointer<T>(_ t: RuntimeTensor, _ op: String, as: T.Type) throws -> UnsafeMutablePointer<T> {
        _ = try data(t, op)
        return try t.mutableView(as: T.self, op).base
    }

    /// Checks that a requantization multiplier the kernel will derive from the model's scales
    /// and options is a finite number (the reference's `QuantizeMultiplier` contract).
    static func checkMultiplier(_ real: Double, _ what: String, _ op: String) throws {
        do { _ = try QuantizedMultiplier(checking: real, "\(op): \(what)") } catch let error as QuantizationParameterError {
            throw InterpreterError.invalidModel(error.description)
        }
    }

    /// Checks that a float option (SOFTMAX beta, LEAKY_RELU alpha) is a finite number.
    static func checkFinite(_ value: Float, _ option: String, _ op: String) throws {
        guard value.isFinite else {
            throw InterpreterError.invalidModel("\(op): option \(option) is \(value), it must be a finite number")
        }
    }

    /// Per-tensor scale and zero point, or an error when the tensor is not quantized per tensor.
    static func perTensor(_ t: RuntimeTensor, _ op: String) throws -> (scale: Float, zeroPoint: Int32) {
        guard let q = t.quantization, q.scales.count >= 1, q.zeroPoints.count >= 1 else {
            throw InterpreterError.invalidModel("\(op): quantized tensor '\(t.name)' has no quantization parameters")
        }
        guard q.scales.allSatisfy({ $0 == q.scales[0] }) else {
            throw InterpreterError.invalidModel("\(op): tensor '\(t.name)' must be quantized per tensor")
        }
        let scale = q.scales[0]
        guard scale > 0, scale.isFinite else {
            throw InterpreterError.invalidModel("\(op): tensor '\(t.name)' has invalid scale \(scale)")
        }
        guard let zp = Int32(exactly: q.zeroPoints[0]) else {
            throw InterpreterError.invalidModel("\(op): tensor '\(t.name)' has invalid zero point")
        }
        return (scale, zp)
    }

    /// The representable range of an integer tensor type.
    static func bounds(_ type: TensorType) -> (min: Int32, max: Int32) {
        switch type {
        case .int8: return (-128, 127)
        case .uint8: return (0, 255)
        case .int16: return (-32768, 32767)
        default: return (Int32.min, Int32.max)
        }
    }

    /// `x` converted to Int32, saturating (NaN → 0).
    static func saturatingInt32(_ x: Float) -> Int32 {
        if x.isNaN { return 0 }
        if x >= 2147483648 { return Int32.max }
        if x <= -2147483648 { return Int32.min }
        return Int32(x)
    }

    /// Throws unless every given tensor has `type`.
    static func requireSameType(_ tensors: [RuntimeTensor], _ op: String) throws {
        guard let first = tensors.first else { return }
        for t in tensors.dropFirst() where t.type != first.type {
            throw InterpreterError.invalidModel("\(op): input types differ (\(first.type) and \(t.type))")
        }
    }

    /// An operator or type combination this engine does not implement.
    static func unsupported(_ op: String, _ type: TensorType) -> InterpreterError {
        .unsupportedOperator(name: "\(op) on \(type) tensors")
    }

    /// Rejects negative or overflowing shapes.
    static func checkedCount(_ shape: [Int], _ op: String) throws -> Int {
        var n = 1
        for d in shape {
            guard d >= 0 else { throw InterpreterError.invalidShape("\(op): negative dimension in \(shape)") }
            let (p, o) = n.multipliedReportingOverflow(by: d)
            guard !o else { throw InterpreterError.invalidShape("\(op): shape \(shape) overflows") }
            n = p
        }
        return n
    }

    /// Maps a kernel planning error to an interpreter error.
    static func broadcastLayout(_ a: [Int], _ b: [Int], _ op: String) throws -> BroadcastLayout {
        _ = try checkedCount(a, op); _ = try checkedCount(b, op)
        do { return try BroadcastLayout(a, b) } catch let e as BroadcastError {
            throw InterpreterError.invalidShape("\(op): \(e)")
        }
    }

    /// The int32 values of a constant integer tensor (int32 or int64), read at prepare time.
    static func constantIntegers(_ t: RuntimeTensor, _ op: String) throws -> [Int] {
        guard t.data != nil else {
            throw InterpreterError.unsupportedOperator(name: "\(op) with a non-constant '\(t.name)' input")
        }
        let n = try checkedCount(t.shape, op)
        _ = try data(t, op)
        switch t.type {
        case .int32: let v = try t.view(as: Int32.self, op); return (0..<n).map { Int(v[$0]) }
        case .int64: let v = try t.view(as: Int64.self, op); return (0..<n).map { Int(v[$0]) }
        default: throw InterpreterError.invalidModel("\(op): '\(t.name)' must be int32 or int64, got \(t.type)")
        }
    }
}

/// A fused activation (`ActivationFunctionType` in the schema).
enum ElementwiseActivation: Int8 {
    case none = 0, relu = 1, reluN1To1 = 2, relu6 = 3, tanh = 4, signBit = 5

    /// The schema's activation; TANH and SIGN_BIT are not supported as fused activations.
    init(_ activation: ActivationFunctionType, _ op: String) throws {
        guard let a = ElementwiseActivation(rawValue: activation.rawValue), a != .tanh, a != .signBit else {
            throw InterpreterError.unsupportedOperator(name: "\(op) with fused activation code \(activation.rawValue)")
        }
        self = a
    }

    /// Float clamp bounds.
    var floatRange: (Float, Float) {
        switch self {
        case .relu: return (0, .infinity)
        case .reluN1To1: return (-1, 1)
        case .relu6: return (0, 6)
        default: return (-.infinity, .infinity)
        }
    }

    /// Integer clamp bounds for non-quantized integer outputs.
    func integerRange<T: FixedWidthInteger>(_: T.Type) -> (T, T) {
        switch self {
        case .relu: return (0, T.max)
        case .reluN1To1: return (-1, 1)
        case .relu6: return (0, 6)
        default: return (T.min, T.max)
        }
    }

    /// Quantized clamp bounds as the reference's `CalculateActivationRangeQuantized`.
    func quantizedRange(scale: Float, zeroPoint: Int32, type: TensorType) -> (Int32, Int32) {
        let (qmin, qmax) = ElementwiseSupport.bounds(type)
        func quantize(_ f: Float) -> Int32 {
            zeroPoint &+ ElementwiseSupport.saturatingInt32((f / scale).rounded(.toNearestOrAwayFromZero))
        }
        switch self {
        case .relu: return (max(qmin, quantize(0)), qmax)
        case .relu6: return (max(qmin, quantize(0)), min(qmax, quantize(6)))
        case .reluN1To1: return (max(qmin, quantize(-1)), min(qmax, quantize(1)))
        default: return (qmin, qmax)
        }
    }
}
