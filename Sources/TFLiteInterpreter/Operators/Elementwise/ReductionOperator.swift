import TFLiteSchema
import TFLiteKernels

/// MEAN, SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD over a constant axis tensor, with
/// keep_dims and negative axes. Quantized MEAN / SUM requantize with the reference's
/// integer arithmetic; REDUCE_MAX / REDUCE_MIN work on raw values (equal quantization).
final class ReductionOperator: OperatorKernel {
    /// Which reduction.
    enum Kind { case mean, sum, maximum, minimum, product }
    private let kind: Kind
    private let name: String
    private var plan: ReductionPlan?
    /// Quantized MEAN / SUM: the requantization and one Int32 accumulator per output element
    /// (arena scratch; the kernel zeroes it on every invoke).
    private var quantized: (parameters: ReductionReference.QuantizedMeanParams, accumulators: ScratchArray<Int32>)?
    /// int32 MEAN: one Int64 accumulator per output element (arena scratch, zeroed by the kernel).
    private var wideAccumulators: ScratchArray<Int64>?

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
        let x = try node.input(0), axisTensor = try node.input(1), out = try node.output(0)
        let axes = try ElementwiseSupport.constantIntegers(axisTensor, name)
        let keepDims = try node.options(ReducerOptions.self).keepDims
        _ = try ElementwiseSupport.checkedCount(x.shape, name)
        let plan: ReductionPlan
        do { plan = try ReductionPlan(inputShape: x.shape, axes: axes, keepDims: keepDims) } catch {
            throw InterpreterError.invalidModel("\(name): \(error)")
        }
        self.plan = nil
        quantized = nil
        wideAccumulators = nil
        var quantizedParameters: ReductionReference.QuantizedMeanParams?
        switch x.type {
        case .float32, .int32, .int64: break
        case .int8, .uint8, .int16:
            let qi = try ElementwiseSupport.perTensor(x, name), qo = try ElementwiseSupport.perTensor(out, name)
            let p = ReductionReference.QuantizedMeanParams(inputScale: qi.scale, inputZeroPoint: qi.zeroPoint,
                                                         outputScale: qo.scale, outputZeroPoint: qo.zeroPoint)
            switch kind {
            case .mean:
                if x.type == .int16 && (qi.zeroPoint != 0 || qo.zeroPoint != 0) {
                    throw InterpreterError.invalidModel("\(name): int16 zero points must be 0")
                }
                quantizedParameters = p
            case .sum:
                if x.type == .int16 && (qi.zeroPoint != 0 || qo.zeroPoint != 0) {
                    throw InterpreterError.invalidModel("\(name): int16 zero points must be 0")
                }
                quantizedParameters = p
            case .maximum, .minimum:
                guard p.sameQuantization else {
                    throw InterpreterError.invalidModel("\(name): input and output quantization must match")
                }
            case .product:
                throw ElementwiseSupport.unsupported(name, x.type)
            }
        default:
            throw ElementwiseSupport.unsupported(name, x.type)
        }
        if kind == .product && x.type != .float32 && x.type != .int32 && x.type != .int64 {
            throw ElementwiseSupport.unsupported(name, x.type)
        }
        if let p = quantizedParameters {
            quantized = (p, try node.requestScratch(Int32.self, count: plan.outputCount, "the accumulators"))
        }
        if x.type == .int32 && kind == .mean {
            wideAccumulators = try node.requestScratch(Int64.self, count: plan.outputCount, "the accumulators")
        }
        self.plan = plan
        out.type = x.type
        out.shape = plan.outputShape
    }

    func invoke(_ node: NodeContext) throws {
        guard let plan else { throw InterpreterError.allocateTensorsRequired }
        guard plan.outputCount > 0 else { return }
        let x = try node.input(0), out = try node.output(0)
        let op = operation
        switch x.type {
        case .float32:
            let xi = try x.view(as: Float.self, name).base, o = try out.mutableView(as: Float.self, name).base
            if kind == .mean { ReductionReference.meanFloat32(plan: plan, xi, o) } else { ReductionReference.float32(op, plan: plan, xi, o) }
        case .int32:
            let xi = try x.view(as: Int32.self, name).base, o = try out.mutableView(as: Int32.self, name).base
            if kind == .mean {
                guard let wide = wideAccumulators else { throw InterpreterError.allocateTensorsRequired }
                ReductionReference.meanInt32(plan: plan, scratch: wide.pointer, xi, o)
            } else { ReductionReference.int32(op, plan: plan, xi, o) }
        case .int64:
            let xi = try x.view(as: Int64.self, name).base, o = try out.mutableView(as: Int64.self, name).base
            if kind == .mean { ReductionReference.meanInt64(plan: plan, xi, o) } else { ReductionReference.int64(op, plan: plan, xi, o) }
        case .int8:
            let xi = try x.view(as: Int8.self, name).base, o = try out.mutableView(as: Int8.self, name).base
            try quantizedRun(plan, xi, o, mean: ReductionReference.meanInt8, sum: ReductionReference.sumInt8, raw: ReductionReference.int8)
        case .uint8:
            let xi = try x.view(as: UInt8.self, name).base, o = try out.mutableView(as: UInt8.self, name).base
            try quantizedRun(plan, xi, o, mean: ReductionReference.meanUInt8, sum: ReductionReference.sumUInt8, raw: ReductionReference.uint8)
        default:
            let xi = try x.view(as: Int16.self, name).base, o = try out.mutableView(as: Int16.self, name).base
            try quantizedRun(plan, xi, o, mean: ReductionReference.meanInt16, sum: ReductionReference.sumInt16, raw: ReductionReference.int16)
        }
    }

    private func quantizedRun<T>(
        _ plan: ReductionPlan, _ x: UnsafePointer<T>, _ out: UnsafeMutablePointer<T>,
        mean: (ReductionReference.QuantizedMeanParams, ReductionPlan, UnsafeMutablePointer<Int32>, UnsafePointer<T>, UnsafeMutablePointer<T>) -> Void,
        sum: (ReductionReference.QuantizedMeanParams, ReductionPlan, UnsafeMutablePointer<Int32>, UnsafePointer<T>, UnsafeMutablePointer<T>) -> Void,
        raw: (ReductionReference.Operation, ReductionPlan, UnsafePointer<T>, UnsafeMutablePointer<T>) -> Void
    ) throws {
        switch kind {
        case .mean:
            guard let q = quantized else { throw InterpreterError.allocateTensorsRequired }
            mean(q.parameters, plan, q.accumulators.pointer, x, out)
        case .sum:
            guard let q = quantized else { throw InterpreterError.allocateTensorsRequired }
            sum(q.parameters, plan, q.accumulators.pointer, x, out)
        default:
            raw(operation, plan, x, out)
        }
    }
}
