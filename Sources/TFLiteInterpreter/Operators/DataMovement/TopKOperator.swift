import TFLiteKernels
import TFLiteSchema

/// TOPK_V2: the constant k largest values along the last dimension and their int32 indices.
final class TopKOperator: OperatorKernel {
    /// The top-k search of every row from the input values into the values output and the
    /// int32 indices output, with the row geometry and the row-index scratch captured.
    typealias Kernel<Element> = (UnsafePointer<Element>, UnsafeMutablePointer<Element>, UnsafeMutablePointer<Int32>) -> Void

    /// How a node runs, decided at prepare from the element type.
    enum Plan {
        /// Not prepared (or the last prepare failed): invoke throws.
        case unprepared
        /// k is 0 or there are no rows: invoke does nothing.
        case empty
        case float32(Kernel<Float>)
        case uint8(Kernel<UInt8>)
        case int8(Kernel<Int8>)
        case int16(Kernel<Int16>)
        case int32(Kernel<Int32>)
        case int64(Kernel<Int64>)
    }

    private let op = "TOPK_V2"
    private var plan = Plan.unprepared

    func prepare(_ node: NodeContext) throws {
        plan = .unprepared
        let input = try node.input(0)
        let kValues = try DataMovementSupport.constantIntegers(try node.input(1), op)
        guard kValues.count == 1, let last = input.shape.last, kValues[0] >= 0, kValues[0] <= last else {
            throw InterpreterError.invalidModel("\(op): k must be a scalar in 0...last dimension")
        }
        let values = try node.output(0), indices = try node.output(1)
        switch input.type {
        case .float32, .uint8, .int8, .int16, .int32, .int64: break
        default: throw InterpreterError.invalidModel("\(op): unsupported type \(input.type)")
        }
        try DataMovementSupport.requireSameType(input, values, op)
        guard indices.type == .int32 else { throw InterpreterError.invalidModel("\(op): indices output must be int32") }
        DataMovementSupport.inheritQuantization(from: input, to: values)
        let k = kValues[0], rowSize = last, rowCount = input.shape.dropLast().reduce(1, *)
        var shape = input.shape
        shape[shape.count - 1] = k
        values.shape = shape
        indices.shape = shape
        let rowIndices = try node.requestScratch(Int32.self, count: rowSize, "the row indices")
        func kernel<T: Comparable>(_: T.Type) -> Kernel<T> {
            { src, dst, idx in
                rowIndices.withUnsafeMutableBufferPointer { scratch in
                    TopKReference.run(rowCount: rowCount, rowSize: rowSize, k: k, input: src, values: dst, indices: idx, scratch: scratch)
                }
            }
        }
        guard k > 0, rowCount > 0 else { plan = .empty; return }
        switch input.type {
        case .float32: plan = .float32(kernel(Float.self))
        case .uint8: plan = .uint8(kernel(UInt8.self))
        case .int8: plan = .int8(kernel(Int8.self))
        case .int16: plan = .int16(kernel(Int16.self))
        case .int32: plan = .int32(kernel(Int32.self))
        default: plan = .int64(kernel(Int64.self))
        }
    }

    func invoke(_ node: NodeContext) throws {
        switch plan {
        case .unprepared: throw InterpreterError.allocateTensorsRequired
        case .empty: return
        case let .float32(kernel): try run(node, kernel)
        case let .uint8(kernel): try run(node, kernel)
        case let .int8(kernel): try run(node, kernel)
        case let .int16(kernel): try run(node, kernel)
        case let .int32(kernel): try run(node, kernel)
        case let .int64(kernel): try run(node, kernel)
        }
    }

    /// Runs `kernel` from input 0 into outputs 0 (values) and 1 (indices), after checking that
    /// the three tensors have data.
    private func run<Element>(_ node: NodeContext, _ kernel: Kernel<Element>) throws {
        let input = try node.input(0), values = try node.output(0), indices = try node.output(1)
        _ = try DataMovementSupport.data(input, op); _ = try DataMovementSupport.data(values, op)
        _ = try DataMovementSupport.data(indices, op)
        kernel(try input.view(as: Element.self, op).base, try values.mutableView(as: Element.self, op).base,
               try indices.mutableView(as: Int32.self, op).base)
    }
}
