import TFLiteKernels
import TFLiteSchema

/// SQUEEZE: removes size-1 dimensions (all, or those in `SqueezeOptions.squeezeDims`).
final class SqueezeOperator: OperatorKernel {
    func prepare(_ node: NodeContext) throws {
        let op = "SQUEEZE"
        let input = try node.input(0)
        let output = try node.output(0)
        let rank = input.shape.count
        let dims = try node.options(SqueezeOptions.self).squeezeDims.map {
            try DataMovementSupport.normalizedAxis(Int($0), rank: rank, op)
        }
        var shape: [Int] = []
        for (i, d) in input.shape.enumerated() {
            if dims.isEmpty ? d == 1 : dims.contains(i) {
                guard d == 1 else { throw InterpreterError.invalidShape("\(op): dimension \(i) has size \(d), not 1") }
                continue
            }
            shape.append(d)
        }
        output.shape = shape
        try DataMovementSupport.requireSameType(input, output, op)
        DataMovementSupport.inheritQuantization(from: input, to: output)
    }

    func invoke(_ node: NodeContext) throws { try ByteCopy.run(try node.input(0), try node.output(0), "SQUEEZE") }
}
