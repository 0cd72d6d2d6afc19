import TFLiteSchema

/// How one input of `TFLite_Detection_PostProcess` reaches the kernel as float32, decided at
/// prepare: a float32 tensor is read in place; a uint8 tensor is dequantized at every invoke
/// into arena scratch requested at prepare, with the arithmetic the reference uses for that
/// input.
enum DetectionFloatInput {
    /// The reference's dequantization arithmetic for one input.
    enum Arithmetic {
        /// `(Float(q) - Float(zeroPoint)) * scale` in float (box encodings, anchors).
        case float
        /// `Float(Double(scale) * Double(q - zeroPoint))` (class scores).
        case double
    }

    /// The tensor's own floats.
    case inPlace
    /// `count` floats dequantized from the tensor's uint8 values into `values`.
    case dequantized(values: ScratchArray<Float>, scale: Float, zeroPoint: Int32, Arithmetic)

    /// The plan for `tensor` (float32 or uint8, checked by the caller), whose first `count`
    /// values the kernel reads; requests the dequantized floats' scratch for a uint8 tensor.
    /// - Throws: ``InterpreterError/invalidModel(_:)`` when a uint8 tensor has no usable
    ///   quantization; ``InterpreterError/resourceLimitExceeded(_:)`` from the scratch request.
    static func prepare(_ tensor: RuntimeTensor, count: Int, _ arithmetic: Arithmetic, _ what: String,
                        node: NodeContext, op: String) throws -> Self {
        guard tensor.type == .uint8 else { return .inPlace }
        let q = try DetectionTensorAccess.quantization(tensor, what, op: op)
        let values = try node.requestScratch(Float.self, count: count, "the dequantized \(what) (\(count) values)")
        return .dequantized(values: values, scale: q.scale, zeroPoint: q.zeroPoint, arithmetic)
    }

    /// The first `count` values of `tensor` as floats, dequantized now when the plan says so
    /// (every value the caller reads is written on this invoke).
    /// - Throws: ``InterpreterError/invocationFailed(_:)`` when the tensor has no memory or
    ///   fewer than `count` values.
    func floats(_ tensor: RuntimeTensor, count: Int, op: String) throws -> UnsafeBufferPointer<Float> {
        switch self {
        case .inPlace:
            return UnsafeBufferPointer(try DetectionTensorAccess.buffer(tensor, as: Float.self, op: op))
        case let .dequantized(values, scale, zeroPoint, arithmetic):
            let raw = try DetectionTensorAccess.buffer(tensor, as: UInt8.self, op: op)
            guard raw.count >= count, values.count >= count else {
                throw InterpreterError.invocationFailed("\(op): tensor '\(tensor.name)' holds \(raw.count) values, not \(count)")
            }
            let out = values.pointer
            switch arithmetic {
            case .float:
                let zero = Float(zeroPoint)
                for i in 0..<count { out[i] = (Float(raw[i]) - zero) * scale }
            case .double:
                let wide = Double(scale)
                for i in 0..<count { out[i] = Float(wide * Double(Int32(raw[i]) - zeroPoint)) }
            }
            return UnsafeBufferPointer(start: out, count: count)
        }
    }
}
