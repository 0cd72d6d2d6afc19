import TFLiteSchema
import TFLiteKernels

/// PRELU: `x ≥ 0 ? x : alpha · x` with alpha broadcast onto x (float32, uint8, int8).
final class PreluOperator: OperatorKernel {
    private let name = "PRELU"
    private var layout: BroadcastLayout?
    private var quantized: ActivationKernels.QuantizedPreluParams?

    func prepare(_ node: NodeContext) throws {
        let x = try node.input(0), alpha = try node.input(1), out = try node.output(0)
        try ElementwiseSupport.requireSameType([x, alpha], name)
        let layout = try ElementwiseSupport.broadcastLayout(x.shape, alpha.shape, name)
        guard layout.outputShape == x.shape else {
            throw InterpreterError.invalidShape("\(name): alpha \(alpha.shape) must broadcast onto input \(x.shape)")
        }
        switch x.type {
        case .float32: quantized = nil
        case .int8, .uint8:
            let qi = try ElementwiseSupport.perTensor(x, name), qa = try ElementwiseSupport.perTensor(alpha, name)
            let qo = try ElementwiseSupport.perTensor(out, name)
            quantized = .init(inputScale: qi.scale, inputZeroPoint: qi.zeroPoint, alphaScale: qa.scale,
                              alphaZeroPoint: qa.zeroPoint, outputScale: qo.scale, outputZeroPoint: qo.zeroPoint)
        default: throw ElementwiseSupport.unsupported(name, x.type)
        }
        self.layout = layout
        out.type = x.type
        out.shape = x.shape
    }

    func invoke(_ node: NodeContext) throws {
        guard let layout else { throw InterpreterError.allocateTensorsRequired }
        let x = try node.input(0), alpha = try node.input(1), out = try node.output(0)
        let px = try ElementwiseSupport.data(x, name), pa = try ElementwiseSupport.data(alpha, name)
        let po = try ElementwiseSupport.data(out, name)
        switch x.type {
        case .float32:
            let fx = px.assumingMemoryBound(to: Float.self), fa = pa.assumingMemoryBound(to: Float.self)
            let fo = po.assumingMemoryBound(to: Float.self)
            ElementwiseParallel.rows(layout, node.threads) { r in
                ActivationKernels.preluFloat32(layout: layout, rows: r, fx, fa, fo)
            }
        case .int8:
            guard let q = quantized else { throw InterpreterError.allocateTensorsRequired }
            ActivationKernels.quantizedPrelu(q, layout: layout, px.assumingMemoryBound(to: Int8.self),
                                             pa.assumingMemoryBound(to: Int8.self), po.assumingMemoryBound(to: Int8.self))
        default:
            guard let q = quantized else { throw InterpreterError.allocateTensorsRequired }
            ActivationKernels.quantizedPrelu(q, layout: layout, px.assumingMemoryBound(to: UInt8.self),
                                             pa.assumingMemoryBound(to: UInt8.self), po.assumingMemoryBound(to: UInt8.self))
        }
    }
}
