import TFLiteKernels
import TFLiteSchema

/// CONCATENATION: joins the inputs along `axis` (`ConcatenationOptions`: axis;
/// the fused activation must be NONE). uint8 inputs whose quantization differs from the output's are
/// requantized; int8/int16 inputs must share the output's parameters, as in the reference.
final class ConcatenationOperator: OperatorKernel {
    private var outerCount = 0
    private var innerCounts: [Int] = []
    private var innerByteCounts: [Int] = []
    private var inputQuantization: [ConcatenationInputQuantization] = []
    private var needsRequantization = false
    private var inputPointers: [UnsafeRawPointer] = []

    func prepare(_ node: NodeContext) throws {
        let op = "CONCATENATION"
        guard !node.inputs.isEmpty else { throw InterpreterError.invalidModel("\(op): no inputs") }
        let inputs = try (0..<node.inputs.count).map { try node.input($0) }
        let output = try node.output(0)
        let first = inputs[0]
        let rank = first.shape.count
        let axis = try DataMovementSupport.normalizedAxis(Int(try node.options(ConcatenationOptions.self).axis), rank: rank, op)
        let elementSize = try DataMovementSupport.elementSize(first, op)
        var axisSum = 0
        for t in inputs {
            guard t.type == first.type, t.shape.count == rank else {
                throw InterpreterError.invalidModel("\(op): inputs differ in type or rank")
            }
            for d in 0..<rank where d != axis && t.shape[d] != first.shape[d] {
                throw InterpreterError.invalidShape("\(op): input shapes \(first.shape) and \(t.shape) differ off the axis")
            }
            axisSum += t.shape[axis]
        }
        try DataMovementSupport.requireSameType(first, output, op)
        var outputShape = first.shape
        outputShape[axis] = axisSum
        output.shape = try DataMovementSupport.checkedShape(outputShape, op)
        DataMovementSupport.inheritQuantization(from: first, to: output)

        outerCount = first.shape[..<axis].reduce(1, *)
        let inner = first.shape[(axis + 1)...].reduce(1, *)
        innerCounts = inputs.map { $0.shape[axis] * inner }
        innerByteCounts = innerCounts.map { $0 * elementSize }
        inputPointers = []
        inputPointers.reserveCapacity(inputs.count)

        needsRequantization = false
        inputQuantization = inputs.map { ConcatenationInputQuantization(scale: $0.scale, zeroPoint: $0.zeroPoint) }
        if first.type == .uint8 {
            needsRequantization = inputQuantization.contains {
                $0.scale != output.scale || $0.zeroPoint != output.zeroPoint
            }
        } else if first.type == .int8 || first.type == .int16 {
            for q in inputQuantization where q.scale != output.scale || q.zeroPoint != output.zeroPoint {
                throw InterpreterError.invalidModel("\(op): \(first.type) inputs must share the output's quantization")
            }
        }

        // The reference rejects fused activations on CONCATENATION.
        let fused = try node.options(ConcatenationOptions.self).fusedActivationFunction
        guard fused == .none else {
            throw InterpreterError.invalidModel("\(op): fused activation \(fused) is not supported (as in the reference)")
        }
    }

    func invoke(_ node: NodeContext) throws {
        let op = "CONCATENATION"
        let output = try node.output(0)
        guard output.elementCount > 0 else { return }
        let out = try DataMovementSupport.data(output, op)
        inputPointers.removeAll(keepingCapacity: true)
        for i in 0..<node.inputs.count {
            let t = try node.input(i)
            inputPointers.append(UnsafeRawPointer(t.elementCount == 0 ? out : try DataMovementSupport.data(t, op)))
        }
        if needsRequantization {
            ConcatenationReference.runUInt8(outerCount: outerCount, innerCounts: innerCounts, inputs: inputPointers,
                                   inputQuantization: inputQuantization, outputScale: output.scale,
                                   outputZeroPoint: output.zeroPoint, output: try output.mutableView(as: UInt8.self, op).base)
        } else {
            let counts = innerByteCounts, sources = inputPointers
            let rowBytes = counts.reduce(0, +)
            let minRows = WorkSplitPolicy.movedBytesMinChunk(unitBytes: rowBytes)
            node.threads.parallelFor(outerCount, minChunk: minRows) { rows in
                RowCopyOptimized.concatenate(outer: rows, innerByteCounts: counts, rowBytes: rowBytes, inputs: sources, output: out)
            }
        }
    }
}
