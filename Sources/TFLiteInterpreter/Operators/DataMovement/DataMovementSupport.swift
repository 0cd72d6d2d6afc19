import TFLiteKernels
import TFLiteSchema

/// Checks and conversions shared by the data-movement operators.
enum DataMovementSupport {
    /// Copies a strided window (SLICE, STRIDED_SLICE) into its contiguous output: split over
    /// the thread pool by contiguous runs when the innermost step is 1, else the reference loop.
    static func copyWindow(_ window: StridedWindow, elementSize: Int, input: UnsafeRawPointer,
                           output: UnsafeMutableRawPointer, threads: ThreadPool) {
        guard let runs = RowCopyOptimized.runCount(window) else {
            StridedCopyReference.run(window, elementSize: elementSize, input: input, output: output)
            return
        }
        let runBytes = (window.counts.last ?? 1) * elementSize
        threads.parallelFor(runs, minChunk: WorkSplitPolicy.movedBytesMinChunk(unitBytes: runBytes)) { r in
            RowCopyOptimized.stridedRuns(window, runs: r, elementSize: elementSize, input: input, output: output)
        }
    }

    /// Byte width of `tensor`'s elements, or `invalidModel` for types the kernels can't move.
    static func elementSize(_ tensor: RuntimeTensor, _ op: String) throws -> Int {
        guard let size = tensor.type.byteSize, ElementSize.isSupported(size) else {
            throw InterpreterError.invalidModel("\(op): unsupported tensor type \(tensor.type) of '\(tensor.name)'")
        }
        return size
    }

    /// The contents of an int32 or int64 tensor whose data is available now (a constant, or
    /// any tensor at invoke time).
    static func integers(_ tensor: RuntimeTensor, _ op: String) throws -> [Int] {
        let count = tensor.elementCount
        if count == 0 { return [] }
        guard tensor.data != nil else {
            throw InterpreterError.invalidModel("\(op): tensor '\(tensor.name)' has no data")
        }
        switch tensor.type {
        case .int32:
            let p = try tensor.view(as: Int32.self, op)
            return (0..<count).map { Int(p[$0]) }
        case .int64:
            let p = try tensor.view(as: Int64.self, op)
            return try (0..<count).map {
                guard let v = Int(exactly: p[$0]) else { throw InterpreterError.invalidModel("\(op): index out of range") }
                return v
            }
        default:
            throw InterpreterError.invalidModel("\(op): '\(tensor.name)' must be int32 or int64, is \(tensor.type)")
        }
    }

    /// The contents of `tensor`, which must be a constant: output shapes depend on it.
    static func constantIntegers(_ tensor: RuntimeTensor, _ op: String) throws -> [Int] {
        guard tensor.isConstant else {
            throw InterpreterError.invalidModel(
                "\(op): '\(tensor.name)' must be constant (its values decide the output shape)")
        }
        return try integers(tensor, op)
    }

    /// `axis` in `0..<rank` after adding `rank` to negative values, or `invalidModel`.
    static func normalizedAxis(_ axis: Int, rank: Int, _ op: String) throws -> Int {
        let a = axis < 0 ? axis + rank : axis
        guard a >= 0, a < max(rank, 1) else {
            throw InterpreterError.invalidModel("\(op): axis \(axis) out of range for rank \(rank)")
        }
        return a
    }

    /// Validates a shape (no negative dimension, element count without overflow).
    static func checkedShape(_ shape: [Int], _ op: String) throws -> [Int] {
        var count = 1
        for d in shape {
            guard d >= 0 else { throw InterpreterError.invalidShape("\(op): negative dimension in \(shape)") }
            let (product, overflow) = count.multipliedReportingOverflow(by: d)
            guard !overflow, product <= Int(Int32.max) else {
                throw InterpreterError.invalidShape("\(op): shape \(shape) is too large")
            }
            count = product
        }
        return shape
    }

    /// Requires `output` to have `input`'s element type; sets it when the model left it unset.
    static func requireSameType(_ input: RuntimeTensor, _ output: RuntimeTensor, _ op: String) throws {
        guard input.type == output.type else {
            throw InterpreterError.invalidModel("\(op): input type \(input.type) differs from output type \(output.type)")
        }
    }

    /// Gives `output` the input's quantization when the model recorded none.
    static func inheritQuantization(from input: RuntimeTensor, to output: RuntimeTensor) {
        if output.quantization == nil { output.quantization = input.quantization }
    }

    /// The tensor's data pointer, or `invocationFailed` when it was not allocated.
    static func data(_ tensor: RuntimeTensor, _ op: String) throws -> UnsafeMutableRawPointer {
        guard let data = tensor.data else {
            throw InterpreterError.invocationFailed("\(op): tensor '\(tensor.name)' is not allocated")
        }
        return data
    }

    /// True when the tensor holds quantized integers (uint8, int8, int16 with parameters).
    static func isQuantizedInteger(_ tensor: RuntimeTensor) -> Bool {
        switch tensor.type {
        case .uint8, .int8, .int16: return true
        default: return false
        }
    }
}
