import TFLiteSchema
import TFLiteKernels

/// SOFTMAX (float32; uint8 / int8 in, same type or int16 out; int16 in and out with zero
/// points 0, the reference's table-based int16 kernel) and LOG_SOFTMAX (float32, int8) along
/// the last dimension.
final class SoftmaxOperator: OperatorKernel {
    /// A row kernel: softmax of the given rows (each `depth` elements long, `depth` captured),
    /// with the running thread's workspace.
    typealias RowKernel<Input, Output> = (Range<Int>, UnsafePointer<Input>, UnsafeMutablePointer<Output>, KernelWorkspace) -> Void
    /// The rows to normalize: how many, the elements in each (the last dimension), and the row
    /// kernel's per-thread workspace (`QuantizedSoftmaxTable.workspaceBytes` for the same-type
    /// tables, none for the others).
    typealias Rows = (count: Int, depth: Int, workspace: ThreadWorkspaceSlot)

    /// How a node runs, decided at prepare from the operator and the input and output types;
    /// each case carries its row kernel with its parameters (beta, tables) captured.
    enum Plan {
        /// Not prepared (or the last prepare failed): invoke throws.
        case unprepared
        /// float32 SOFTMAX or LOG_SOFTMAX.
        case float32(Rows, RowKernel<Float, Float>)
        /// int8 in and out: SOFTMAX's table or LOG_SOFTMAX's reference kernel.
        case int8(Rows, RowKernel<Int8, Int8>)
        /// uint8 in and out through the table.
        case uint8(Rows, RowKernel<UInt8, UInt8>)
        /// int8 in, int16 out through the table.
        case int8ToInt16(Rows, RowKernel<Int8, Int16>)
        /// uint8 in, int16 out through the table.
        case uint8ToInt16(Rows, RowKernel<UInt8, Int16>)
        /// int16 in and out, the reference's table-based kernel.
        case int16(Rows, RowKernel<Int16, Int16>)
    }

    private let isLog: Bool
    private let name: String
    private var plan = Plan.unprepared

    init(log: Bool) { isLog = log; name = log ? "LOG_SOFTMAX" : "SOFTMAX" }

    func prepare(_ node: NodeContext) throws {
        plan = .unprepared
        let x = try node.input(0), out = try node.output(0)
        guard !x.shape.isEmpty else { throw InterpreterError.invalidShape("\(name): input must have at least one dimension") }
        let count = try ElementwiseSupport.checkedCount(x.shape, name)
        let depth = x.shape[x.shape.count - 1]
        let tablesSameType = !isLog && (x.type == .int8 || x.type == .uint8) && out.type == x.type
        let rows: Rows = (depth == 0 ? 0 : count / depth, depth, try node.requestWorkspace(
            bytesPerThread: tablesSameType ? QuantizedSoftmaxTable.workspaceBytes(depth: depth) : 0, "the rows' exponentials"))
        let beta: Float = isLog ? 1 : try node.options(SoftmaxOptions.self).beta
        try ElementwiseSupport.checkFinite(beta, "beta", name)
        let next: Plan
        switch x.type {
        case .float32:
            out.type = .float32
            next = .float32(rows, isLog
                ? { r, x, y, _ in SoftmaxReference.logSoftmaxFloat32(depth: depth, rows: r, x, y) }
                : { r, x, y, _ in SoftmaxOptimized.float32(beta: beta, depth: depth, rows: r, x, y) })
        case .int8 where !isLog, .uint8 where !isLog:
            let qi = try ElementwiseSupport.perTensor(x, name)
            guard out.type == x.type || out.type == .int16 else { throw ElementwiseSupport.unsupported(name, out.type) }
            try ElementwiseSupport.checkMultiplier(Double(beta) * Double(qi.scale) * 0x1p26, "input multiplier (beta × input scale)", name)
            let t = QuantizedSoftmaxTable(SoftmaxReference.QuantizedParams(beta: beta, inputScale: qi.scale))
            switch (x.type, out.type) {
            case (.int8, .int8): next = .int8(rows) { t.int8(depth: depth, rows: $0, $1, $2, workspace: $3) }
            case (.uint8, .uint8): next = .uint8(rows) { t.uint8(depth: depth, rows: $0, $1, $2, workspace: $3) }
            case (.int8, _): next = .int8ToInt16(rows) { r, x, y, _ in t.int8ToInt16(depth: depth, rows: r, x, y) }
            default: next = .uint8ToInt16(rows) { r, x, y, _ in t.uint8ToInt16(depth: depth, rows: r, x, y) }
            }
        case .int16 where !isLog:
            let qi = try ElementwiseSupport.perTensor(x, name), qo = try ElementwiseSupport.perTensor(out, name)
            guard out.type == .int16 else { throw ElementwiseSupport.unsupported("\(name) (int16 input, \(out.type) output)", x.type) }
            guard qi.zeroPoint == 0, qo.zeroPoint == 0 else {
                throw InterpreterError.invalidModel("\(name): int16 input and output need zero point 0")
            }
            _ = try QuantizedMultiplier(checking: Double(qi.scale * beta) / (10.0 / 65535.0), "\(name) input multiplier (input scale × beta)")
            let p = SoftmaxReference.Int16Params(beta: beta, inputScale: qi.scale)
            next = .int16(rows) { r, x, y, _ in SoftmaxReference.int16(p, depth: depth, rows: r, x, y) }
        case .int8 where isLog:
            let qi = try ElementwiseSupport.perTensor(x, name), qo = try ElementwiseSupport.perTensor(out, name)
            guard out.type == .int8, qo.scale == 16.0 / 256, qo.zeroPoint == 127 else {
                throw InterpreterError.invalidModel("\(name): int8 output must have scale 16/256 and zero point 127")
            }
            let p = SoftmaxReference.QuantizedLogParams(inputScale: qi.scale)
            next = .int8(rows) { r, x, y, _ in SoftmaxReference.logSoftmaxInt8(p, depth: depth, rows: r, x, y) }
        default:
            throw ElementwiseSupport.unsupported(name, x.type)
        }
        out.shape = x.shape
        plan = next
    }

    func invoke(_ node: NodeContext) throws {
        switch plan {
        case .unprepared: throw InterpreterError.allocateTensorsRequired
        case let .float32(rows, kernel): try runRows(node, rows, kernel)
        case let .int8(rows, kernel): try runRows(node, rows, kernel)
        case let .uint8(rows, kernel): try runRows(node, rows, kernel)
        case let .int8ToInt16(rows, kernel): try runRows(node, rows, kernel)
        case let .uint8ToInt16(rows, kernel): try runRows(node, rows, kernel)
        case let .int16(rows, kernel): try runRows(node, rows, kernel)
        }
    }

    /// Runs `kernel` over `rows`, split over the pool (`WorkSplitPolicy.elementwiseElements` per chunk).
    private func runRows<Input, Output>(_ node: NodeContext, _ rows: Rows, _ kernel: RowKernel<Input, Output>) throws {
        let x = try node.input(0).view(as: Input.self, name).base, y = try node.output(0).mutableView(as: Output.self, name).base
        let minRows = WorkSplitPolicy.minChunk(work: WorkSplitPolicy.elementwiseElements, workPerUnit: rows.depth)
        node.threads.parallelFor(rows.count, minChunk: minRows) { r, worker in kernel(r, x, y, rows.workspace.workspace(worker)) }
    }
}
