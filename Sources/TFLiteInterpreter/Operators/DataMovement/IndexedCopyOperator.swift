import TFLiteKernels
import TFLiteSchema

/// MIRROR_PAD (constant paddings, `MirrorPadOptions.mode`: REFLECT or SYMMETRIC),
/// TILE (constant multiples) and BROADCAST_TO (constant shape): outputs whose every element
/// is one input element.
final class IndexedCopyOperator: OperatorKernel {
    /// Which operator.
    enum Kind { case mirrorPad, tile, broadcastTo }
    private let kind: Kind
    private var plan: IndexedCopyPlan?
    private var elementSize = 0

    /// Creates the operator.
    init(_ kind: Kind) { self.kind = kind }

    private var op: String {
        switch kind {
        case .mirrorPad: return "MIRROR_PAD"
        case .tile: return "TILE"
        case .broadcastTo: return "BROADCAST_TO"
        }
    }

    func prepare(_ node: NodeContext) throws {
        let op = self.op
        let input = try node.input(0)
        let output = try node.output(0)
        let values = try DataMovementSupport.constantIntegers(try node.input(1), op)
        let shape = input.shape, rank = shape.count
        let plan: IndexedCopyPlan
        switch kind {
        case .mirrorPad:
            guard values.count == 2 * rank else { throw InterpreterError.invalidModel("\(op): paddings must be [\(rank), 2]") }
            let reflect = try node.options(MirrorPadOptions.self).mode == .reflect
            let before = (0..<rank).map { values[2 * $0] }, after = (0..<rank).map { values[2 * $0 + 1] }
            for d in 0..<rank {
                let limit = reflect ? shape[d] - 1 : shape[d]
                guard before[d] >= 0, after[d] >= 0, before[d] <= limit, after[d] <= limit else {
                    throw InterpreterError.invalidModel("\(op): padding \(before[d]),\(after[d]) too large for dimension \(shape[d])")
                }
            }
            _ = try DataMovementSupport.checkedShape((0..<rank).map { shape[$0] + before[$0] + after[$0] }, op)
            plan = IndexedCopyPlan.mirrorPad(inputShape: shape, before: before, after: after, reflect: reflect)
        case .tile:
            guard values.count == rank, values.allSatisfy({ $0 >= 0 }) else {
                throw InterpreterError.invalidModel("\(op): multiples \(values) do not fit rank \(rank)")
            }
            _ = try DataMovementSupport.checkedShape((0..<rank).map { shape[$0] * values[$0] }, op)
            plan = IndexedCopyPlan.tile(inputShape: shape, multiples: values)
        case .broadcastTo:
            let target = try DataMovementSupport.checkedShape(values, op)
            guard target.count >= rank, target.count <= 8 else {
                throw InterpreterError.invalidModel("\(op): cannot broadcast rank \(rank) to \(target)")
            }
            let padded = [Int](repeating: 1, count: target.count - rank) + shape
            for d in 0..<target.count where padded[d] != 1 && padded[d] != target[d] {
                throw InterpreterError.invalidShape("\(op): cannot broadcast \(shape) to \(target)")
            }
            plan = IndexedCopyPlan.broadcast(inputShape: shape, outputShape: target)
        }
        elementSize = try DataMovementSupport.elementSize(input, op)
        try DataMovementSupport.requireSameType(input, output, op)
        DataMovementSupport.inheritQuantization(from: input, to: output)
        output.shape = plan.outputShape
        self.plan = plan
    }

    func invoke(_ node: NodeContext) throws {
        let op = self.op
        guard let plan else { throw InterpreterError.allocateTensorsRequired }
        let output = try node.output(0)
        guard output.elementCount > 0 else { return }
        IndexedCopyReference.run(plan, elementSize: elementSize, input: try DataMovementSupport.data(try node.input(0), op),
                        output: try DataMovementSupport.data(output, op))
    }
}
