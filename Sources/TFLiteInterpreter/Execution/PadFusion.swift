/// What a prepared PAD or PADV2 writes around its input, as ``PadFusion`` needs it.
struct ConstantPad {
    /// Elements added before the input along each dimension.
    let before: [Int]
    /// Elements added after the input along each dimension.
    let after: [Int]
    /// The 8-bit code the padding holds (an int8 code as its signed value); nil when the tensors
    /// are not 8-bit or the value is not known at prepare.
    let code: Int32?
    /// Whether the tensors are float32 and the padding is +0.0 (PAD, or PADV2 with a constant
    /// +0.0), known at prepare.
    let padsFloatZeros: Bool
}

/// A prepared PAD or PADV2 kernel.
protocol ConstantPadKernel {
    /// The padding of the last successful prepare, nil before one.
    var constantPad: ConstantPad? { get }
}

/// A PAD that the convolution reading its output applies itself: the convolution reads the
/// PAD's `input` with `padding` around it instead of the padded tensor.
struct FoldedPad {
    /// The PAD's input.
    let input: RuntimeTensor
    /// The PAD's spatial padding.
    let padding: SpatialPadding
}

/// A convolution (CONV_2D, DEPTHWISE_CONV_2D) that can apply the padding of the PAD producing
/// its input 0.
protocol PadFoldable: AnyObject {
    /// Set by the executor before every prepare: the PAD to apply (the prepare then reads
    /// `input` with explicit padding, and so does every invoke until the next prepare), or nil
    /// to read input 0 with the operator's own padding.
    var padFold: FoldedPad? { get set }
}

/// Folds an explicit PAD into the convolution that reads it — the stride-2 convolutions of
/// YOLOv8 and MobileNetV2 exports are `PAD` then a VALID `CONV_2D`/`DEPTHWISE_CONV_2D` (7 in
/// yolov8n_int8_640) — so the padded tensor is never written: the convolution reads the PAD's
/// input with the PAD's spatial padding as explicit padding, its kernels treating taps outside
/// that input as padding taps, and the PAD leaves the run order.
///
/// 8-bit quantized PADs fold when their padding code is the convolution input's zero point: a
/// padding tap then adds `w · (zeroPoint − zeroPoint) = 0` to an exact integer sum, whether the
/// kernel skips it (reference) or reads a padding pixel (generated kernels), so the outputs are
/// bit-exact. Float PADs of +0.0 fold into float layers whose weights are all finite
/// (``PadFoldable/dropInexactFloatFold(_:)``, decided by the layer's prepare, where its weights
/// are readable): the unfused layer adds `x · w` with `x = +0` for a padding tap, a signed zero,
/// and a float sum that starts at +0 is never −0 (in round-to-nearest, `a + b` is −0 only when
/// both are), so adding a zero leaves every partial sum unchanged, whether the folded layer's
/// kernel skips the tap (reference, depthwise) or multiplies a zero (the float GEMM). A
/// non-finite weight would make `0 · w` a NaN, so its layer reads the padded tensor; so do hybrid
/// layers, which quantize their input from its range, which the padding zeros change.
///
/// The decision is made in `prepare()` just before the convolution's own prepare, which needs
/// it; the PAD stays in the order the later fusion passes see (its read of its input stands for
/// the convolution's), and leaves only the final run order.
enum PadFusion {
    /// The PAD to fold into the node at position `k`: the PAD at position `pad` producing `k`'s
    /// input 0, when `k` is ``PadFoldable``, the PAD runs at invoke with fixed shapes (it is in
    /// `producers`, by output tensor index), and ``foldablePadding(_:input:output:outputReaders:outputIsKept:)``
    /// allows it with `readers` (input slots reading each tensor, over all nodes) and `kept`
    /// (graph inputs, outputs and preserved tensors).
    static func fold(into k: Int, _ nodes: [SubgraphExecutor.Node], producers: TensorTable<Int?>, readers: TensorTable<Int>,
                     kept: Set<Int>) -> (pad: Int, fold: FoldedPad)? {
        let node = nodes[k]
        guard node.kernel.roles.padFoldable != nil, let x = node.context.inputs.first ?? nil,
              let p = producers[x.index], let constant = nodes[p].kernel.roles.constantPad?.constantPad,
              nodes[p].context.outputs.count == 1, nodes[p].context.outputs[0].index == x.index,
              let input = nodes[p].context.inputs.first ?? nil,
              let padding = foldablePadding(constant, input: input, output: x, outputReaders: readers[x.index],
                                            outputIsKept: kept.contains(x.index)) else { return nil }
        return (p, FoldedPad(input: input, padding: padding))
    }

    /// The padding a convolution reading `output` applies in place of the PAD `pad` from `input`
    /// to `output`, or nil when the PAD must run: `output` has one reader and is not kept; both
    /// tensors are of rank 4 and either int8 or uint8 with the same per-tensor scale and zero
    /// point and a padding code of that zero point, or float32 padded with +0.0 (the layer then
    /// checks its weights, ``PadFoldable/dropInexactFloatFold(_:)``); only height and width are
    /// padded, by non-negative amounts (``SpatialPadding/init(nhwcBefore:after:)``).
    static func foldablePadding(_ pad: ConstantPad, input: RuntimeTensor, output: RuntimeTensor, outputReaders: Int,
                                outputIsKept: Bool) -> SpatialPadding? {
        guard outputReaders == 1, !outputIsKept, input.type == output.type, input.shape.count == 4,
              output.shape.count == 4 else { return nil }
        if input.type == .float32 {
            guard pad.padsFloatZeros else { return nil }
            return SpatialPadding(nhwcBefore: pad.before, after: pad.after)
        }
        guard input.type == .int8 || input.type == .uint8, let q = input.quantization, let r = output.quantization,
              q.scales.count == 1, q.zeroPoints.count == 1, q.scales == r.scales, q.zeroPoints == r.zeroPoints,
              let code = pad.code, Int64(code) == q.zeroPoints[0] else { return nil }
        return SpatialPadding(nhwcBefore: pad.before, after: pad.after)
    }

    /// Whether a layer with `filter` applies a folded float PAD exactly: float32 weights, all
    /// finite (read once, O(count)). Nil or unreadable weights do not.
    static func appliesFloatPadding(filter: RuntimeTensor?) -> Bool {
        guard let filter, filter.type == .float32, let weights = try? filter.view(as: Float.self, "the filter") else { return false }
        return UnsafeBufferPointer(start: weights.base, count: filter.elementCount).allSatisfy(\.isFinite)
    }
}

extension PadFoldable {
    /// Drops `padFold` when it is a float PAD the layer cannot apply exactly (its weights are not
    /// float32, or one is not finite: see ``PadFusion``), so the layer reads the padded tensor.
    /// The layer's prepare calls it first, with its weights readable; the executor keeps the PAD
    /// in the run order when the fold is gone after the prepare.
    func dropInexactFloatFold(_ node: NodeContext) {
        guard let fold = padFold, fold.input.type == .float32 else { return }
        if !PadFusion.appliesFloatPadding(filter: node.inputs.count > 1 ? node.inputs[1] : nil) { padFold = nil }
    }
}
