import TFLiteSchema
import TFLiteKernels

/// RELU, RELU6, RELU_N1_TO_1, RELU_0_TO_1, LEAKY_RELU, HARD_SWISH, LOGISTIC, TANH, ELU on
/// float32, and on uint8 / int8 with the reference's quantized arithmetic (requantizing
/// clamps, 16-bit fixed-point HARD_SWISH, lookup tables for LOGISTIC and TANH), and LOGISTIC /
/// TANH on int16 (zero points 0, output scale 2^-15) as the reference's default kernels run
/// them: gemmlowp fixed point for the power-of-two input scales they special-case (2^-12, and
/// 2^-11 for TANH), the interpolated sigmoid table for every other scale.
final class ActivationOperator: OperatorKernel, ByteMapKernel, FloatClampKernel, LogisticProductFusable {
    var roles: KernelRoles { KernelRoles(byteMap: self, floatClamp: self, logisticProductFusable: self) }
    /// Which activation.
    enum Kind {
        case clamp(Float, Float), leakyRelu, hardSwish, logistic, tanh, elu
    }
    private let kind: Kind
    private let name: String

    /// An activation of the elements in a range, with its parameters captured.
    typealias Kernel<Element> = (Range<Int>, UnsafePointer<Element>, UnsafeMutablePointer<Element>) -> Void

    /// How a node runs, decided at prepare from the kind and the element type; each case
    /// carries the element count and what its kernel needs. Chunks are split over the pool.
    enum Plan {
        /// Not prepared (or the last prepare failed): invoke throws.
        case unprepared
        /// float32.
        case float32(count: Int, ActivationReference.Float32Function)
        /// float32 LOGISTIC times its input (a MUL fused by `SiLUFusion`).
        case float32LogisticTimesInput(count: Int)
        /// int8 requantizing RELU family, LEAKY_RELU, HARD_SWISH.
        case int8(count: Int, Kernel<Int8>)
        /// uint8 requantizing RELU family, LEAKY_RELU, HARD_SWISH.
        case uint8(count: Int, Kernel<UInt8>)
        /// 8-bit LOGISTIC and TANH: the output code of every input code.
        case table(count: Int, ByteTableLookup)
        /// int16 LOGISTIC and TANH (fixed point or the interpolated table).
        case int16(count: Int, Kernel<Int16>)
    }
    private var plan = Plan.unprepared

    init(_ kind: Kind, name: String) { self.kind = kind; self.name = name }

    /// The clamp bounds of a prepared float RELU-family kernel, for operator fusion.
    var floatClamp: (min: Float, max: Float)? {
        if case let .float32(_, .clamp(lo, hi)) = plan { return (lo, hi) }
        return nil
    }

    /// Makes a prepared float LOGISTIC write `x · logistic(x)` (`SiLUFusion`).
    func fuseInputProduct() -> Bool {
        guard case let .float32(count, .logistic) = plan else { return false }
        plan = .float32LogisticTimesInput(count: count)
        return true
    }

    /// The prepared 8-bit table (LOGISTIC, TANH), for operator fusion.
    var byteMap: ByteTableLookup? {
        if case let .table(_, t) = plan { return t }
        return nil
    }

    /// The 8-bit plan running `int8` or `uint8` (the same reference kernel's two
    /// specializations) with `parameters`.
    private static func quantized<P>(_ parameters: P, count: Int, signed: Bool,
                                     _ int8: @escaping (P, Range<Int>, UnsafePointer<Int8>, UnsafeMutablePointer<Int8>) -> Void,
                                     _ uint8: @escaping (P, Range<Int>, UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>) -> Void) -> Plan {
        signed ? .int8(count: count) { int8(parameters, $0, $1, $2) } : .uint8(count: count) { uint8(parameters, $0, $1, $2) }
    }

    func prepare(_ node: NodeContext) throws {
        plan = .unprepared
        let x = try node.input(0), out = try node.output(0)
        let count = try ElementwiseSupport.checkedCount(x.shape, name)
        let alpha: Float
        if case .leakyRelu = kind { alpha = try node.options(LeakyReluOptions.self).alpha } else { alpha = 0 }
        if case .leakyRelu = kind { try ElementwiseSupport.checkFinite(alpha, "alpha", name) }
        let next: Plan
        switch x.type {
        case .float32:
            switch kind {
            case let .clamp(lo, hi): next = .float32(count: count, .clamp(lo, hi))
            case .leakyRelu: next = .float32(count: count, .leakyRelu(alpha: alpha))
            case .hardSwish: next = .float32(count: count, .hardSwish)
            case .logistic: next = .float32(count: count, .logistic)
            case .tanh: next = .float32(count: count, .tanh)
            case .elu: next = .float32(count: count, .elu)
            }
        case .int8, .uint8:
            guard out.type == x.type || out.quantization != nil else { throw ElementwiseSupport.unsupported(name, x.type) }
            let qi = try ElementwiseSupport.perTensor(x, name), qo = try ElementwiseSupport.perTensor(out, name)
            try ElementwiseSupport.checkMultiplier(Double(qi.scale / qo.scale), "rescale multiplier (input scale / output scale)", name)
            let (tmin, tmax) = ElementwiseSupport.bounds(x.type)
            let signed = x.type == .int8
            switch kind {
            case let .clamp(lo, hi):
                let p = ActivationReference.QuantizedReluParams(inputScale: qi.scale, inputZeroPoint: qi.zeroPoint, outputScale: qo.scale,
                                                               outputZeroPoint: qo.zeroPoint, lo: lo, hi: hi, typeMin: tmin, typeMax: tmax)
                next = Self.quantized(p, count: count, signed: signed, ActivationReference.quantizedRelu, ActivationReference.quantizedRelu)
            case .leakyRelu:
                try ElementwiseSupport.checkMultiplier(Double(qi.scale * alpha / qo.scale), "alpha multiplier (input scale × alpha / output scale)", name)
                try ElementwiseSupport.checkMultiplier(Double(qi.scale / qo.scale), "identity multiplier (input scale / output scale)", name)
                let p = ActivationReference.QuantizedLeakyReluParams(inputScale: qi.scale, inputZeroPoint: qi.zeroPoint,
                                                                    outputScale: qo.scale, outputZeroPoint: qo.zeroPoint, alpha: alpha)
                next = Self.quantized(p, count: count, signed: signed,
                                      ActivationReference.quantizedLeakyRelu, ActivationReference.quantizedLeakyRelu)
            case .hardSwish:
                let p = ActivationReference.QuantizedHardSwishParams(inputScale: qi.scale, inputZeroPoint: qi.zeroPoint,
                                                                   outputScale: qo.scale, outputZeroPoint: qo.zeroPoint)
                guard p.outputMultiplierExponent <= 0 else {
                    throw InterpreterError.invalidModel("\(name): output scale too small for the input scale")
                }
                next = Self.quantized(p, count: count, signed: signed,
                                      ActivationReference.quantizedHardSwish, ActivationReference.quantizedHardSwish)
            case .logistic:
                next = .table(count: count, ByteTableLookup(ActivationReference.LookupTable8.logistic(
                    signed: signed, inputScale: qi.scale, inputZeroPoint: qi.zeroPoint,
                    outputScale: qo.scale, outputZeroPoint: qo.zeroPoint).entries))
            case .tanh:
                next = .table(count: count, ByteTableLookup(ActivationReference.LookupTable8.tanh(
                    signed: signed, inputScale: qi.scale, inputZeroPoint: qi.zeroPoint,
                    outputScale: qo.scale, outputZeroPoint: qo.zeroPoint).entries))
            case .elu:
                throw ElementwiseSupport.unsupported(name, x.type)
            }
        case .int16:
            next = .int16(count: count, try int16Kernel(x, out))
        default:
            throw ElementwiseSupport.unsupported(name, x.type)
        }
        out.type = x.type
        out.shape = x.shape
        plan = next
    }

    /// The int16 LOGISTIC / TANH kernel, with the reference `Prepare`'s checks: zero points 0,
    /// an output scale of 2^-15, an input scale whose table multiplier fits. The power-of-two
    /// input scales the reference special-cases run gemmlowp fixed point, every other scale the
    /// interpolated sigmoid table.
    private func int16Kernel(_ x: RuntimeTensor, _ out: RuntimeTensor) throws -> Kernel<Int16> {
        let isTanh: Bool
        switch kind {
        case .logistic: isTanh = false
        case .tanh: isTanh = true
        default: throw ElementwiseSupport.unsupported(name, x.type)
        }
        let qi = try ElementwiseSupport.perTensor(x, name), qo = try ElementwiseSupport.perTensor(out, name)
        guard out.type == .int16, qi.zeroPoint == 0, qo.zeroPoint == 0 else {
            throw InterpreterError.invalidModel("\(name): int16 input and output need zero point 0")
        }
        let outputLog = BinaryArithmeticReference.checkedLog2(qo.scale)
        guard outputLog.isPowerOfTwo, outputLog.log2 == -15 else {
            throw InterpreterError.invalidModel("\(name): int16 output scale must be 2^-15")
        }
        let inputLog = BinaryArithmeticReference.checkedLog2(qi.scale)
        let shift = 12 + inputLog.log2
        if inputLog.isPowerOfTwo && (shift == 0 || (isTanh && shift == 1)) {
            return isTanh ? { ActivationReference.int16TanhFixedPoint(leftShift: shift, range: $0, $1, $2) }
                          : { ActivationReference.int16LogisticFixedPoint(range: $0, $1, $2) }
        }
        guard let p = ActivationReference.Int16SigmoidTableParams.general(inputScale: qi.scale) else {
            throw InterpreterError.invalidModel(
                "\(name): int16 input scale \(qi.scale) is outside what the reference's table rescaling handles (about 3.8e-14 to 5.3)")
        }
        return isTanh ? { ActivationReference.int16TanhTable(p, range: $0, $1, $2) }
                      : { ActivationReference.int16LogisticTable(p, range: $0, $1, $2) }
    }

    func invoke(_ node: NodeContext) throws {
        let x = try node.input(0), out = try node.output(0)
        switch plan {
        case .unprepared:
            throw InterpreterError.allocateTensorsRequired
        case let .float32(n, f):
            let vx = try x.view(as: Float.self, name), vo = try out.mutableView(as: Float.self, name)
            ElementwiseParallel.flat(n, node.threads) { r in ActivationOptimized.float32(f, range: r, vx.base, vo.base) }
        case let .float32LogisticTimesInput(n):
            let vx = try x.view(as: Float.self, name), vo = try out.mutableView(as: Float.self, name)
            ElementwiseParallel.flat(n, node.threads) { r in ActivationOptimized.float32LogisticTimesInput(range: r, vx.base, vo.base) }
        case let .int8(n, kernel): try run(kernel, n, x, out, node.threads)
        case let .uint8(n, kernel): try run(kernel, n, x, out, node.threads)
        case let .table(n, t):
            let vx = try x.byteView(name), vo = try out.mutableByteView(name)
            ElementwiseParallel.flat(n, node.threads) { r in t.apply(range: r, vx.base, vo.base) }
        case let .int16(n, kernel): try run(kernel, n, x, out, node.threads)
        }
    }

    /// Runs `kernel` on the `n` elements of `x` into `out`, chunks split over the pool.
    private func run<Element>(_ kernel: Kernel<Element>, _ n: Int, _ x: RuntimeTensor, _ out: RuntimeTensor,
                              _ pool: ThreadPool) throws {
        let vx = try x.view(as: Element.self, name).base, vo = try out.mutableView(as: Element.self, name).base
        ElementwiseParallel.flat(n, pool) { r in kernel(r, vx, vo) }
    }
}
