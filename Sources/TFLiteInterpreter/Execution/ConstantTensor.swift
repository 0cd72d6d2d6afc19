import TFLiteSchema

/// The data and description of a tensor whose value is known at load time: a model buffer
/// (used in place when aligned, else an aligned copy) or the output of a folded operator.
struct ConstantTensor: @unchecked Sendable {
    /// Start of the bytes; owned by the model file or by the ``Model``'s storage. Read-only.
    let data: UnsafeMutableRawPointer
    /// Element type.
    let type: TensorType
    /// Shape.
    let shape: [Int]
    /// Quantization parameters.
    let quantization: Quantization?
    /// Bytes available at `data` (a sparse constant holds fewer than its dense shape needs).
    let byteCount: Int
    /// The model file and buffer when the file keeps the bytes until they are needed
    /// (`TFLiteModelFile.isDeferred`): `data` is where they go, zeros until read.
    var deferred: DeferredWeights? = nil
    /// The float16 weights whose float32 values these are, converted by the prepares of the
    /// layers that pack them (``DeferredDequantization``): `data` is their home, zeros until
    /// materialized.
    var dequantization: DeferredDequantization? = nil
}

/// Weights a model file keeps until a prepare reads them (`TFLiteModelFile.isDeferred`).
struct DeferredWeights: @unchecked Sendable {
    let file: TFLiteModelFile
    let buffer: Int
}
