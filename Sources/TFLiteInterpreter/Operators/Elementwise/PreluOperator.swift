import TFLiteSchema
import TFLiteKernels

/// PRELU: `x ≥ 0 ? x : alpha · x` with alpha broadcast onto x (float32, uint8, int8).
final class PreluOperator: OperatorKernel {
    /// PRELU of input 0 with alpha (input 1) into the output, with the broadcast layout and
    /// (8-bit) the quantization captured; float32 splits rows over the pool.
    typealias Kernel<Element> = (UnsafePointer<Element>, UnsafePointer<Element>, UnsafeMutablePointer<Element>, ThreadPool) -> Void

    /// How a node runs, decided at prepare from the element type.
    enum Plan {
        /// Not prepared (or the last prepare failed): invoke throws.
        case unprepared
        case float32(Kernel<Float>)
        case int8(Kernel<Int8>)
        case uint8(Kernel<UInt8>)
    }

    private let name = "PRELU"
    private var plan = Plan.unprepared

    func prepare(_ node: NodeContext) throws {
        plan = .unprepared
        let x = try node.input(0), alpha = try node.input(1), out = try node.output(0)
        try ElementwiseSupport.requireSameType([x, alpha], name)
        let layout = try ElementwiseSupport.broadcastLayout(x.shape, alpha.shape, name)
        guard layout.outputShape == x.shape else {
            throw InterpreterError.invalidShape("\(name): alpha \(alpha.shape) must broadcast onto input \(x.shape)")
        }
        let next: Plan
        switch x.type {
        case .float32:
            next = layout.repeatsBAlongRows
                ? .float32 { x, a, o, pool in
                    ElementwiseParallel.rows(layout, pool) { r in
                        ActivationOptimized.preluFloat32(rows: r, inner: layout.innerCount, x, a, o)
                    }
                }
                : .float32 { x, a, o, pool in
                    ElementwiseParallel.rows(layout, pool) { r in ActivationReference.preluFloat32(layout: layout, rows: r, x, a, o) }
                }
        case .int8, .uint8:
            let qi = try ElementwiseSupport.perTensor(x, name), qa = try ElementwiseSupport.perTensor(alpha, name)
            let qo = try ElementwiseSupport.perTensor(out, name)
            let q = ActivationReference.QuantizedPreluParams(inputScale: qi.scale, inputZeroPoint: qi.zeroPoint, alphaScale: qa.scale,
                                                           alphaZeroPoint: qa.zeroPoint, outputScale: qo.scale, outputZeroPoint: qo.zeroPoint)
            next = x.type == .int8
                ? .int8 { x, a, o, _ in ActivationReference.quantizedPrelu(q, layout: layout, x, a, o) }
                : .uint8 { x, a, o, _ in ActivationReference.quantizedPrelu(q, layout: layout, x, a, o) }
        default: throw ElementwiseSupport.unsupported(name, x.type)
        }
        out.type = x.type
        out.shape = x.shape
        plan = next
    }

    func invoke(_ node: NodeContext) throws {
        switch plan {
        case .unprepared: throw InterpreterError.allocateTensorsRequired
        case let .float32(kernel): try run(node, kernel)
        case let .int8(kernel): try run(node, kernel)
        case let .uint8(kernel): try run(node, kernel)
        }
    }

    /// Runs `kernel` from input 0 and alpha into output 0.
    private func run<Element>(_ node: NodeContext, _ kernel: Kernel<Element>) throws {
        kernel(try node.input(0).view(as: Element.self, name).base, try node.input(1).view(as: Element.self, name).base,
               try node.output(0).mutableView(as: Element.self, name).base, node.threads)
    }
}
