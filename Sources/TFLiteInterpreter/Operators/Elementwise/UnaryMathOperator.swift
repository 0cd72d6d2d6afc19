import TFLiteSchema
import TFLiteKernels

/// ABS, NEG, EXP, LOG, SQRT, RSQRT, SQUARE, FLOOR, CEIL, ROUND, SIN, COS, SIGN: one input,
/// same shape out. Float32 for all; int32 / int64 for ABS, NEG, SQUARE, SIGN; int8 for EXP
/// and ABS through 256-entry tables of the reference's quantized results; int8 RSQRT the same
/// way, rejecting at invoke (as the reference does) a code below the input zero point; int16
/// RSQRT (zero points 0) through the reference's 513-entry interpolated table of 1/sqrt(x)
/// (x ≤ 0 maps to the largest output), rejecting a negative code at invoke.
final class UnaryMathOperator: OperatorKernel {
    private let operation: ElementwiseUnaryReference.Operation
    private let name: String
    private var count = 0
    private var table: ActivationReference.LookupTable8?
    /// int8 RSQRT: the smallest valid input code (the input zero point); nil for other operators.
    private var minimumCode: Int8?
    /// int16 RSQRT's table.
    private var int16Table: Int16InterpolatedTable?

    init(_ operation: ElementwiseUnaryReference.Operation, name: String) {
        self.operation = operation; self.name = name
    }

    func prepare(_ node: NodeContext) throws {
        let x = try node.input(0), out = try node.output(0)
        table = nil
        minimumCode = nil
        int16Table = nil
        switch x.type {
        case .float32: break
        case .int8 where operation == .exp || operation == .abs:
            let qi = try ElementwiseSupport.perTensor(x, name), qo = try ElementwiseSupport.perTensor(out, name)
            let signed = x.type == .int8
            table = operation == .exp
                ? .exp(signed: signed, inputScale: qi.scale, inputZeroPoint: qi.zeroPoint, outputScale: qo.scale, outputZeroPoint: qo.zeroPoint)
                : .abs(signed: signed, inputScale: qi.scale, inputZeroPoint: qi.zeroPoint, outputScale: qo.scale, outputZeroPoint: qo.zeroPoint)
        case .int8 where operation == .rsqrt:
            let qi = try ElementwiseSupport.perTensor(x, name), qo = try ElementwiseSupport.perTensor(out, name)
            try ElementwiseSupport.checkMultiplier(1 / Double(qi.scale.squareRoot() * qo.scale),
                                                   "output multiplier (1 / (sqrt(input scale) × output scale))", name)
            guard (-128...127).contains(qi.zeroPoint), (-128...127).contains(qo.zeroPoint) else {
                throw InterpreterError.invalidModel("\(name): int8 zero points must lie in -128...127")
            }
            let multiplier = ElementwiseUnaryReference.quantizedRsqrtMultiplier(inputScale: qi.scale, outputScale: qo.scale)
            table = ActivationReference.LookupTable8(signed: true) { q in
                // Codes below the zero point never reach the table (invoke rejects them).
                q < qi.zeroPoint ? 0 : ElementwiseUnaryReference.quantizedRsqrtElement(
                    q, inputZeroPoint: qi.zeroPoint, outputZeroPoint: qo.zeroPoint, multiplier)
            }
            minimumCode = Int8(qi.zeroPoint)
        case .int16 where operation == .rsqrt:
            let qi = try ElementwiseSupport.perTensor(x, name), qo = try ElementwiseSupport.perTensor(out, name)
            guard out.type == .int16, qi.zeroPoint == 0, qo.zeroPoint == 0 else {
                throw InterpreterError.invalidModel("\(name): int16 input and output need zero point 0")
            }
            let outputScale = qo.scale
            int16Table = Int16InterpolatedTable(inputScale: qi.scale, inputZeroPoint: 0, outputScale: outputScale,
                                                outputZeroPoint: 0) { (v: Float) -> Float in
                v <= 0 ? 32767 * outputScale : 1 / v.squareRoot()
            }
        case .int32 where ElementwiseUnaryReference.supportsIntegers(operation): break
        case .int64 where ElementwiseUnaryReference.supportsIntegers(operation): break
        default: throw ElementwiseSupport.unsupported(name, x.type)
        }
        count = try ElementwiseSupport.checkedCount(x.shape, name)
        out.type = x.type
        out.shape = x.shape
    }

    func invoke(_ node: NodeContext) throws {
        let x = try node.input(0), out = try node.output(0)
        let op = operation, n = count
        switch x.type {
        case .float32:
            let vx = try x.view(as: Float.self, name), vo = try out.mutableView(as: Float.self, name)
            ElementwiseParallel.flat(n, node.threads) { r in ElementwiseUnaryReference.float32(op, range: r, vx.base, vo.base) }
        case .int8:
            guard let t = table else { throw InterpreterError.allocateTensorsRequired }
            if let minimumCode, UnsafeBufferPointer(start: try x.view(as: Int8.self, name).base, count: n)
                .contains(where: { $0 < minimumCode }) {
                throw InterpreterError.invocationFailed("\(name): an input is negative; RSQRT is defined for values ≥ 0 only")
            }
            let vx = try x.byteView(name), vo = try out.mutableByteView(name)
            ElementwiseParallel.flat(n, node.threads) { r in t.apply(range: r, vx.base, vo.base) }
        case .int16:
            guard let t = int16Table else { throw InterpreterError.allocateTensorsRequired }
            let vx = try x.view(as: Int16.self, name), vo = try out.mutableView(as: Int16.self, name)
            if UnsafeBufferPointer(start: vx.base, count: n).contains(where: { $0 < 0 }) {
                throw InterpreterError.invocationFailed("\(name): an input is negative; RSQRT is defined for values ≥ 0 only")
            }
            ElementwiseParallel.flat(n, node.threads) { r in t.apply(range: r, vx.base, vo.base) }
        case .int32:
            ElementwiseUnaryReference.int32(op, count: n, try x.view(as: Int32.self, name).base, try out.mutableView(as: Int32.self, name).base)
        default:
            ElementwiseUnaryReference.int64(op, count: n, try x.view(as: Int64.self, name).base, try out.mutableView(as: Int64.self, name).base)
        }
    }
}

extension ElementwiseParallel {
    /// Runs `body` on chunks of `0..<count` (flat elementwise work).
    static func flat(_ count: Int, _ pool: ThreadPool, _ body: (Range<Int>) -> Void) {
        guard count > 0 else { return }
        let minElements = WorkSplitPolicy.elementwiseElements
        if count <= minElements || pool.threadCount == 1 { body(0..<count); return }
        pool.parallelFor(count, minChunk: minElements, body)
    }
}
