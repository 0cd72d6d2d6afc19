import TFLiteSchema
import TFLiteKernels

/// PRELU: `x ≥ 0 ? x : alpha · x` with alpha broadcast onto x (float32, uint8, int8).
final class PreluOperator: OperatorKernel {
    private let name = "PRELU"
    private var layout: BroadcastLayout?
    private var quantized: ActivationReference.QuantizedPreluParams?

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
        switch x.type {
        case .float32:
            let fx = try x.view(as: Float.self, name).base, fa = try alpha.view(as: Float.self, name).base
            let fo = try out.mutableView(as: Float.self, name).base
            ElementwiseParallel.rows(layout, node.threads) { r in
                ActivationReference.preluFloat32(layout: layout, rows: r, fx, fa, fo)
            }
        case .int8:
            guard let q = quantized else { throw InterpreterError.allocateTensorsRequired }
            ActivationReference.quantizedPrelu(q, layout: layout, try x.view(as: Int8.self, name).base,
                                             try alpha.view(as: Int8.self, name).base, try out.mutableView(as: Int8.self, name).base)
        default:
            guard let q = quantized else { throw InterpreterError.allocateTensorsRequired }
            ActivationReference.quantizedPrelu(q, layout: layout, try x.view(as: UInt8.self, name).base,
                                             try alpha.view(as: UInt8.self, name).base, try out.mutableView(as: UInt8.self, name).base)
        }
    }
}
