import TFLiteSchema
import TFLiteKernels

/// ADD, SUB, MUL, DIV, SQUARED_DIFFERENCE, MAXIMUM, MINIMUM, POW, FLOOR_DIV, FLOOR_MOD:
/// two broadcast inputs, optional fused activation (ADD, SUB, MUL, DIV). Quantized DIV
/// (uint8, int8, int16) rejects a divisor code equal to the divisor's zero point (a real 0) as
/// the reference does: at prepare when the divisor is constant, else at invoke.
final class BinaryArithmeticOperator: OperatorKernel, CodePairKernel, FloatClampFusable, FloatResidualAddKernel {
    var roles: KernelRoles { KernelRoles(codePair: self, floatClampFusable: self, floatResidualAdd: self) }
    private let operation: BinaryArithmeticReference.Operation
    private let name: String
    /// Whether the operator has a fused activation in its options (ADD, SUB, MUL, DIV).
    private var hasFusedActivation: Bool {
        switch operation {
        case .add, .sub, .mul, .div: return true
        default: return false
        }
    }

    private enum Plan {
        case float32(min: Float, max: Float)
        case int32(min: Int32, max: Int32)
        case int64(min: Int64, max: Int64)
        case quantizedAdd(BinaryArithmeticReference.QuantizedAddParams, subtract: Bool)
        case quantizedMul(BinaryArithmeticReference.QuantizedMulParams)
        case quantizedDiv(BinaryArithmeticReference.QuantizedDivParams)
        case int16PowerOfTwoAdd(BinaryArithmeticReference.Int16PowerOfTwoAddParams)
        case rawMaxMin(maximum: Bool)
        case quantizedSquaredDifference(BinaryArithmeticReference.QuantizedSquaredDifferenceParams)
    }
    private var plan: Plan = .float32(min: -.infinity, max: .infinity)
    /// For large 8-bit ADD / SUB / MUL: every output code by input-code pair, built by the
    /// first invoke from `pairTableBuilder` (not at prepare: a MUL that `ByteMapFusion` folds
    /// into a 256-entry table never runs, so its 64K table would be built for nothing).
    private var pairTable: QuantizedPairTable?
    /// How to build `pairTable`, set at prepare when the operator reads a pair table.
    private var pairTableBuilder: (() -> QuantizedPairTable)?
    /// Output size from which an 8-bit operator is tabulated (the table costs 64K element evaluations).
    static let pairTableMinimumElements = 16384
    /// Smaller 8-bit ADD / SUB / MUL computed with the vector kernels (contiguous or long innermost rows).
    private var useVectorKernel = false
    private var layout: BroadcastLayout?
    private var elementType: TensorType = .float32

    init(_ operation: BinaryArithmeticReference.Operation, name: String) {
        self.operation = operation; self.name = name
    }

    /// The fused activation and ADD / SUB's `pot_scale_int16` from the operator's typed options
    /// (NONE and true for operators without them).
    private func typedOptions(_ node: NodeContext) throws -> (activation: ActivationFunctionType, potScaleInt16: Bool) {
        switch operation {
        case .add:
            let o = try node.options(AddOptions.self)
            return (o.fusedActivationFunction, o.potScaleInt16)
        case .sub:
            let o = try node.options(SubOptions.self)
            return (o.fusedActivationFunction, o.potScaleInt16)
        case .mul: return (try node.options(MulOptions.self).fusedActivationFunction, true)
        case .div: return (try node.options(DivOptions.self).fusedActivationFunction, true)
        default: return (.none, true)
        }
    }

    /// For a prepared same-shape 8-bit MUL: its element function on a pair of codes (with the
    /// fused activation), for operator fusion.
    var codePairFunction: ((Int32, Int32) -> Int32)? {
        guard case let .quantizedMul(p) = plan, layout?.isElementwise == true,
              elementType == .int8 || elementType == .uint8 else { return nil }
        return { BinaryArithmeticReference.quantizedMulElement($0, $1, p) }
    }

    /// For a prepared float ADD of two same-shape operands: its activation range, for fusing
    /// it into the node that produces one operand (`ResidualAddFusion`).
    var floatResidualAdd: FloatClamp? {
        guard operation == .add, elementType == .float32, case let .float32(lo, hi) = plan,
              layout?.isElementwise == true else { return nil }
        return (lo, hi)
    }

    /// Adds a clamp to a float ADD / SUB / MUL / DIV without a fused activation (operator fusion).
    func fuseFloatClamp(min: Float, max: Float) -> Bool {
        guard hasFusedActivation, case let .float32(lo, hi) = plan, lo == -.infinity, hi == .infinity else { return false }
        plan = .float32(min: min, max: max)
        return true
    }

    func prepare(_ node: NodeContext) throws {
        let a = try node.input(0), b = try node.input(1), out = try node.output(0)
        try ElementwiseSupport.requireSameType([a, b], name)
        let layout = try ElementwiseSupport.broadcastLayout(a.shape, b.shape, name)
        let options = try typedOptions(node)
        let activation = try ElementwiseActivation(options.activation, name)
        let type = a.type
        switch type {
        case .float32:
            let (lo, hi) = activation.floatRange
            plan = .float32(min: lo, max: hi)
        case .int32:
            let (lo, hi) = activation.integerRange(Int32.self)
            plan = .int32(min: lo, max: hi)
        case .int64:
            let (lo, hi) = activation.integerRange(Int64.self)
            plan = .int64(min: lo, max: hi)
        case .int8, .uint8, .int16:
            let qa = try ElementwiseSupport.perTensor(a, name), qb = try ElementwiseSupport.perTensor(b, name)
            let qo = try ElementwiseSupport.perTensor(out, name)
            let (lo, hi) = activation.quantizedRange(scale: qo.scale, zeroPoint: qo.zeroPoint, type: type)
            switch operation {
            case .add, .sub:
                if type == .int16 {
                    // The reference's power-of-two int16 path (pot_scale_int16, symmetric).
                    let pot = options.potScaleInt16
                    let symmetric = qa.zeroPoint == 0 && qb.zeroPoint == 0 && qo.zeroPoint == 0
                    let logs = [qa.scale, qb.scale, qo.scale].map(BinaryArithmeticReference.checkedLog2)
                    if pot && symmetric && logs.allSatisfy(\.isPowerOfTwo) {
                        let shift1 = logs[0].log2 - logs[2].log2, shift2 = logs[1].log2 - logs[2].log2
                        guard shift1 == 0 || shift2 == 0, shift1 <= 0, shift2 <= 0 else {
                            throw InterpreterError.invalidModel(
                                "\(name): power-of-two int16 scales need one input on the output scale and the other finer")
                        }
                        // The reference's power-of-two ADD has no broadcasting form (it aborts on
                        // unequal element counts); its SUB broadcasts.
                        guard layout.isElementwise || operation == .sub else {
                            throw ElementwiseSupport.unsupported(
                                "\(name) (power-of-two int16 scales with broadcasting, which the reference runtime aborts on)", type)
                        }
                        plan = .int16PowerOfTwoAdd(.init(input1RightShift: -shift1, input2RightShift: -shift2,
                                                         activationMin: lo, activationMax: hi, subtract: operation == .sub))
                        break
                    }
                }
                let twiceMax = 2 * Double(max(qa.scale, qb.scale))
                try ElementwiseSupport.checkMultiplier(twiceMax / (Double(1 << (type == .int16 ? 15 : 20)) * Double(qo.scale)),
                                                       "output multiplier (2 × larger input scale / output scale)", name)
                plan = .quantizedAdd(BinaryArithmeticReference.QuantizedAddParams(
                    input1Scale: qa.scale, input1ZeroPoint: qa.zeroPoint, input2Scale: qb.scale,
                    input2ZeroPoint: qb.zeroPoint, outputScale: qo.scale, outputZeroPoint: qo.zeroPoint,
                    leftShift: type == .int16 ? 15 : 20, activationMin: lo, activationMax: hi), subtract: operation == .sub)
            case .mul:
                try ElementwiseSupport.checkMultiplier(Double(qa.scale * qb.scale / qo.scale),
                                                       "output multiplier (input scales' product / output scale)", name)
                plan = .quantizedMul(BinaryArithmeticReference.QuantizedMulParams(
                    input1Scale: qa.scale, input1ZeroPoint: qa.zeroPoint, input2Scale: qb.scale,
                    input2ZeroPoint: qb.zeroPoint, outputScale: qo.scale, outputZeroPoint: qo.zeroPoint,
                    activationMin: lo, activationMax: hi))
            case .div:
                try ElementwiseSupport.checkMultiplier(Double(qa.scale / (qb.scale * qo.scale)),
                                                       "output multiplier (dividend scale / (divisor scale × output scale))", name)
                plan = .quantizedDiv(BinaryArithmeticReference.QuantizedDivParams(
                    input1Scale: qa.scale, input1ZeroPoint: qa.zeroPoint, input2Scale: qb.scale,
                    input2ZeroPoint: qb.zeroPoint, outputScale: qo.scale, outputZeroPoint: qo.zeroPoint,
                    activationMin: lo, activationMax: hi))
                if b.isConstant, b.data != nil, try Self.holdsCode(qb.zeroPoint, b, name) {
                    throw InterpreterError.invalidModel("\(name): the constant divisor '\(b.name)' holds a zero")
                }
            case .maximum, .minimum:
                plan = .rawMaxMin(maximum: operation == .maximum)
            case .squaredDifference where type == .int8:
                plan = .quantizedSquaredDifference(.init(
                    input1Scale: qa.scale, input1ZeroPoint: qa.zeroPoint, input2Scale: qb.scale,
                    input2ZeroPoint: qb.zeroPoint, outputScale: qo.scale, outputZeroPoint: qo.zeroPoint,
                    activationMin: -128, activationMax: 127))
            default:
                throw ElementwiseSupport.unsupported(name, type)
            }
        default:
            throw ElementwiseSupport.unsupported(name, type)
        }
        pairTable = nil
        pairTableBuilder = nil
        useVectorKernel = false
        if type == .int8 || type == .uint8 {
            // Large operators read a 64K table (built once here) unless the build's vector MUL is
            // faster; smaller ones with contiguous rows use the vector arithmetic, the rest the reference.
            switch plan {
            case let .quantizedAdd(p, subtract):
                if layout.elementCount >= Self.pairTableMinimumElements {
                    let signed = type == .int8
                    pairTableBuilder = { .add(signed: signed, p, subtract: subtract) }
                } else {
                    useVectorKernel = Self.vectorFriendly(layout) && QuantizedBinaryArithmeticOptimized.supports(p)
                }
            case let .quantizedMul(p):
                if layout.isElementwise && QuantizedBinaryArithmeticOptimized.mulBeatsPairTable(p) {
                    useVectorKernel = true
                } else if layout.elementCount >= Self.pairTableMinimumElements {
                    let signed = type == .int8
                    pairTableBuilder = { .mul(signed: signed, p) }
                } else {
                    useVectorKernel = Self.vectorFriendly(layout) && QuantizedBinaryArithmeticOptimized.supports(p)
                }
            default: break
            }
        }
        out.type = type
        out.shape = layout.outputShape
        self.layout = layout
        elementType = type
    }

    /// The pair table, built now if prepare chose one and no invoke has built it yet.
    private func preparedPairTable() -> QuantizedPairTable? {
        if pairTable == nil, let build = pairTableBuilder {
            pairTable = build()
            pairTableBuilder = nil
        }
        return pairTable
    }

    private func applyTable(_ table: QuantizedPairTable, _ layout: BroadcastLayout, _ pool: ThreadPool,
                            _ lhs: RuntimeTensor, _ rhs: RuntimeTensor, _ output: RuntimeTensor) throws {
        let a = try lhs.byteView(name).base, b = try rhs.byteView(name).base
        let o = try output.mutableByteView(name).base
        if layout.isElementwise {
            ElementwiseParallel.flat(layout.elementCount, pool) { r in table.apply(range: r, a, b, o) }
        } else {
            ElementwiseParallel.rows(layout, pool) { r in table.apply(layout: layout, rows: r, a, b, o) }
        }
    }

    private func vectorAdd(_ p: BinaryArithmeticReference.QuantizedAddParams, subtract: Bool, _ layout: BroadcastLayout,
                           _ pool: ThreadPool, _ lhs: RuntimeTensor, _ rhs: RuntimeTensor, _ output: RuntimeTensor) throws {
        if elementType == .int8 {
            let a = try lhs.view(as: Int8.self, name).base, b = try rhs.view(as: Int8.self, name).base
            let o = try output.mutableView(as: Int8.self, name).base
            if layout.isElementwise {
                ElementwiseParallel.flat(layout.elementCount, pool) { r in QuantizedBinaryArithmeticOptimized.add(p, subtract: subtract, range: r, a, b, o) }
            } else {
                ElementwiseParallel.rows(layout, pool) { r in QuantizedBinaryArithmeticOptimized.add(p, subtract: subtract, layout: layout, rows: r, a, b, o) }
            }
        } else {
            let a = try lhs.view(as: UInt8.self, name).base, b = try rhs.view(as: UInt8.self, name).base
            let o = try output.mutableView(as: UInt8.self, name).base
            if layout.isElementwise {
                ElementwiseParallel.flat(layout.elementCount, pool) { r in QuantizedBinaryArithmeticOptimized.add(p, subtract: subtract, range: r, a, b, o) }
            } else {
                ElementwiseParallel.rows(layout, pool) { r in QuantizedBinaryArithmeticOptimized.add(p, subtract: subtract, layout: layout, rows: r, a, b, o) }
            }
        }
    }

    private func vectorMul(_ p: BinaryArithmeticReference.QuantizedMulParams, _ layout: BroadcastLayout, _ pool: ThreadPool,
                           _ lhs: RuntimeTensor, _ rhs: RuntimeTensor, _ output: RuntimeTensor) throws {
        if elementType == .int8 {
            let a = try lhs.view(as: Int8.self, name).base, b = try rhs.view(as: Int8.self, name).base
            let o = try output.mutableView(as: Int8.self, name).base
            if layout.isElementwise {
                ElementwiseParallel.flat(layout.elementCount, pool) { r in QuantizedBinaryArithmeticOptimized.mul(p, range: r, a, b, o) }
            } else {
                ElementwiseParallel.rows(layout, pool) { r in QuantizedBinaryArithmeticOptimized.mul(p, layout: layout, rows: r, a, b, o) }
            }
        } else {
            let a = try lhs.view(as: UInt8.self, name).base, b = try rhs.view(as: UInt8.self, name).base
            let o = try output.mutableView(as: UInt8.self, name).base
            if layout.isElementwise {
                ElementwiseParallel.flat(layout.elementCount, pool) { r in QuantizedBinaryArithmeticOptimized.mul(p, range: r, a, b, o) }
            } else {
                ElementwiseParallel.rows(layout, pool) { r in QuantizedBinaryArithmeticOptimized.mul(p, layout: layout, rows: r, a, b, o) }
            }
        }
    }

    /// Contiguous operands, or innermost rows long enough for 16-lane vectors.
    private static func vectorFriendly(_ layout: BroadcastLayout) -> Bool {
        layout.isElementwise || layout.innerCount >= 16
    }

    /// Whether an 8- or 16-bit tensor holds the code `code` (the reference's divisor check
    /// compares every divisor code with the divisor's zero point).
    private static func holdsCode(_ code: Int32, _ t: RuntimeTensor, _ name: String) throws -> Bool {
        let n = t.elementCount
        switch t.type {
        case .int16: return UnsafeBufferPointer(start: try t.view(as: Int16.self, name).base, count: n).contains { Int32($0) == code }
        case .int8: return UnsafeBufferPointer(start: try t.view(as: Int8.self, name).base, count: n).contains { Int32($0) == code }
        default: return UnsafeBufferPointer(start: try t.view(as: UInt8.self, name).base, count: n).contains { Int32($0) == code }
        }
    }

    func invoke(_ node: NodeContext) throws {
        guard let layout else { throw InterpreterError.allocateTensorsRequired }
        let a = try node.input(0), b = try node.input(1), out = try node.output(0)
        let rows = 0..<layout.rowCount
        switch plan {
        case let .float32(lo, hi):
            let op = operation
            let fa = try a.view(as: Float.self, name).base, fb = try b.view(as: Float.self, name).base
            let fo = try out.mutableView(as: Float.self, name).base
            if !BinaryArithmeticOptimized.supportsFloat(op) {
                ElementwiseParallel.rows(layout, node.threads) { r in
                    BinaryArithmeticReference.float32(op, layout: layout, rows: r, fa, fb, fo, activationMin: lo, activationMax: hi)
                }
            } else if layout.isElementwise {
                ElementwiseParallel.flat(layout.elementCount, node.threads) { r in
                    BinaryArithmeticOptimized.float32Elementwise(op, range: r, fa, fb, fo, activationMin: lo, activationMax: hi)
                }
            } else {
                ElementwiseParallel.rows(layout, node.threads) { r in
                    BinaryArithmeticOptimized.float32(op, layout: layout, rows: r, fa, fb, fo, activationMin: lo, activationMax: hi)
                }
            }
        case let .int32(lo, hi):
            do {
                try BinaryArithmeticReference.int32(operation, layout: layout, rows: rows, try a.view(as: Int32.self, name).base,
                                           try b.view(as: Int32.self, name).base, try out.mutableView(as: Int32.self, name).base,
                                           activationMin: lo, activationMax: hi)
            } catch { throw InterpreterError.invocationFailed("\(name): division by zero") }
        case let .int64(lo, hi):
            do {
                try BinaryArithmeticReference.int64(operation, layout: layout, rows: rows, try a.view(as: Int64.self, name).base,
                                           try b.view(as: Int64.self, name).base, try out.mutableView(as: Int64.self, name).base,
                                           activationMin: lo, activationMax: hi)
            } catch { throw InterpreterError.invocationFailed("\(name): division by zero") }
        case let .quantizedAdd(p, subtract):
            if useVectorKernel {
                try vectorAdd(p, subtract: subtract, layout, node.threads, a, b, out)
                return
            }
            if let table = preparedPairTable() {
                try applyTable(table, layout, node.threads, a, b, out)
                return
            }
            switch elementType {
            case .int8:
                BinaryArithmeticReference.quantizedAdd(layout: layout, rows: rows, try a.view(as: Int8.self, name).base,
                                              try b.view(as: Int8.self, name).base, try out.mutableView(as: Int8.self, name).base,
                                              p, subtract: subtract)
            case .uint8:
                BinaryArithmeticReference.quantizedAdd(layout: layout, rows: rows, try a.view(as: UInt8.self, name).base,
                                              try b.view(as: UInt8.self, name).base, try out.mutableView(as: UInt8.self, name).base,
                                              p, subtract: subtract)
            default:
                BinaryArithmeticReference.quantizedAdd(layout: layout, rows: rows, try a.view(as: Int16.self, name).base,
                                              try b.view(as: Int16.self, name).base, try out.mutableView(as: Int16.self, name).base,
                                              p, subtract: subtract)
            }
        case let .quantizedMul(p):
            if useVectorKernel {
                try vectorMul(p, layout, node.threads, a, b, out)
                return
            }
            if let table = preparedPairTable() {
                try applyTable(table, layout, node.threads, a, b, out)
                return
            }
            switch elementType {
            case .int8:
                BinaryArithmeticReference.quantizedMul(layout: layout, rows: rows, try a.view(as: Int8.self, name).base,
                                              try b.view(as: Int8.self, name).base, try out.mutableView(as: Int8.self, name).base, p)
            case .uint8:
                BinaryArithmeticReference.quantizedMul(layout: layout, rows: rows, try a.view(as: UInt8.self, name).base,
                                              try b.view(as: UInt8.self, name).base, try out.mutableView(as: UInt8.self, name).base, p)
            default:
                BinaryArithmeticReference.quantizedMul(layout: layout, rows: rows, try a.view(as: Int16.self, name).base,
                                              try b.view(as: Int16.self, name).base, try out.mutableView(as: Int16.self, name).base, p)
            }
        case let .int16PowerOfTwoAdd(p):
            let a16 = try a.view(as: Int16.self, name).base, b16 = try b.view(as: Int16.self, name).base
            let o16 = try out.mutableView(as: Int16.self, name).base
            if layout.isElementwise {
                BinaryArithmeticReference.int16PowerOfTwoAdd(p, range: 0..<layout.elementCount, a16, b16, o16)
            } else {
                BinaryArithmeticReference.int16PowerOfTwoAdd(p, layout: layout, rows: rows, a16, b16, o16)
            }
        case let .quantizedDiv(p):
            guard try !Self.holdsCode(-p.input2Offset, b, name) else {
                throw InterpreterError.invocationFailed("\(name): the divisor '\(b.name)' holds a zero")
            }
            switch elementType {
            case .int8:
                BinaryArithmeticReference.quantizedDiv(layout: layout, rows: rows, try a.view(as: Int8.self, name).base,
                                              try b.view(as: Int8.self, name).base, try out.mutableView(as: Int8.self, name).base, p)
            case .uint8:
                BinaryArithmeticReference.quantizedDiv(layout: layout, rows: rows, try a.view(as: UInt8.self, name).base,
                                              try b.view(as: UInt8.self, name).base, try out.mutableView(as: UInt8.self, name).base, p)
            default:
                BinaryArithmeticReference.quantizedDiv(layout: layout, rows: rows, try a.view(as: Int16.self, name).base,
                                              try b.view(as: Int16.self, name).base, try out.mutableView(as: Int16.self, name).base, p)
            }
        case let .quantizedSquaredDifference(p):
            BinaryArithmeticReference.quantizedSquaredDifference(layout: layout, rows: rows, try a.view(as: Int8.self, name).base,
                                                        try b.view(as: Int8.self, name).base, try out.mutableView(as: Int8.self, name).base, p)
        case let .rawMaxMin(maximum):
            switch elementType {
            case .int8:
                BinaryArithmeticReference.rawMaxMin(maximum, layout: layout, rows: rows, try a.view(as: Int8.self, name).base,
                                           try b.view(as: Int8.self, name).base, try out.mutableView(as: Int8.self, name).base)
            case .uint8:
                BinaryArithmeticReference.rawMaxMin(maximum, layout: layout, rows: rows, try a.view(as: UInt8.self, name).base,
                                           try b.view(as: UInt8.self, name).base, try out.mutableView(as: UInt8.self, name).base)
            default:
                BinaryArithmeticReference.rawMaxMin(maximum, layout: layout, rows: rows, try a.view(as: Int16.self, name).base,
                                           try b.view(as: Int16.self, name).base, try out.mutableView(as: Int16.self, name).base)
            }
        }
    }
}

/// Splits broadcast work over the thread pool by innermost rows.
enum ElementwiseParallel {
    /// Runs `body` on chunks of `0..<layout.rowCount`.
    static func rows(_ layout: BroadcastLayout, _ pool: ThreadPool, _ body: (Range<Int>) -> Void) {
        let rowCount = layout.rowCount
        guard rowCount > 0 else { return }
        let inner = max(1, layout.innerCount)
        let minRows = WorkSplitPolicy.minChunk(work: WorkSplitPolicy.elementwiseElements, workPerUnit: inner)
        if rowCount <= minRows || pool.threadCount == 1 { body(0..<rowCount); return }
        pool.parallelFor(rowCount, minChunk: minRows, body)
    }
}
