import TFLiteSchema
import TFLiteKernels

/// ADD, SUB, MUL, DIV, SQUARED_DIFFERENCE, MAXIMUM, MINIMUM, POW, FLOOR_DIV, FLOOR_MOD:
/// two broadcast inputs, optional fused activation (ADD, SUB, MUL, DIV). Quantized DIV
/// (uint8, int8, int16) rejects a divisor code equal to the divisor's zero point (a real 0) as
/// the reference does: at prepare when the divisor is constant, else at invoke.
final class BinaryArithmeticOperator: OperatorKernel, CodePairKernel, FloatClampFusable, FloatResidualAddKernel,
                                      FloatProductKernel, PlanFinishingKernel {
    var roles: KernelRoles {
        KernelRoles(codePair: self, floatClampFusable: self, floatResidualAdd: self, floatProduct: self, planFinishing: self)
    }

    /// The operation on the two inputs into the output, with the broadcast layout and the
    /// parameters captured; it may split work over the pool, and throws an invocation error
    /// for a zero divisor.
    typealias Kernel<Element> = (UnsafePointer<Element>, UnsafePointer<Element>, UnsafeMutablePointer<Element>, ThreadPool) throws -> Void

    /// How a node runs, decided at prepare from the operation, the element type, the
    /// quantization and the layout.
    enum Plan {
        /// Not prepared (or the last prepare failed): invoke throws.
        case unprepared
        /// float32 through `kernel`, with its activation range (operator fusion may add one,
        /// `fuseFloatClamp`).
        case float32(BroadcastLayout, FloatKernel, min: Float, max: Float)
        case int32(Kernel<Int32>)
        case int64(Kernel<Int64>)
        /// int8 through the vector kernels or the reference.
        case int8(Kernel<Int8>)
        /// uint8 through the vector kernels or the reference.
        case uint8(Kernel<UInt8>)
        /// int16 through the reference.
        case int16(Kernel<Int16>)
        /// Large 8-bit ADD / SUB / MUL: every output code by input-code pair.
        case pairTable(BroadcastLayout, PairTablePlan)
    }

    /// The float32 kernel a node runs, chosen at prepare from the operation and the layout.
    enum FloatKernel {
        /// `BinaryArithmeticOptimized.float32Elementwise` over contiguous operands.
        case vectorElementwise
        /// `BinaryArithmeticOptimized.float32` over the broadcast layout's innermost rows.
        case vectorRows
        /// `BinaryArithmeticReference.float32` (operations the vector kernels lack), by rows.
        case referenceRows

        /// The kernel for `operation` on `layout`.
        init(_ operation: BinaryArithmeticReference.Operation, _ layout: BroadcastLayout) {
            if !BinaryArithmeticOptimized.supportsFloat(operation) {
                self = .referenceRows
            } else {
                self = layout.isElementwise ? .vectorElementwise : .vectorRows
            }
        }
    }

    private let operation: BinaryArithmeticReference.Operation
    private let name: String
    private var plan = Plan.unprepared
    /// Output size from which an 8-bit operator is tabulated (the table costs 64K element evaluations).
    static let pairTableMinimumElements = 16384

    /// For a prepared same-shape 8-bit MUL: its element function on a pair of codes (with the
    /// fused activation), for operator fusion; nil for every other node.
    private(set) var codePairFunction: ((Int32, Int32) -> Int32)?

    /// Whether the operator has a fused activation in its options (ADD, SUB, MUL, DIV).
    private var hasFusedActivation: Bool {
        switch operation {
        case .add, .sub, .mul, .div: return true
        default: return false
        }
    }

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

    /// For a prepared float ADD of two same-shape operands: its activation range, for fusing
    /// it into the node that produces one operand (`ResidualAddFusion`).
    var floatResidualAdd: FloatClamp? {
        guard operation == .add, case let .float32(layout, _, lo, hi) = plan, layout.isElementwise else { return nil }
        return (lo, hi)
    }

    /// True for a prepared float MUL of two same-shape operands without a clamp (`SiLUFusion`).
    var isUnclampedFloatProduct: Bool {
        guard operation == .mul, case let .float32(layout, _, lo, hi) = plan else { return false }
        return layout.isElementwise && lo == -.infinity && hi == .infinity
    }

    /// Adds a clamp to a float ADD / SUB / MUL / DIV without a fused activation (operator fusion).
    func fuseFloatClamp(min: Float, max: Float) -> Bool {
        guard hasFusedActivation, case let .float32(layout, kernel, lo, hi) = plan, lo == -.infinity, hi == .infinity else { return false }
        plan = .float32(layout, kernel, min: min, max: max)
        return true
    }

    func prepare(_ node: NodeContext) throws {
        plan = .unprepared
        codePairFunction = nil
        let a = try node.input(0), b = try node.input(1), out = try node.output(0)
        try ElementwiseSupport.requireSameType([a, b], name)
        let layout = try ElementwiseSupport.broadcastLayout(a.shape, b.shape, name)
        let options = try typedOptions(node)
        let activation = try ElementwiseActivation(options.activation, name)
        let type = a.type
        let op = operation, name = self.name
        let next: Plan
        switch type {
        case .float32:
            let (lo, hi) = activation.floatRange
            next = .float32(layout, FloatKernel(op, layout), min: lo, max: hi)
        case .int32:
            let (lo, hi) = activation.integerRange(Int32.self)
            next = .int32 { a, b, o, _ in
                do {
                    try BinaryArithmeticReference.int32(op, layout: layout, rows: 0..<layout.rowCount, a, b, o, activationMin: lo, activationMax: hi)
                } catch { throw InterpreterError.invocationFailed("\(name): division by zero") }
            }
        case .int64:
            let (lo, hi) = activation.integerRange(Int64.self)
            next = .int64 { a, b, o, _ in
                do {
                    try BinaryArithmeticReference.int64(op, layout: layout, rows: 0..<layout.rowCount, a, b, o, activationMin: lo, activationMax: hi)
                } catch { throw InterpreterError.invocationFailed("\(name): division by zero") }
            }
        case .int8, .uint8, .int16:
            next = try quantizedPlan(a, b, out, layout, activation, potScaleInt16: options.potScaleInt16)
        default:
            throw ElementwiseSupport.unsupported(name, type)
        }
        out.type = type
        out.shape = layout.outputShape
        plan = next
    }

    /// The plan of an 8- or 16-bit operator, with the reference `Prepare`'s checks. Large 8-bit
    /// ADD / SUB / MUL read a 64K pair table unless the build's vector MUL is faster; smaller
    /// ones with contiguous rows use the vector arithmetic, the rest the reference.
    private func quantizedPlan(_ a: RuntimeTensor, _ b: RuntimeTensor, _ out: RuntimeTensor, _ layout: BroadcastLayout,
                               _ activation: ElementwiseActivation, potScaleInt16: Bool) throws -> Plan {
        let type = a.type, eightBit = type != .int16, signed = type == .int8
        let qa = try ElementwiseSupport.perTensor(a, name), qb = try ElementwiseSupport.perTensor(b, name)
        let qo = try ElementwiseSupport.perTensor(out, name)
        let (lo, hi) = activation.quantizedRange(scale: qo.scale, zeroPoint: qo.zeroPoint, type: type)
        let tabulate = eightBit && layout.elementCount >= Self.pairTableMinimumElements
        switch operation {
        case .add, .sub:
            let subtract = operation == .sub
            if type == .int16, let p = try int16PowerOfTwoAdd(qa, qb, qo, layout, lo, hi, potScaleInt16: potScaleInt16) {
                return .int16(layout.isElementwise
                    ? { a, b, o, _ in BinaryArithmeticReference.int16PowerOfTwoAdd(p, range: 0..<layout.elementCount, a, b, o) }
                    : { a, b, o, _ in BinaryArithmeticReference.int16PowerOfTwoAdd(p, layout: layout, rows: 0..<layout.rowCount, a, b, o) })
            }
            let twiceMax = 2 * Double(max(qa.scale, qb.scale))
            try ElementwiseSupport.checkMultiplier(twiceMax / (Double(1 << (type == .int16 ? 15 : 20)) * Double(qo.scale)),
                                                   "output multiplier (2 × larger input scale / output scale)", name)
            let p = BinaryArithmeticReference.QuantizedAddParams(
                input1Scale: qa.scale, input1ZeroPoint: qa.zeroPoint, input2Scale: qb.scale,
                input2ZeroPoint: qb.zeroPoint, outputScale: qo.scale, outputZeroPoint: qo.zeroPoint,
                leftShift: type == .int16 ? 15 : 20, activationMin: lo, activationMax: hi)
            if tabulate {
                return .pairTable(layout, PairTablePlan { .add(signed: signed, p, subtract: subtract) })
            }
            if eightBit && Self.vectorFriendly(layout) && QuantizedBinaryArithmeticOptimized.supports(p) {
                return signed
                    ? .int8(Self.vector(layout, { QuantizedBinaryArithmeticOptimized.add(p, subtract: subtract, range: $0, $1, $2, $3) },
                                        { QuantizedBinaryArithmeticOptimized.add(p, subtract: subtract, layout: $0, rows: $1, $2, $3, $4) }))
                    : .uint8(Self.vector(layout, { QuantizedBinaryArithmeticOptimized.add(p, subtract: subtract, range: $0, $1, $2, $3) },
                                         { QuantizedBinaryArithmeticOptimized.add(p, subtract: subtract, layout: $0, rows: $1, $2, $3, $4) }))
            }
            let add = (p, subtract)
            return Self.codes(type, Self.reference(layout, add) { BinaryArithmeticReference.quantizedAdd(layout: $0, rows: $1, $2, $3, $4, $5.0, subtract: $5.1) },
                              Self.reference(layout, add) { BinaryArithmeticReference.quantizedAdd(layout: $0, rows: $1, $2, $3, $4, $5.0, subtract: $5.1) },
                              Self.reference(layout, add) { BinaryArithmeticReference.quantizedAdd(layout: $0, rows: $1, $2, $3, $4, $5.0, subtract: $5.1) })
        case .mul:
            try ElementwiseSupport.checkMultiplier(Double(qa.scale * qb.scale / qo.scale),
                                                   "output multiplier (input scales' product / output scale)", name)
            let p = BinaryArithmeticReference.QuantizedMulParams(
                input1Scale: qa.scale, input1ZeroPoint: qa.zeroPoint, input2Scale: qb.scale,
                input2ZeroPoint: qb.zeroPoint, outputScale: qo.scale, outputZeroPoint: qo.zeroPoint,
                activationMin: lo, activationMax: hi)
            if eightBit && layout.isElementwise {
                codePairFunction = { BinaryArithmeticReference.quantizedMulElement($0, $1, p) }
            }
            let beatsTable = eightBit && layout.isElementwise && QuantizedBinaryArithmeticOptimized.mulBeatsPairTable(p)
            if tabulate && !beatsTable {
                return .pairTable(layout, PairTablePlan { .mul(signed: signed, p) })
            }
            if beatsTable || (eightBit && Self.vectorFriendly(layout) && QuantizedBinaryArithmeticOptimized.supports(p)) {
                return signed
                    ? .int8(Self.vector(layout, { QuantizedBinaryArithmeticOptimized.mul(p, range: $0, $1, $2, $3) },
                                        { QuantizedBinaryArithmeticOptimized.mul(p, layout: $0, rows: $1, $2, $3, $4) }))
                    : .uint8(Self.vector(layout, { QuantizedBinaryArithmeticOptimized.mul(p, range: $0, $1, $2, $3) },
                                         { QuantizedBinaryArithmeticOptimized.mul(p, layout: $0, rows: $1, $2, $3, $4) }))
            }
            return Self.codes(type, Self.reference(layout, p, BinaryArithmeticReference.quantizedMul),
                              Self.reference(layout, p, BinaryArithmeticReference.quantizedMul),
                              Self.reference(layout, p, BinaryArithmeticReference.quantizedMul))
        case .div:
            try ElementwiseSupport.checkMultiplier(Double(qa.scale / (qb.scale * qo.scale)),
                                                   "output multiplier (dividend scale / (divisor scale × output scale))", name)
            let p = BinaryArithmeticReference.QuantizedDivParams(
                input1Scale: qa.scale, input1ZeroPoint: qa.zeroPoint, input2Scale: qb.scale,
                input2ZeroPoint: qb.zeroPoint, outputScale: qo.scale, outputZeroPoint: qo.zeroPoint,
                activationMin: lo, activationMax: hi)
            if b.isConstant, b.data != nil, try Self.holdsCode(qb.zeroPoint, b, name) {
                throw InterpreterError.invalidModel("\(name): the constant divisor '\(b.name)' holds a zero")
            }
            let check = DivisorCheck(zeroCode: -p.input2Offset, count: b.elementCount,
                                     error: .invocationFailed("\(name): the divisor '\(b.name)' holds a zero"))
            return Self.codes(type, check.guarding(Self.reference(layout, p, BinaryArithmeticReference.quantizedDiv)),
                              check.guarding(Self.reference(layout, p, BinaryArithmeticReference.quantizedDiv)),
                              check.guarding(Self.reference(layout, p, BinaryArithmeticReference.quantizedDiv)))
        case .maximum, .minimum:
            let maximum = operation == .maximum
            func rawMaxMin<Element: FixedWidthInteger>() -> Kernel<Element> {
                Self.reference(layout, maximum) { BinaryArithmeticReference.rawMaxMin($5, layout: $0, rows: $1, $2, $3, $4) }
            }
            return Self.codes(type, rawMaxMin(), rawMaxMin(), rawMaxMin())
        case .squaredDifference where type == .int8:
            let p = BinaryArithmeticReference.QuantizedSquaredDifferenceParams(
                input1Scale: qa.scale, input1ZeroPoint: qa.zeroPoint, input2Scale: qb.scale,
                input2ZeroPoint: qb.zeroPoint, outputScale: qo.scale, outputZeroPoint: qo.zeroPoint,
                activationMin: -128, activationMax: 127)
            return .int8(Self.reference(layout, p, BinaryArithmeticReference.quantizedSquaredDifference))
        default:
            throw ElementwiseSupport.unsupported(name, type)
        }
    }

    /// The reference's power-of-two int16 ADD / SUB parameters (pot_scale_int16, symmetric,
    /// power-of-two scales), or nil when the general int16 path applies.
    private func int16PowerOfTwoAdd(_ qa: (scale: Float, zeroPoint: Int32), _ qb: (scale: Float, zeroPoint: Int32),
                                    _ qo: (scale: Float, zeroPoint: Int32), _ layout: BroadcastLayout, _ lo: Int32, _ hi: Int32,
                                    potScaleInt16: Bool) throws -> BinaryArithmeticReference.Int16PowerOfTwoAddParams? {
        let symmetric = qa.zeroPoint == 0 && qb.zeroPoint == 0 && qo.zeroPoint == 0
        let logs = [qa.scale, qb.scale, qo.scale].map(BinaryArithmeticReference.checkedLog2)
        guard potScaleInt16 && symmetric && logs.allSatisfy(\.isPowerOfTwo) else { return nil }
        let shift1 = logs[0].log2 - logs[2].log2, shift2 = logs[1].log2 - logs[2].log2
        guard shift1 == 0 || shift2 == 0, shift1 <= 0, shift2 <= 0 else {
            throw InterpreterError.invalidModel(
                "\(name): power-of-two int16 scales need one input on the output scale and the other finer")
        }
        // The reference's power-of-two ADD has no broadcasting form (it aborts on unequal
        // element counts); its SUB broadcasts.
        guard layout.isElementwise || operation == .sub else {
            throw ElementwiseSupport.unsupported(
                "\(name) (power-of-two int16 scales with broadcasting, which the reference runtime aborts on)", .int16)
        }
        return .init(input1RightShift: -shift1, input2RightShift: -shift2, activationMin: lo, activationMax: hi,
                     subtract: operation == .sub)
    }

    /// The plan for 8- or 16-bit `type` from its storage type's kernel (the others are not built).
    private static func codes(_ type: TensorType, _ int8: @autoclosure () -> Kernel<Int8>,
                              _ uint8: @autoclosure () -> Kernel<UInt8>, _ int16: @autoclosure () -> Kernel<Int16>) -> Plan {
        switch type {
        case .int8: return .int8(int8())
        case .uint8: return .uint8(uint8())
        default: return .int16(int16())
        }
    }

    /// A reference kernel `f` with parameters `p` over all rows of `layout`, on one thread.
    private static func reference<Element, Parameters>(
        _ layout: BroadcastLayout, _ p: Parameters,
        _ f: @escaping (BroadcastLayout, Range<Int>, UnsafePointer<Element>, UnsafePointer<Element>,
                        UnsafeMutablePointer<Element>, Parameters) -> Void
    ) -> Kernel<Element> {
        let rows = 0..<layout.rowCount
        return { a, b, o, _ in f(layout, rows, a, b, o, p) }
    }

    /// A vector kernel split over the pool: `range` on contiguous operands, else `rows` over
    /// the innermost rows of `layout`.
    private static func vector<Element>(
        _ layout: BroadcastLayout,
        _ range: @escaping (Range<Int>, UnsafePointer<Element>, UnsafePointer<Element>, UnsafeMutablePointer<Element>) -> Void,
        _ rows: @escaping (BroadcastLayout, Range<Int>, UnsafePointer<Element>, UnsafePointer<Element>, UnsafeMutablePointer<Element>) -> Void
    ) -> Kernel<Element> {
        let minElements = WorkSplitPolicy.quantizedArithmeticElements
        if layout.isElementwise {
            return { a, b, o, pool in ElementwiseParallel.flat(layout.elementCount, pool, minElements: minElements) { r in range(r, a, b, o) } }
        }
        return { a, b, o, pool in ElementwiseParallel.rows(layout, pool, minElements: minElements) { r in rows(layout, r, a, b, o) } }
    }

    /// Quantized DIV's invoke-time check: the divisor must not hold the code of a real 0 (the
    /// reference rejects it at invoke).
    private struct DivisorCheck {
        let zeroCode: Int32
        /// Divisor elements.
        let count: Int
        let error: InterpreterError

        /// `kernel` run after checking its divisor (the second operand).
        func guarding<Element: FixedWidthInteger>(_ kernel: @escaping Kernel<Element>) -> Kernel<Element> {
            { a, b, o, pool in
                guard !UnsafeBufferPointer(start: b, count: count).contains(where: { Int32($0) == zeroCode }) else { throw error }
                try kernel(a, b, o, pool)
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
        switch plan {
        case .unprepared:
            throw InterpreterError.allocateTensorsRequired
        case let .float32(layout, kernel, lo, hi):
            let op = operation
            let a = try node.input(0).view(as: Float.self, name).base, b = try node.input(1).view(as: Float.self, name).base
            let o = try node.output(0).mutableView(as: Float.self, name).base
            switch kernel {
            case .referenceRows:
                ElementwiseParallel.rows(layout, node.threads) { r in
                    BinaryArithmeticReference.float32(op, layout: layout, rows: r, a, b, o, activationMin: lo, activationMax: hi)
                }
            case .vectorElementwise:
                ElementwiseParallel.flat(layout.elementCount, node.threads) { r in
                    BinaryArithmeticOptimized.float32Elementwise(op, range: r, a, b, o, activationMin: lo, activationMax: hi)
                }
            case .vectorRows:
                ElementwiseParallel.rows(layout, node.threads) { r in
                    BinaryArithmeticOptimized.float32(op, layout: layout, rows: r, a, b, o, activationMin: lo, activationMax: hi)
                }
            }
        case let .int32(kernel): try run(node, kernel)
        case let .int64(kernel): try run(node, kernel)
        case let .int8(kernel): try run(node, kernel)
        case let .uint8(kernel): try run(node, kernel)
        case let .int16(kernel): try run(node, kernel)
        case let .pairTable(layout, tablePlan):
            guard let table = tablePlan.table else {
                throw InterpreterError.invocationFailed("\(name): pair table not built (finishPlan runs after prepare, before invoke)")
            }
            let a = try node.input(0).byteView(name).base, b = try node.input(1).byteView(name).base
            let o = try node.output(0).mutableByteView(name).base
            if layout.isElementwise {
                ElementwiseParallel.flat(layout.elementCount, node.threads) { r in table.apply(range: r, a, b, o) }
            } else {
                ElementwiseParallel.rows(layout, node.threads) { r in table.apply(layout: layout, rows: r, a, b, o) }
            }
        }
    }

    /// Builds the pair table of a `.pairTable` plan, once operator fusion has decided that this
    /// node runs (a MUL that `ByteMapFusion` or `OutputByteMapFusion` folds away never builds
    /// its 64K table); its bytes are reserved in `node`'s budget first. Other plans need nothing.
    func finishPlan(_ node: NodeContext) throws {
        guard case let .pairTable(_, tablePlan) = plan, tablePlan.table == nil else { return }
        try node.reserveScratch(PairTablePlan.byteCount, "the 8-bit pair table")
        tablePlan.build()
    }

    /// Whether the plan is a pair table and holds it (for tests: a table exists exactly for the
    /// nodes that run after fusion).
    var builtPairTable: Bool? {
        guard case let .pairTable(_, tablePlan) = plan else { return nil }
        return tablePlan.table != nil
    }

    /// Runs `kernel` from inputs 0 and 1 into output 0.
    private func run<Element>(_ node: NodeContext, _ kernel: Kernel<Element>) throws {
        try kernel(try node.input(0).view(as: Element.self, name).base, try node.input(1).view(as: Element.self, name).base,
                   try node.output(0).mutableView(as: Element.self, name).base, node.threads)
    }
}

/// Splits broadcast work over the thread pool by innermost rows.
enum ElementwiseParallel {
    /// Runs `body` on chunks of `0..<layout.rowCount`, each of at least `minElements` elements
    /// (whole rows) where the rows allow.
    static func rows(_ layout: BroadcastLayout, _ pool: ThreadPool,
                     minElements: Int = WorkSplitPolicy.elementwiseElements, _ body: (Range<Int>) -> Void) {
        let rowCount = layout.rowCount
        guard rowCount > 0 else { return }
        let inner = max(1, layout.innerCount)
        let minRows = WorkSplitPolicy.minChunk(work: minElements, workPerUnit: inner)
        if rowCount <= minRows || pool.threadCount == 1 { body(0..<rowCount); return }
        pool.parallelFor(rowCount, minChunk: minRows, body)
    }
}
