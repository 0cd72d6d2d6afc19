import TFLiteKernels
import TFLiteSchema

/// PAD and PADV2: constant padding by the constant `[rank, 2]` paddings tensor (input 1).
/// PAD pads with 0 (the output zero point for quantized tensors); PADV2 with the scalar
/// constant_values tensor (input 2) when present.
final class PadOperator: OperatorKernel {
    private let op: String
    private var plan: PadPlan?
    private var elementSize = 0
    /// The pad element's bytes (at most 16).
    private var padValue = SIMD2<UInt64>(0, 0)
    /// The padding as the last prepare found it, for ``PadFusion``.
    private(set) var constantPad: ConstantPad?

    /// Creates PAD (`isV2 == false`) or PADV2.
    init(isV2: Bool) { op = isV2 ? "PADV2" : "PAD" }

    func prepare(_ node: NodeContext) throws {
        let op = self.op
        constantPad = nil
        let input = try node.input(0)
        let output = try node.output(0)
        let paddings = try DataMovementSupport.constantIntegers(try node.input(1), op)
        let rank = input.shape.count
        guard paddings.count == rank * 2 else {
            throw InterpreterError.invalidModel("\(op): paddings must have shape [\(rank), 2]")
        }
        let before = (0..<rank).map { paddings[2 * $0] }, after = (0..<rank).map { paddings[2 * $0 + 1] }
        guard let plan = PadPlan(inputShape: input.shape, before: before, after: after) else {
            throw InterpreterError.invalidModel("\(op): invalid paddings \(paddings) for rank \(rank) (max 6, non-negative)")
        }
        elementSize = try DataMovementSupport.elementSize(input, op)
        try DataMovementSupport.requireSameType(input, output, op)
        DataMovementSupport.inheritQuantization(from: input, to: output)
        output.shape = try DataMovementSupport.checkedShape(plan.outputShape, op)
        self.plan = plan
        if node.inputs.count >= 3, let value = node.inputs[2] {
            guard value.type == input.type, value.elementCount == 1 else {
                throw InterpreterError.invalidModel("\(op): constant_values must be one \(input.type) element")
            }
        }
        padValue = SIMD2(0, 0)
        if DataMovementSupport.isQuantizedInteger(output) {
            let zero = output.zeroPoint
            withUnsafeMutableBytes(of: &padValue) { bytes in
                switch output.type {
                case .uint8: bytes.storeBytes(of: UInt8(truncatingIfNeeded: zero), as: UInt8.self)
                case .int8: bytes.storeBytes(of: Int8(truncatingIfNeeded: zero), as: Int8.self)
                default: bytes.storeBytes(of: Int16(truncatingIfNeeded: zero), as: Int16.self)
                }
            }
        }
        constantPad = ConstantPad(before: before, after: after, code: Self.padCode(node, output: output, padValue: padValue),
                                  padsFloatZeros: Self.padsFloatZeros(node, output: output))
    }

    /// Whether the padding is float32 +0.0: PAD's, or PADV2's constant_values when it is a
    /// constant +0.0.
    private static func padsFloatZeros(_ node: NodeContext, output: RuntimeTensor) -> Bool {
        guard output.type == .float32 else { return false }
        guard node.inputs.count >= 3, let value = node.inputs[2] else { return true }
        guard value.isConstant, let data = value.data else { return false }
        return data.load(as: UInt32.self) == 0
    }

    /// The 8-bit code the padding holds: PADV2's constant_values when it is a constant, else
    /// the first byte of `padValue` (the output zero point); nil for other element types or a
    /// constant_values tensor computed at invoke.
    private static func padCode(_ node: NodeContext, output: RuntimeTensor, padValue: SIMD2<UInt64>) -> Int32? {
        var byte = UInt8(truncatingIfNeeded: padValue[0])
        if node.inputs.count >= 3, let value = node.inputs[2] {
            guard value.isConstant, let data = value.data else { return nil }
            byte = data.load(as: UInt8.self)
        }
        switch output.type {
        case .int8: return Int32(Int8(bitPattern: byte))
        case .uint8: return Int32(byte)
        default: return nil
        }
    }

    func invoke(_ node: NodeContext) throws {
        guard let plan else { throw InterpreterError.allocateTensorsRequired }
        let output = try node.output(0)
        guard output.elementCount > 0 else { return }
        let input = try node.input(0)
        let src = UnsafeRawPointer(input.elementCount > 0 ? try DataMovementSupport.data(input, op)
                                                           : try DataMovementSupport.data(output, op))
        let dst = try DataMovementSupport.data(output, op)
        let size = elementSize
        let minRows = WorkSplitPolicy.movedBytesMinChunk(unitBytes: PadOptimized.rowBytes(plan, elementSize: size))
        func pad(_ value: UnsafeRawPointer) {
            node.threads.parallelFor(PadOptimized.rowCount(plan), minChunk: minRows) { rows in
                PadOptimized.run(plan, rows: rows, elementSize: size, input: src, padValue: value, output: dst)
            }
        }
        if node.inputs.count >= 3, let value = node.inputs[2] {
            pad(UnsafeRawPointer(try DataMovementSupport.data(value, op)))
        } else {
            var value = padValue
            withUnsafeBytes(of: &value) { pad($0.baseAddress!) }
        }
    }
}

extension PadOperator: ConstantPadKernel {
    var roles: KernelRoles { KernelRoles(constantPad: self) }
}
