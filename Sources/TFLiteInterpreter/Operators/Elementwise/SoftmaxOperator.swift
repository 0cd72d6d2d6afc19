import TFLiteSchema
import TFLiteKernels

/// SOFTMAX (float32; uint8 / int8 in, same type or int16 out; int16 in and out with zero
/// points 0, the reference's table-based int16 kernel) and LOG_SOFTMAX (float32, int8) along
/// the last dimension.
final class SoftmaxOperator: OperatorKernel {
    private let isLog: Bool
    private let name: String
    private var depth = 0
    private var rows = 0
    private var beta: Float = 1
    private var quantized: SoftmaxReference.QuantizedParams?
    private var table: QuantizedSoftmaxTable?
    private var logParams: SoftmaxReference.QuantizedLogParams?
    private var int16Params: SoftmaxReference.Int16Params?

    init(log: Bool) { isLog = log; name = log ? "LOG_SOFTMAX" : "SOFTMAX" }

    func prepare(_ node: NodeContext) throws {
        let x = try node.input(0), out = try node.output(0)
        guard !x.shape.isEmpty else { throw InterpreterError.invalidShape("\(name): input must have at least one dimension") }
        let count = try ElementwiseSupport.checkedCount(x.shape, name)
        depth = x.shape[x.shape.count - 1]
        rows = depth == 0 ? 0 : count / depth
        beta = isLog ? 1 : try node.options(SoftmaxOptions.self).beta
        try ElementwiseSupport.checkFinite(beta, "beta", name)
        switch x.type {
        case .float32:
            quantized = nil
            out.type = .float32
        case .int8 where !isLog, .uint8 where !isLog:
            let qi = try ElementwiseSupport.perTensor(x, name)
            guard out.type == x.type || out.type == .int16 else { throw ElementwiseSupport.unsupported(name, out.type) }
            try ElementwiseSupport.checkMultiplier(Double(beta) * Double(qi.scale) * 0x1p26, "input multiplier (beta × input scale)", name)
            let p = SoftmaxReference.QuantizedParams(beta: beta, inputScale: qi.scale)
            quantized = p
            table = QuantizedSoftmaxTable(p)
        case .int16 where !isLog:
            let qi = try ElementwiseSupport.perTensor(x, name), qo = try ElementwiseSupport.perTensor(out, name)
            guard out.type == .int16 else { throw ElementwiseSupport.unsupported("\(name) (int16 input, \(out.type) output)", x.type) }
            guard qi.zeroPoint == 0, qo.zeroPoint == 0 else {
                throw InterpreterError.invalidModel("\(name): int16 input and output need zero point 0")
            }
            _ = try QuantizedMultiplier(checking: Double(qi.scale * beta) / (10.0 / 65535.0), "\(name) input multiplier (input scale × beta)")
            int16Params = SoftmaxReference.Int16Params(beta: beta, inputScale: qi.scale)
        case .int8 where isLog:
            let qi = try ElementwiseSupport.perTensor(x, name), qo = try ElementwiseSupport.perTensor(out, name)
            guard out.type == .int8, qo.scale == 16.0 / 256, qo.zeroPoint == 127 else {
                throw InterpreterError.invalidModel("\(name): int8 output must have scale 16/256 and zero point 127")
            }
            logParams = .init(inputScale: qi.scale)
        default:
            throw ElementwiseSupport.unsupported(name, x.type)
        }
        out.shape = x.shape
    }

    func invoke(_ node: NodeContext) throws {
        let x = try node.input(0), out = try node.output(0)
        let depth = self.depth, beta = self.beta
        let minRows = WorkSplitPolicy.minChunk(work: WorkSplitPolicy.elementwiseElements, workPerUnit: depth)
        if x.type == .float32 {
            let isLog = self.isLog
            let vx = try x.view(as: Float.self, name), vo = try out.mutableView(as: Float.self, name)
            node.threads.parallelFor(rows, minChunk: minRows) { r in
                if isLog {
                    SoftmaxReference.logSoftmaxFloat32(depth: depth, rows: r, vx.base, vo.base)
                } else {
                    SoftmaxReference.float32(beta: beta, depth: depth, rows: r, vx.base, vo.base)
                }
            }
            return
        }
        if isLog {
            guard let lp = logParams else { throw InterpreterError.allocateTensorsRequired }
            let vx = try x.view(as: Int8.self, name), vo = try out.mutableView(as: Int8.self, name)
            node.threads.parallelFor(rows, minChunk: minRows) { r in
                SoftmaxReference.logSoftmaxInt8(lp, depth: depth, rows: r, vx.base, vo.base)
            }
            return
        }
        if x.type == .int16 {
            guard let p = int16Params else { throw InterpreterError.allocateTensorsRequired }
            let vx = try x.view(as: Int16.self, name), vo = try out.mutableView(as: Int16.self, name)
            node.threads.parallelFor(rows, minChunk: minRows) { r in
                SoftmaxReference.int16(p, depth: depth, rows: r, vx.base, vo.base)
            }
            return
        }
        guard let t = table else { throw InterpreterError.allocateTensorsRequired }
        switch (x.type, out.type) {
        case (.int8, .int8):
            let vx = try x.view(as: Int8.self, name), vo = try out.mutableView(as: Int8.self, name)
            node.threads.parallelFor(rows, minChunk: minRows) { r in t.int8(depth: depth, rows: r, vx.base, vo.base) }
        case (.uint8, .uint8):
            let vx = try x.view(as: UInt8.self, name), vo = try out.mutableView(as: UInt8.self, name)
            node.threads.parallelFor(rows, minChunk: minRows) { r in t.uint8(depth: depth, rows: r, vx.base, vo.base) }
        case (.int8, _):
            let vx = try x.view(as: Int8.self, name), vo = try out.mutableView(as: Int16.self, name)
            node.threads.parallelFor(rows, minChunk: minRows) { r in t.int8ToInt16(depth: depth, rows: r, vx.base, vo.base) }
        default:
            let vx = try x.view(as: UInt8.self, name), vo = try out.mutableView(as: Int16.self, name)
            node.threads.parallelFor(rows, minChunk: minRows) { r in t.uint8ToInt16(depth: depth, rows: r, vx.base, vo.base) }
        }
    }
}
