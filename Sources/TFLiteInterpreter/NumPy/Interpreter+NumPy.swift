import Foundation

extension Interpreter {
    /// Runs the model once on `.npy` arrays, one per input in order, and returns the outputs
    /// as arrays with the outputs' types and shapes. Allocates as needed.
    ///
    /// Each input's type must equal the model input's. When an input's shape differs from the
    /// model's, the input is resized if the model allows it (its shape signature marks the
    /// differing dimensions dynamic, or it has none); otherwise this throws
    /// ``InterpreterError/invalidShape(_:)`` naming the input and both shapes.
    public func run(_ inputs: [NumPyArray]) throws -> [NumPyArray] {
        try invoke(with: inputs)
        return try (0..<outputTensorCount).map { k in
            let tensor = try output(at: k)
            return try NumPyArray(dataType: NumPyArray.DataType(tensor.dataType), shape: tensor.shape.dimensions,
                                  data: tensor.data)
        }
    }

    /// Writes output `index` (after ``invoke()``) as a `.npy` file straight from the
    /// interpreter's memory: no copy of the output is made, however large it is.
    public func writeOutput(at index: Int, toNumPyFile path: String) throws -> (NumPyArray.DataType, [Int]) {
        let (type, shape) = try outputTypeAndShape(at: index)
        let dataType = NumPyArray.DataType(type)
        try withUnsafeOutputBytes(at: index) { bytes in
            try NumPyArray.write(dataType: dataType, shape: shape, bytes: bytes, to: path)
        }
        return (dataType, shape)
    }

    /// Resizes, allocates, copies `inputs` (one `.npy` array per model input, in order) in
    /// place and invokes once; the outputs are then read with ``output(at:)``,
    /// ``withUnsafeOutputBytes(at:_:)`` or ``writeOutput(at:toNumPyFile:)``. Same checks as ``run(_:)``.
    public func invoke(with inputs: [NumPyArray]) throws {
        guard inputs.count == inputTensorCount else {
            throw InterpreterError.invalidArgument("the model has \(inputTensorCount) inputs, got \(inputs.count)")
        }
        let subgraph = model.file.subgraphs[0]
        var resized: [String] = []
        for (k, array) in inputs.enumerated() {
            let declared = subgraph.tensors[subgraph.inputs[k]]
            let name = declared.name
            guard let modelType = Tensor.DataType(declared.type), modelType == array.dataType.tensorDataType else {
                throw InterpreterError.invalidTensorDataType(
                    expected: "\(declared.type) for input \(k) '\(name)'", got: "\(array.dataType)")
            }
            let current = try inputShape(at: k).dimensions
            guard current != array.shape else { continue }
            if let signature = declared.shapeSignature {
                let resizable = signature.count == array.shape.count
                    && zip(signature, array.shape).allSatisfy { fixed, wanted in fixed < 0 || fixed == wanted }
                guard resizable else {
                    throw InterpreterError.invalidShape(
                        "input \(k) '\(name)' needs shape \(signature.map { $0 < 0 ? "?" : String($0) }), got \(array.shape)")
                }
            }
            resized.append("input \(k) '\(name)' has shape \(array.shape), the model's is \(declared.shape)")
            try resizeInput(at: k, to: Tensor.Shape(array.shape))
        }
        do { try allocateTensors() } catch {
            guard !resized.isEmpty else { throw error }
            throw InterpreterError.invalidShape(
                "\(resized.joined(separator: "; ")), and the model does not run at that shape: \(error)")
        }
        for (k, array) in inputs.enumerated() {
            try withUnsafeMutableInputBytes(at: k) { destination in
                guard array.data.count == destination.count else {
                    throw InterpreterError.invalidDataCount(provided: array.data.count, required: destination.count)
                }
                array.data.withUnsafeBytes { source in
                    if let base = source.baseAddress, !source.isEmpty { destination.baseAddress!.copyMemory(from: base, byteCount: source.count) }
                }
            }
        }
        try invoke()
    }
}
