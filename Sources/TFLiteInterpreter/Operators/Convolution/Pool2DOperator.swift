import TFLiteKernels
import TFLiteSchema

/// AVERAGE_POOL_2D and MAX_POOL_2D: one NHWC input, `Pool2DOptions`
/// (padding, strides, filter size, fused activation). Quantized pools (uint8, int8, int16) keep
/// the input's scale and zero point, as the reference kernels do; int16 runs the reference kernel.
final class Pool2DOperator: OperatorKernel {
    /// Which reduction the window applies.
    enum Kind { case average, max }

    /// A `PoolingOptimized` row kernel on `Element`s with an activation range in `Bound`s:
    /// (geometry, activation min, activation max, input, output, output rows, the running
    /// thread's workspace).
    typealias RowKernel<Element, Bound> = (ConvolutionGeometry, Bound, Bound, UnsafePointer<Element>,
                                           UnsafeMutablePointer<Element>, Range<Int>, KernelWorkspace) -> Void

    /// How a node runs, decided at prepare from its kind and element type.
    enum Plan {
        /// Not prepared (or the last prepare failed): invoke throws.
        case unprepared
        /// float32 output rows split over the pool (each case of the three carries the kernel's
        /// per-thread workspace: `PoolingOptimized.maxWorkspaceBytes`, none for averages).
        case float(ConvolutionGeometry, FloatClamp, RowKernel<Float, Float>, ThreadWorkspaceSlot)
        /// uint8 output rows split over the pool, clamped to a code range.
        case uint8(ConvolutionGeometry, (min: Int32, max: Int32), RowKernel<UInt8, Int32>, ThreadWorkspaceSlot)
        /// int8 output rows split over the pool, clamped to a code range.
        case int8(ConvolutionGeometry, (min: Int32, max: Int32), RowKernel<Int8, Int32>, ThreadWorkspaceSlot)
        /// int16 through the reference kernels (one thread).
        case int16(ConvolutionGeometry, (min: Int32, max: Int32), average: Bool)
    }

    private let kind: Kind
    private var op: String { kind == .average ? "AVERAGE_POOL_2D" : "MAX_POOL_2D" }
    private var plan = Plan.unprepared

    /// Creates a pooling operator of `kind`.
    init(kind: Kind) { self.kind = kind }

    func prepare(_ node: NodeContext) throws {
        plan = .unprepared
        let input = try node.input(0), output = try node.output(0)
        try ConvSupport.requireRank(input, 4, "input", op: op)
        try ConvSupport.requireType(input, [.float32, .uint8, .int8, .int16], "input", op: op)
        let options = try node.options(Pool2DOptions.self)
        let padding = ConvSupport.padding(options.padding)
        let strideW = try ConvSupport.positive(options.strideW, "stride_w", op: op)
        let strideH = try ConvSupport.positive(options.strideH, "stride_h", op: op)
        let filterW = try ConvSupport.positive(options.filterWidth, "filter_width", op: op)
        let filterH = try ConvSupport.positive(options.filterHeight, "filter_height", op: op)
        let activation = ConvFusedActivation(options.fusedActivationFunction)

        let (n, h, w, c) = (input.shape[0], input.shape[1], input.shape[2], input.shape[3])
        let rows = ConvolutionAxis(inputSize: h, filterSize: filterH, stride: strideH, dilation: 1, padding: padding)
        let cols = ConvolutionAxis(inputSize: w, filterSize: filterW, stride: strideW, dilation: 1, padding: padding)
        guard rows.outputSize >= 0, cols.outputSize >= 0 else {
            throw InterpreterError.invalidShape("\(op): window \(filterH)x\(filterW) does not fit input \(h)x\(w)")
        }
        let geometry = ConvolutionGeometry(batches: n, inputHeight: h, inputWidth: w, inputDepth: c,
                                           filterHeight: filterH, filterWidth: filterW, filterInputDepth: 1,
                                           outputHeight: rows.outputSize, outputWidth: cols.outputSize, outputDepth: c,
                                           strideHeight: strideH, strideWidth: strideW,
                                           padTop: rows.padBefore, padLeft: cols.padBefore)
        _ = try ConvSupport.product([n, rows.outputSize, cols.outputSize, c], op: op)
        guard output.type == input.type else {
            throw InterpreterError.invalidModel("\(op): output type \(output.type) differs from input type \(input.type)")
        }
        let next: Plan
        let average = kind == .average
        /// The per-thread workspace of the row kernel on `Element`s (a row of column maxima for MAX_POOL_2D).
        func workspace<Element>(_ type: Element.Type) throws -> ThreadWorkspaceSlot {
            try node.requestWorkspace(bytesPerThread: average ? 0 : PoolingOptimized.maxWorkspaceBytes(geometry, of: Element.self),
                                      "a row of column maxima")
        }
        if input.type == .float32 {
            let kernel: RowKernel<Float, Float> = average
                ? { g, lo, hi, x, y, rows, _ in PoolingOptimized.averageFloat(g, activationMin: lo, activationMax: hi, input: x, output: y, rows: rows) }
                : { PoolingOptimized.maxFloat($0, activationMin: $1, activationMax: $2, input: $3, output: $4, rows: $5, workspace: $6) }
            next = .float(geometry, activation.floatRange, kernel, try workspace(Float.self))
        } else {
            let (scale, zero) = try ConvSupport.perTensor(output.quantization == nil ? input : output, "output", op: op)
            let (qmin, qmax) = ConvSupport.quantizedBounds(input.type)
            let range = activation.quantizedRange(scale: scale, zeroPoint: zero, qmin: qmin, qmax: qmax)
            if output.quantization == nil { output.quantization = input.quantization }
            switch input.type {
            case .uint8:
                let kernel: RowKernel<UInt8, Int32> = average
                    ? { g, lo, hi, x, y, rows, _ in PoolingOptimized.averageUInt8(g, activationMin: lo, activationMax: hi, input: x, output: y, rows: rows) }
                    : { PoolingOptimized.maxUInt8($0, activationMin: $1, activationMax: $2, input: $3, output: $4, rows: $5, workspace: $6) }
                next = .uint8(geometry, range, kernel, try workspace(UInt8.self))
            case .int8:
                let kernel: RowKernel<Int8, Int32> = average
                    ? { g, lo, hi, x, y, rows, _ in PoolingOptimized.averageInt8(g, activationMin: lo, activationMax: hi, input: x, output: y, rows: rows) }
                    : { PoolingOptimized.maxInt8($0, activationMin: $1, activationMax: $2, input: $3, output: $4, rows: $5, workspace: $6) }
                next = .int8(geometry, range, kernel, try workspace(Int8.self))
            default:
                // int16, the last type `requireType` lets through.
                next = .int16(geometry, range, average: average)
            }
        }
        output.shape = [n, rows.outputSize, cols.outputSize, c]
        plan = next
    }

    func invoke(_ node: NodeContext) throws {
        switch plan {
        case .unprepared:
            throw InterpreterError.allocateTensorsRequired
        case .float(let g, let clamp, let kernel, let workspace):
            try runRows(node, g, clamp.min, clamp.max, kernel, workspace)
        case .uint8(let g, let range, let kernel, let workspace):
            try runRows(node, g, range.min, range.max, kernel, workspace)
        case .int8(let g, let range, let kernel, let workspace):
            try runRows(node, g, range.min, range.max, kernel, workspace)
        case .int16(let g, let range, let average):
            guard g.outputCount > 0 else { return }
            let x = try node.input(0).view(as: Int16.self, op).base, y = try node.output(0).mutableView(as: Int16.self, op).base
            if average {
                PoolingReference.averageQuantized(g, activationMin: range.min, activationMax: range.max, input: x, output: y)
            } else {
                PoolingReference.maxQuantized(g, activationMin: range.min, activationMax: range.max, input: x, output: y)
            }
        }
    }

    /// Runs `kernel` over the output rows of `g`, split over the pool (`WorkSplitPolicy.poolingMinChunk`).
    private func runRows<Element, Bound>(_ node: NodeContext, _ g: ConvolutionGeometry, _ lo: Bound, _ hi: Bound,
                                         _ kernel: RowKernel<Element, Bound>, _ workspace: ThreadWorkspaceSlot) throws {
        guard g.outputCount > 0 else { return }
        let x = try node.input(0).view(as: Element.self, op).base, y = try node.output(0).mutableView(as: Element.self, op).base
        node.threads.parallelFor(PoolingOptimized.rowCount(g), minChunk: WorkSplitPolicy.poolingMinChunk(g)) { rows, worker in
            kernel(g, lo, hi, x, y, rows, workspace.workspace(worker))
        }
    }
}
