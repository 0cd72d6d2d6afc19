import TFLiteSchema
import TFLiteKernels

/// MEAN, SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD over a constant axis tensor, with
/// keep_dims and negative axes. Quantized MEAN / SUM requantize with the reference's
/// integer arithmetic; REDUCE_MAX / REDUCE_MIN work on raw values (equal quantization).
final class ReductionOperator: OperatorKernel {
    /// Which reduction.
    enum Kind { case mean, sum, maximum, minimum, product }

    /// A reduction of the input into the output, with its `ReductionPlan` and parameters captured.
    typealias Kernel<Element> = (UnsafePointer<Element>, UnsafeMutablePointer<Element>) -> Void

    /// How a node runs, decided at prepare from the kind and the element type; each case
    /// carries its kernel with the reduction plan, the requantization and the accumulators
    /// (arena scratch, zeroed by the kernel on every invoke) captured.
    enum Plan {
        /// Not prepared (or the last prepare failed): invoke throws.
        case unprepared
        /// An empty output: invoke does nothing.
        case empty
        case float32(Kernel<Float>)
        case int32(Kernel<Int32>)
        case int64(Kernel<Int64>)
        case int8(Kernel<Int8>)
        case uint8(Kernel<UInt8>)
        case int16(Kernel<Int16>)
    }

    private let kind: Kind
    private let name: String
    private var plan = Plan.unprepared

    init(_ kind: Kind, name: String) { self.kind = kind; self.name = name }

    private var operation: ReductionReference.Operation {
        switch kind {
        case .sum, .mean: return .sum
        case .maximum: return .maximum
        case .minimum: return .minimum
        case .product: return .product
        }
    }

    func prepare(_ node: NodeContext) throws {
        plan = .unprepared
        let x = try node.input(0), axisTensor = try node.input(1), out = try node.output(0)
        let axes = try ElementwiseSupport.constantIntegers(axisTensor, name)
        let keepDims = try node.options(ReducerOptions.self).keepDims
        _ = try ElementwiseSupport.checkedCount(x.shape, name)
        let reduction: ReductionPlan
        do { reduction = try ReductionPlan(inputShape: x.shape, axes: axes, keepDims: keepDims) } catch {
            throw InterpreterError.invalidModel("\(name): \(error)")
        }
        let op = operation, mean = kind == .mean
        let next: Plan
        switch x.type {
        case .float32:
            next = .float32(mean ? { ReductionReference.meanFloat32(plan: reduction, $0, $1) }
                                 : { ReductionReference.float32(op, plan: reduction, $0, $1) })
        case .int32:
            if mean {
                let wide = try node.requestScratch(Int64.self, count: reduction.outputCount, "the accumulators")
                next = .int32 { ReductionReference.meanInt32(plan: reduction, scratch: wide.pointer, $0, $1) }
            } else {
                next = .int32 { ReductionReference.int32(op, plan: reduction, $0, $1) }
            }
        case .int64:
            next = .int64(mean ? { ReductionReference.meanInt64(plan: reduction, $0, $1) }
                               : { ReductionReference.int64(op, plan: reduction, $0, $1) })
        case .int8:
            next = .int8(try quantizedKernel(node, x, out, reduction, mean: ReductionReference.meanInt8,
                                             sum: ReductionReference.sumInt8, raw: ReductionReference.int8))
        case .uint8:
            next = .uint8(try quantizedKernel(node, x, out, reduction, mean: ReductionReference.meanUInt8,
                                              sum: ReductionReference.sumUInt8, raw: ReductionReference.uint8))
        case .int16:
            next = .int16(try quantizedKernel(node, x, out, reduction, mean: ReductionReference.meanInt16,
                                              sum: ReductionReference.sumInt16, raw: ReductionReference.int16))
        default:
            throw ElementwiseSupport.unsupported(name, x.type)
        }
        out.type = x.type
        out.shape = reduction.outputShape
        plan = reduction.outputCount > 0 ? next : .empty
    }

    /// The kernel of a quantized reduction, with the reference `Prepare`'s checks: MEAN / SUM
    /// requantize (int16 zero points 0) into Int32 accumulators requested here; REDUCE_MAX /
    /// REDUCE_MIN need equal input and output quantization; REDUCE_PROD is unsupported.
    private func quantizedKernel<T>(
        _ node: NodeContext, _ x: RuntimeTensor, _ out: RuntimeTensor, _ reduction: ReductionPlan,
        mean: @escaping (ReductionReference.QuantizedMeanParams, ReductionPlan, UnsafeMutablePointer<Int32>, UnsafePointer<T>, UnsafeMutablePointer<T>) -> Void,
        sum: @escaping (ReductionReference.QuantizedMeanParams, ReductionPlan, UnsafeMutablePointer<Int32>, UnsafePointer<T>, UnsafeMutablePointer<T>) -> Void,
        raw: @escaping (ReductionReference.Operation, ReductionPlan, UnsafePointer<T>, UnsafeMutablePointer<T>) -> Void
    ) throws -> Kernel<T> {
        let qi = try ElementwiseSupport.perTensor(x, name), qo = try ElementwiseSupport.perTensor(out, name)
        let p = ReductionReference.QuantizedMeanParams(inputScale: qi.scale, inputZeroPoint: qi.zeroPoint,
                                                     outputScale: qo.scale, outputZeroPoint: qo.zeroPoint)
        switch kind {
        case .mean, .sum:
            if x.type == .int16 && (qi.zeroPoint != 0 || qo.zeroPoint != 0) {
                throw InterpreterError.invalidModel("\(name): int16 zero points must be 0")
            }
            let run = kind == .mean ? mean : sum
            let accumulators = try node.requestScratch(Int32.self, count: reduction.outputCount, "the accumulators")
            return { run(p, reduction, accumulators.pointer, $0, $1) }
        case .maximum, .minimum:
            guard p.sameQuantization else {
                throw InterpreterError.invalidModel("\(name): input and output quantization must match")
            }
            let op = operation
            return { raw(op, reduction, $0, $1) }
        case .product:
            throw ElementwiseSupport.unsupported(name, x.type)
        }
    }

    func invoke(_ node: NodeContext) throws {
        switch plan {
        case .unprepared: throw InterpreterError.allocateTensorsRequired
        case .empty: return
        case let .float32(kernel): try run(node, kernel)
        case let .int32(kernel): try run(node, kernel)
        case let .int64(kernel): try run(node, kernel)
        case let .int8(kernel): try run(node, kernel)
        case let .uint8(kernel): try run(node, kernel)
        case let .int16(kernel): try run(node, kernel)
        }
    }

    /// Runs `kernel` from input 0 into output 0.
    private func run<Element>(_ node: NodeContext, _ kernel: Kernel<Element>) throws {
        kernel(try node.input(0).view(as: Element.self, name).base, try node.output(0).mutableView(as: Element.self, name).base)
    }
}
