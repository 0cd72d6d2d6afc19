import TFLiteSchema
import TFLiteKernels

/// RELU, RELU6, RELU_N1_TO_1, RELU_0_TO_1, LEAKY_RELU, HARD_SWISH, LOGISTIC, TANH, ELU on
/// float32, and on uint8 / int8 with the reference's quantized arithmetic (requantizing
/// clamps, 16-bit fixed-point HARD_SWISH, lookup tables for LOGISTIC and TANH), and LOGISTIC /
/// TANH on int16 (zero points 0, output scale 2^-15) as the reference's default kernels run
/// them: gemmlowp fixed point for the power-of-two input scales they special-case (2^-12, and
/// 2^-11 for TANH), the interpolated sigmoid table for every other scale.
final class ActivationOperator: OperatorKernel, ByteMapKernel, FloatClampKernel {
    var roles: KernelRoles { KernelRoles(byteMap: self, floatClamp: self) }
    /// Which activation.
    enum Kind {
        case clamp(Float, Float), leakyRelu, hardSwish, logistic, tanh, elu
    }
    private let kind: Kind
    private let name: String
    private var count = 0

    private enum Plan {
        case float32(ActivationReference.Float32Function)
        case relu(ActivationReference.QuantizedReluParams)
        case leakyRelu(ActivationReference.QuantizedLeakyReluParams)
        case hardSwish(ActivationReference.QuantizedHardSwishParams)
        case table(ByteTableLookup)
        case int16Table(ActivationReference.Int16SigmoidTableParams, tanh: Bool)
        case int16FixedPoint(tanh: Bool, leftShift: Int)
    }
    private var plan: Plan = .float32(.logistic)

    init(_ kind: Kind, name: String) { self.kind = kind; self.name = name }

    /// The clamp bounds of a prepared float RELU-family kernel, for operator fusion.
    var floatClamp: (min: Float, max: Float)? {
        if case let .float32(.clamp(lo, hi)) = plan { return (lo, hi) }
        return nil
    }

    /// The prepared 8-bit table (LOGISTIC, TANH), for operator fusion.
    var byteMap: ByteTableLookup? {
        if case let .table(t) = plan { return t }
        return nil
    }

    func prepare(_ node: NodeContext) throws {
        let x = try node.input(0), out = try node.output(0)
        count = try ElementwiseSupport.checkedCount(x.shape, name)
        let alpha: Float
        if case .leakyRelu = kind { alpha = try node.options(LeakyReluOptions.self).alpha } else { alpha = 0 }
        if case .leakyRelu = kind { try ElementwiseSupport.checkFinite(alpha, "alpha", name) }
        switch x.type {
        case .float32:
            switch kind {
            case let .clamp(lo, hi): plan = .float32(.clamp(lo, hi))
            case .leakyRelu: plan = .float32(.leakyRelu(alpha: alpha))
            case .hardSwish: plan = .float32(.hardSwish)
            case .logistic: plan = .float32(.logistic)
            case .tanh: plan = .float32(.tanh)
            case .elu: plan = .float32(.elu)
            }
        case .int8, .uint8:
            guard out.type == x.type || out.quantization != nil else { throw ElementwiseSupport.unsupported(name, x.type) }
            let qi = try ElementwiseSupport.perTensor(x, name), qo = try ElementwiseSupport.perTensor(out, name)
            try ElementwiseSupport.checkMultiplier(Double(qi.scale / qo.scale), "rescale multiplier (input scale / output scale)", name)
            let (tmin, tmax) = ElementwiseSupport.bounds(x.type)
            let signed = x.type == .int8
            switch kind {
            case let .clamp(lo, hi):
                plan = .relu(.init(inputScale: qi.scale, inputZeroPoint: qi.zeroPoint, outputScale: qo.scale,
                                   outputZeroPoint: qo.zeroPoint, lo: lo, hi: hi, typeMin: tmin, typeMax: tmax))
            case .leakyRelu:
                try ElementwiseSupport.checkMultiplier(Double(qi.scale * alpha / qo.scale), "alpha multiplier (input scale × alpha / output scale)", name)
                try ElementwiseSupport.checkMultiplier(Double(qi.scale / qo.scale), "identity multiplier (input scale / output scale)", name)
                plan = .leakyRelu(.init(inputScale: qi.scale, inputZeroPoint: qi.zeroPoint, outputScale: qo.scale,
                                        outputZeroPoint: qo.zeroPoint, alpha: alpha))
            case .hardSwish:
                let p = ActivationReference.QuantizedHardSwishParams(inputScale: qi.scale, inputZeroPoint: qi.zeroPoint,
                                                                   outputScale: qo.scale, outputZeroPoint: qo.zeroPoint)
                guard p.outputMultiplierExponent <= 0 else {
                    throw InterpreterError.invalidModel("\(name): output scale too small for the input scale")
                }
                plan = .hardSwish(p)
            case .logistic:
                plan = .table(ByteTableLookup(ActivationReference.LookupTable8.logistic(
                    signed: signed, inputScale: qi.scale, inputZeroPoint: qi.zeroPoint,
                    outputScale: qo.scale, outputZeroPoint: qo.zeroPoint).entries))
            case .tanh:
                plan = .table(ByteTableLookup(ActivationReference.LookupTable8.tanh(
                    signed: signed, inputScale: qi.scale, inputZeroPoint: qi.zeroPoint,
                    outputScale: qo.scale, outputZeroPoint: qo.zeroPoint).entries))
            case .elu:
                throw ElementwiseSupport.unsupported(name, x.type)
            }
        case .int16:
            plan = try int16Plan(x, out)
        default:
            throw ElementwiseSupport.unsupported(name, x.type)
        }
        out.type = x.type
        out.shape = x.shape
    }

    /// The int16 LOGISTIC / TANH plan, with the reference `Prepare`'s checks: zero points 0,
    /// an output scale of 2^-15, an input scale whose table multiplier fits.
    private func int16Plan(_ x: RuntimeTensor, _ out: RuntimeTensor) throws -> Plan {
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
            return .int16FixedPoint(tanh: isTanh, leftShift: shift)
        }
        guard let p = ActivationReference.Int16SigmoidTableParams.general(inputScale: qi.scale) else {
            throw InterpreterError.invalidModel(
                "\(name): int16 input scale \(qi.scale) is outside what the reference's table rescaling handles (about 3.8e-14 to 5.3)")
        }
        return .int16Table(p, tanh: isTanh)
    }

    func invoke(_ node: NodeContext) throws {
        let x = try node.input(0), out = try node.output(0)
        let n = count
        switch plan {
        case let .float32(f):
            let vx = try x.view(as: Float.self, name), vo = try out.mutableView(as: Float.self, name)
            ElementwiseParallel.flat(n, node.threads) { r in ActivationOptimized.float32(f, range: r, vx.base, vo.base) }
        case let .relu(p):
            if x.type == .int8 {
                let vx = try x.view(as: Int8.self, name), vo = try out.mutableView(as: Int8.self, name)
                ElementwiseParallel.flat(n, node.threads) { r in ActivationReference.quantizedRelu(p, range: r, vx.base, vo.base) }
            } else {
                let vx = try x.view(as: UInt8.self, name), vo = try out.mutableView(as: UInt8.self, name)
                ElementwiseParallel.flat(n, node.threads) { r in ActivationReference.quantizedRelu(p, range: r, vx.base, vo.base) }
            }
        case let .leakyRelu(p):
            if x.type == .int8 {
                let vx = try x.view(as: Int8.self, name), vo = try out.mutableView(as: Int8.self, name)
                ElementwiseParallel.flat(n, node.threads) { r in ActivationReference.quantizedLeakyRelu(p, range: r, vx.base, vo.base) }
            } else {
                let vx = try x.view(as: UInt8.self, name), vo = try out.mutableView(as: UInt8.self, name)
                ElementwiseParallel.flat(n, node.threads) { r in ActivationReference.quantizedLeakyRelu(p, range: r, vx.base, vo.base) }
            }
        case let .hardSwish(p):
            if x.type == .int8 {
                let vx = try x.view(as: Int8.self, name), vo = try out.mutableView(as: Int8.self, name)
                ElementwiseParallel.flat(n, node.threads) { r in ActivationReference.quantizedHardSwish(p, range: r, vx.base, vo.base) }
            } else {
                let vx = try x.view(as: UInt8.self, name), vo = try out.mutableView(as: UInt8.self, name)
                ElementwiseParallel.flat(n, node.threads) { r in ActivationReference.quantizedHardSwish(p, range: r, vx.base, vo.base) }
            }
        case let .table(t):
            let vx = try x.byteView(name), vo = try out.mutableByteView(name)
            ElementwiseParallel.flat(n, node.threads) { r in t.apply(range: r, vx.base, vo.base) }
        case let .int16Table(p, isTanh):
            let input = try x.view(as: Int16.self, name).base, output = try out.mutableView(as: Int16.self, name).base
            ElementwiseParallel.flat(n, node.threads) { r in
                if isTanh { ActivationReference.int16TanhTable(p, range: r, input, output) }
                else { ActivationReference.int16LogisticTable(p, range: r, input, output) }
            }
        case let .int16FixedPoint(isTanh, shift):
            let input = try x.view(as: Int16.self, name).base, output = try out.mutableView(as: Int16.self, name).base
            ElementwiseParallel.flat(n, node.threads) { r in
                if isTanh { ActivationReference.int16TanhFixedPoint(leftShift: shift, range: r, input, output) }
                else { ActivationReference.int16LogisticFixedPoint(range: r, input, output) }
            }
        }
    }
}
