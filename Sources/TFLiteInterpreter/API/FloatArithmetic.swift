/// How float convolutions round their multiply-adds (``Interpreter/Options/floatArithmetic``).
///
/// The reference runtime's portable kernels round each product and each sum separately; the
/// CPU's fused multiply-add rounds once per step, so its results differ by about an ulp per
/// step (well inside float tolerances) and it does twice the work per instruction. Models that
/// quantize float activations (hybrid layers with int8 weights, QUANTIZE of a float tensor) can
/// turn such an ulp into a whole quantization step, so there only the reference's rounding keeps
/// results identical.
public enum FloatArithmetic: Hashable, Sendable, CaseIterable {
    /// Fused multiply-adds unless the model quantizes float activations (then
    /// ``referenceRounding``). The default.
    case automatic
    /// Each product and each sum rounded separately, in the reference kernels' order:
    /// results identical to the reference's portable kernels.
    case referenceRounding
    /// Fused multiply-adds in the generated float convolution kernels wherever the CPU has them.
    case fusedMultiplyAdd

    /// The policy's name as command lines and configuration spell it: `automatic`,
    /// `reference` (``referenceRounding``) or `fused` (``fusedMultiplyAdd``).
    public var name: String {
        switch self {
        case .automatic: "automatic"
        case .referenceRounding: "reference"
        case .fusedMultiplyAdd: "fused"
        }
    }

    /// The policy named `name` (see ``name``), or nil.
    public init?(name: String) {
        guard let policy = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = policy
    }

    /// Whether float convolutions of `model` use fused multiply-adds under this policy.
    func fusesMultiplyAdd(for model: Model) -> Bool {
        switch self {
        case .automatic: !model.quantizesFloatActivations
        case .referenceRounding: false
        case .fusedMultiplyAdd: true
        }
    }
}
