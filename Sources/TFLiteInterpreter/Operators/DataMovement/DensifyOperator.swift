import TFLiteKernels
import TFLiteSchema

/// DENSIFY: expands a sparse constant (its `Sparsity` metadata) into a dense tensor of the
/// same type. The interpreter folds it at prepare, so the dense weights become a constant.
final class DensifyOperator: OperatorKernel {
    private var plan: DensifyPlan?
    private var elementSize = 0

    func prepare(_ node: NodeContext) throws {
        let op = "DENSIFY"
        let input = try node.input(0)
        let output = try node.output(0)
        guard let sparsity = input.sparsity else {
            throw InterpreterError.invalidModel("\(op): input '\(input.name)' has no sparsity parameters")
        }
        elementSize = try DataMovementSupport.elementSize(input, op)
        try DataMovementSupport.requireSameType(input, output, op)
        DataMovementSupport.inheritQuantization(from: input, to: output)
        let dimensions = sparsity.dimensions.map {
            DensifyDimension(isCompressed: $0.format == .sparseCSR, denseSize: $0.denseSize,
                             segments: $0.arraySegments.map { Int($0) }, indices: $0.arrayIndices.map { Int($0) })
        }
        let denseShape = try DataMovementSupport.checkedShape(input.shape, op)
        do {
            plan = try DensifyPlan(denseShape: denseShape,
                                   traversalOrder: sparsity.traversalOrder.map { Int($0) },
                                   blockMap: sparsity.blockMap.map { Int($0) }, dimensions: dimensions)
        } catch {
            throw InterpreterError.invalidModel(error.message)
        }
        // The sparse buffer must hold every value the metadata says it stores.
        let (needed, overflow) = plan!.storedValueCount.multipliedReportingOverflow(by: elementSize)
        guard let available = input.constantByteCount, !overflow, available >= needed else {
            throw InterpreterError.invalidModel(
                "\(op): sparse input '\(input.name)' stores \(plan!.storedValueCount) values but its buffer has \(input.constantByteCount ?? 0) bytes")
        }
        output.shape = input.shape
    }

    func invoke(_ node: NodeContext) throws {
        let op = "DENSIFY"
        guard let plan else { throw InterpreterError.allocateTensorsRequired }
        let output = try node.output(0)
        guard output.elementCount > 0 else { return }
        let input = try node.input(0)
        let dst = try DataMovementSupport.data(output, op)
        if plan.storedValueCount == 0 {
            dst.initializeMemory(as: UInt8.self, repeating: 0, count: output.byteCount)
            return
        }
        DensifyReference.run(plan, elementSize: elementSize, input: try DataMovementSupport.data(input, op), output: dst)
    }
}
