import TFLiteSchema

/// Checked access to tensor memory for the detection operators.
enum DetectionTensorAccess {
    /// The tensor's elements as a typed buffer of `elementCount` values (through
    /// ``RuntimeTensor/mutableView(as:_:)``: `T` must store the tensor's type, checked under
    /// `LITEVISION_INTERNAL_CHECKS`; a different byte width throws in every build).
    static func buffer<T>(_ tensor: RuntimeTensor, as type: T.Type, op: String) throws -> UnsafeMutableBufferPointer<T> {
        guard tensor.data != nil else {
            throw InterpreterError.invocationFailed("\(op): tensor '\(tensor.name)' has no memory")
        }
        guard tensor.type.byteSize == MemoryLayout<T>.size else {
            throw InterpreterError.invocationFailed("\(op): tensor '\(tensor.name)' is \(tensor.type), not \(T.self)")
        }
        return UnsafeMutableBufferPointer(start: try tensor.mutableView(as: T.self, op).base, count: tensor.elementCount)
    }

    /// Requires `tensor` to have `rank` dimensions, all non-negative.
    static func requireRank(_ tensor: RuntimeTensor, _ rank: Int, _ what: String, op: String) throws {
        guard tensor.shape.count == rank, tensor.shape.allSatisfy({ $0 >= 0 }) else {
            throw InterpreterError.invalidShape("\(op): \(what) must have rank \(rank), got \(tensor.shape)")
        }
    }

    /// Requires one of `types`.
    static func requireType(_ tensor: RuntimeTensor, _ types: [TensorType], _ what: String, op: String) throws {
        guard types.contains(tensor.type) else {
            throw InterpreterError.invalidModel("\(op): \(what) must be \(types.map(\.description).joined(separator: " or ")), got \(tensor.type)")
        }
    }

    /// Per-tensor scale and zero point of a quantized tensor.
    static func quantization(_ tensor: RuntimeTensor, _ what: String, op: String) throws -> (scale: Float, zeroPoint: Int32) {
        guard let q = tensor.quantization, let scale = q.scales.first, let zero = q.zeroPoints.first,
              scale.isFinite, zero >= -(1 << 16), zero <= 1 << 16 else {
            throw InterpreterError.invalidModel("\(op): quantized \(what) has no usable scale and zero point")
        }
        return (scale, Int32(zero))
    }
}
