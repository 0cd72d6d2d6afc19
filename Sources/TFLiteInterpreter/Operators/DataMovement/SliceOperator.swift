import TFLiteKernels
import TFLiteSchema

/// SLICE: a window given by constant `begin` and `size` tensors (inputs 1, 2; int32 or int64);
/// size -1 runs to the end of the dimension.
final class SliceOperator: OperatorKernel {
    private var window: StridedWindow?
    private var elementSize = 0

    func prepare(_ node: NodeContext) throws {
        let op = "SLICE"
        let input = try node.input(0)
        let output = try node.output(0)
        let begin = try DataMovementSupport.constantIntegers(try node.input(1), op)
        let size = try DataMovementSupport.constantIntegers(try node.input(2), op)
        let rank = input.shape.count
        guard begin.count == rank, size.count == rank else {
            throw InterpreterError.invalidModel("\(op): begin and size must have \(rank) entries")
        }
        var counts: [Int] = []
        for d in 0..<rank {
            let dim = input.shape[d]
            let count = size[d] == -1 ? dim - begin[d] : size[d]
            guard begin[d] >= 0, count >= 0, begin[d] + count <= dim else {
                throw InterpreterError.invalidModel("\(op): begin \(begin) size \(size) leave shape \(input.shape)")
            }
            counts.append(count)
        }
        elementSize = try DataMovementSupport.elementSize(input, op)
        try DataMovementSupport.requireSameType(input, output, op)
        DataMovementSupport.inheritQuantization(from: input, to: output)
        output.shape = counts
        window = StridedWindow(inputShape: input.shape, starts: begin, counts: counts,
                               steps: [Int](repeating: 1, count: rank))
    }

    func invoke(_ node: NodeContext) throws {
        let op = "SLICE"
        guard let window else { throw InterpreterError.allocateTensorsRequired }
        let output = try node.output(0)
        guard output.elementCount > 0 else { return }
        DataMovementSupport.copyWindow(window, elementSize: elementSize,
                                       input: try DataMovementSupport.data(try node.input(0), op),
                                       output: try DataMovementSupport.data(output, op), threads: node.threads)
    }
}
