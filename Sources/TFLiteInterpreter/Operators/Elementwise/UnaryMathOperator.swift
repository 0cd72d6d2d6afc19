import TFLiteSchema
import TFLiteKernels

/// ABS, NEG, EXP, LOG, SQRT, RSQRT, SQUARE, FLOOR, CEIL, ROUND, SIN, COS, SIGN: one input,
/// same shape out. Float32 for all; int32 / int64 for ABS, NEG, SQUARE, SIGN; int8 for EXP
/// and ABS through 256-entry tables of the reference's quantized results; int8 RSQRT the same
/// way, rejecting at invoke (as the reference does) a code below the input zero point; int16
/// RSQRT (zero points 0) through the reference's 513-entry interpolated table of 1/sqrt(x)
/// (x ≤ 0 maps to the largest output), rejecting a negative code at invoke.
final class UnaryMathOperator: OperatorKernel {
    /// How a node runs, decided at prepare from the operation and the element type; each case
    /// carries the element count and its parameters.
    enum Plan {
        /// Not prepared (or the last prepare failed): invoke throws.
        case unprepared
        /// float32, chunks split over the pool.
        case float32(count: Int, ElementwiseUnaryReference.Operation)
        /// int8 EXP and ABS: the table of every code's result, chunks split over the pool.
        case int8Table(count: Int, ActivationReference.LookupTable8)
        /// int8 RSQRT: the table, after checking that no code lies below `minimumCode` (the input zero point).
        case int8Rsqrt(count: Int, ActivationReference.LookupTable8, minimumCode: Int8)
        /// int16 RSQRT: the interpolated table, after checking that no code is negative.
        case int16Rsqrt(count: Int, Int16InterpolatedTable)
        /// int32 ABS, NEG, SQUARE, SIGN (one thread).
        case int32(count: Int, ElementwiseUnaryReference.Operation)
        /// int64 ABS, NEG, SQUARE, SIGN (one thread).
        case int64(count: Int, ElementwiseUnaryReference.Operation)
    }

    private let operation: ElementwiseUnaryReference.Operation
    private let name: String
    private var plan = Plan.unprepared

    init(_ operation: ElementwiseUnaryReference.Operation, name: String) {
        self.operation = operation; self.name = name
    }

    func prepare(_ node: NodeContext) throws {
        plan = .unprepared
        let x = try node.input(0), out = try node.output(0)
        let op = operation
        // The plan for the element count, which is checked after the type so that an
        // unsupported type stays the error reported first.
        let next: (Int) -> Plan
        switch x.type {
        case .float32: next = { .float32(count: $0, op) }
        case .int8 where operation == .exp || operation == .abs:
            let qi = try ElementwiseSupport.perTensor(x, name), qo = try ElementwiseSupport.perTensor(out, name)
            let signed = x.type == .int8
            let table: ActivationReference.LookupTable8 = operation == .exp
                ? .exp(signed: signed, inputScale: qi.scale, inputZeroPoint: qi.zeroPoint, outputScale: qo.scale, outputZeroPoint: qo.zeroPoint)
                : .abs(signed: signed, inputScale: qi.scale, inputZeroPoint: qi.zeroPoint, outputScale: qo.scale, outputZeroPoint: qo.zeroPoint)
            next = { .int8Table(count: $0, table) }
        case .int8 where operation == .rsqrt:
            let qi = try ElementwiseSupport.perTensor(x, name), qo = try ElementwiseSupport.perTensor(out, name)
            try ElementwiseSupport.checkMultiplier(1 / Double(qi.scale.squareRoot() * qo.scale),
                                                   "output multiplier (1 / (sqrt(input scale) × output scale))", name)
            guard (-128...127).contains(qi.zeroPoint), (-128...127).contains(qo.zeroPoint) else {
                throw InterpreterError.invalidModel("\(name): int8 zero points must lie in -128...127")
            }
            let multiplier = ElementwiseUnaryReference.quantizedRsqrtMultiplier(inputScale: qi.scale, outputScale: qo.scale)
            let table = ActivationReference.LookupTable8(signed: true) { q in
                // Codes below the zero point never reach the table (invoke rejects them).
                q < qi.zeroPoint ? 0 : ElementwiseUnaryReference.quantizedRsqrtElement(
                    q, inputZeroPoint: qi.zeroPoint, outputZeroPoint: qo.zeroPoint, multiplier)
            }
            next = { .int8Rsqrt(count: $0, table, minimumCode: Int8(qi.zeroPoint)) }
        case .int16 where operation == .rsqrt:
            let qi = try ElementwiseSupport.perTensor(x, name), qo = try ElementwiseSupport.perTensor(out, name)
            guard out.type == .int16, qi.zeroPoint == 0, qo.zeroPoint == 0 else {
                throw InterpreterError.invalidModel("\(name): int16 input and output need zero point 0")
            }
            let outputScale = qo.scale
            let table = Int16InterpolatedTable(inputScale: qi.scale, inputZeroPoint: 0, outputScale: outputScale,
                                               outputZeroPoint: 0) { (v: Float) -> Float in
                v <= 0 ? 32767 * outputScale : 1 / v.squareRoot()
            }
            next = { .int16Rsqrt(count: $0, table) }
        case .int32 where ElementwiseUnaryReference.supportsIntegers(operation): next = { .int32(count: $0, op) }
        case .int64 where ElementwiseUnaryReference.supportsIntegers(operation): next = { .int64(count: $0, op) }
        default: throw ElementwiseSupport.unsupported(name, x.type)
        }
        let count = try ElementwiseSupport.checkedCount(x.shape, name)
        out.type = x.type
        out.shape = x.shape
        plan = next(count)
    }

    func invoke(_ node: NodeContext) throws {
        let x = try node.input(0), out = try node.output(0)
        switch plan {
        case .unprepared:
            throw InterpreterError.allocateTensorsRequired
        case let .float32(n, op):
            let vx = try x.view(as: Float.self, name), vo = try out.mutableView(as: Float.self, name)
            ElementwiseParallel.flat(n, node.threads) { r in ElementwiseUnaryReference.float32(op, range: r, vx.base, vo.base) }
        case let .int8Table(n, table):
            try apply(table, n, x, out, node.threads)
        case let .int8Rsqrt(n, table, minimumCode):
            if UnsafeBufferPointer(start: try x.view(as: Int8.self, name).base, count: n).contains(where: { $0 < minimumCode }) {
                throw negativeInput
            }
            try apply(table, n, x, out, node.threads)
        case let .int16Rsqrt(n, table):
            let vx = try x.view(as: Int16.self, name), vo = try out.mutableView(as: Int16.self, name)
            if UnsafeBufferPointer(start: vx.base, count: n).contains(where: { $0 < 0 }) { throw negativeInput }
            ElementwiseParallel.flat(n, node.threads) { r in table.apply(range: r, vx.base, vo.base) }
        case let .int32(n, op):
            ElementwiseUnaryReference.int32(op, count: n, try x.view(as: Int32.self, name).base, try out.mutableView(as: Int32.self, name).base)
        case let .int64(n, op):
            ElementwiseUnaryReference.int64(op, count: n, try x.view(as: Int64.self, name).base, try out.mutableView(as: Int64.self, name).base)
        }
    }

    /// RSQRT's invocation error for an input below zero (the reference rejects it at invoke).
    private var negativeInput: InterpreterError {
        .invocationFailed("\(name): an input is negative; RSQRT is defined for values ≥ 0 only")
    }

    /// Maps the `n` int8 codes of `x` through `table` into `out`, chunks split over the pool.
    private func apply(_ table: ActivationReference.LookupTable8, _ n: Int, _ x: RuntimeTensor, _ out: RuntimeTensor,
                       _ pool: ThreadPool) throws {
        let vx = try x.byteView(name), vo = try out.mutableByteView(name)
        ElementwiseParallel.flat(n, pool) { r in table.apply(range: r, vx.base, vo.base) }
    }
}

extension ElementwiseParallel {
    /// Runs `body` on chunks of `0..<count` (flat elementwise work) of at least `minElements`.
    static func flat(_ count: Int, _ pool: ThreadPool, minElements: Int = WorkSplitPolicy.elementwiseElements,
                     _ body: (Range<Int>) -> Void) {
        guard count > 0 else { return }
        if count <= minElements || pool.threadCount == 1 { body(0..<count); return }
        pool.parallelFor(count, minChunk: minElements, body)
    }
}
