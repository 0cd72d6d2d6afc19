import TFLiteKernels
import TFLiteSchema

/// QUANTIZE: float32 → uint8/int8/int16 (per tensor, or per channel when the output has
/// several scales), and requantization between uint8, int8, int16 and int32.
final class QuantizeOperator: OperatorKernel {
    private var multiplier = QuantizedMultiplier(multiplier: 0, shift: 0)
    private var perChannel: (outer: Int, channels: Int, inner: Int, scales: [Float], zeros: [Int32])?
    /// 8-bit → 8-bit requantization as a table of the output code of every input code, built at
    /// prepare with the reference arithmetic (bit-exact by construction).
    private var byteTable: ByteTableLookup?

    func prepare(_ node: NodeContext) throws {
        let op = "QUANTIZE"
        let input = try node.input(0)
        let output = try node.output(0)
        guard let q = output.quantization, !q.scales.isEmpty, q.scales.count == q.zeroPoints.count else {
            throw InterpreterError.invalidModel("\(op): output '\(output.name)' has no quantization parameters")
        }
        guard q.scales.allSatisfy({ $0 > 0 && $0.isFinite }) else {
            throw InterpreterError.invalidModel("\(op): output scale must be positive")
        }
        output.shape = input.shape
        perChannel = nil
        byteTable = nil
        switch (input.type, output.type) {
        case (.float32, .uint8), (.float32, .int8), (.float32, .int16):
            if q.scales.count > 1 {
                let axis = q.quantizedDimension
                guard axis >= 0, axis < input.shape.count, input.shape[axis] == q.scales.count else {
                    throw InterpreterError.invalidModel("\(op): per-channel parameters do not match dimension \(axis)")
                }
                perChannel = (input.shape[..<axis].reduce(1, *), q.scales.count, input.shape[(axis + 1)...].reduce(1, *),
                              q.scales, q.zeroPoints.map { Int32(truncatingIfNeeded: $0) })
            }
        case (.uint8, .uint8), (.uint8, .int8), (.int8, .int8), (.int8, .uint8), (.int8, .int16), (.int8, .int32),
             (.int16, .int16), (.int16, .int8), (.int16, .int32), (.uint8, .int16), (.int16, .uint8):
            guard input.scale > 0, input.scale.isFinite, q.scales.count == 1 else {
                throw InterpreterError.invalidModel("\(op): requantization needs per-tensor parameters")
            }
            multiplier = try QuantizedMultiplier(checking: Double(input.scale) / Double(output.scale),
                                                 "multiplier (input scale / output scale)")
            if [.int8, .uint8].contains(input.type) && [.int8, .uint8].contains(output.type) {
                byteTable = requantizationTable(inputSigned: input.type == .int8, input.zeroPoint, output.zeroPoint,
                                                outputSigned: output.type == .int8)
            }
        default:
            throw InterpreterError.invalidModel("\(op): unsupported conversion \(input.type) → \(output.type)")
        }
    }

    func invoke(_ node: NodeContext) throws {
        let op = "QUANTIZE"
        let input = try node.input(0), output = try node.output(0)
        let n = output.elementCount
        guard n > 0 else { return }
        _ = try DataMovementSupport.data(input, op); _ = try DataMovementSupport.data(output, op)
        if input.type == .float32 {
            let x = try input.view(as: Float.self, op).base
            switch output.type {
            case .uint8: quantize(x, n, output, try output.mutableView(as: UInt8.self, op).base, node.threads)
            case .int8: quantize(x, n, output, try output.mutableView(as: Int8.self, op).base, node.threads)
            default: quantize(x, n, output, try output.mutableView(as: Int16.self, op).base, node.threads)
            }
            return
        }
        if let table = byteTable {
            let x = try input.byteView(op).base, y = try output.mutableByteView(op).base
            node.threads.parallelFor(n, minChunk: WorkSplitPolicy.byteTableElements) { r in table.apply(range: r, x, y) }
            return
        }
        switch input.type {
        case .uint8: try requantize(input, as: UInt8.self, output, n, node.threads, op)
        case .int8: try requantize(input, as: Int8.self, output, n, node.threads, op)
        default: try requantize(input, as: Int16.self, output, n, node.threads, op)
        }
    }

    /// The requantization of every 8-bit input code, computed by the reference loop.
    private func requantizationTable(inputSigned: Bool, _ zIn: Int32, _ zOut: Int32,
                                     outputSigned: Bool) -> ByteTableLookup {
        let codes = (0..<256).map { UInt8($0) }
        var out = [UInt8](repeating: 0, count: 256)
        let m = multiplier
        func fill<T: FixedWidthInteger, U: FixedWidthInteger>(_ x: UnsafePointer<T>, _ y: UnsafeMutablePointer<U>) {
            QuantizeReference.requantize(x, count: 256, inputZeroPoint: zIn, multiplier: m, outputZeroPoint: zOut, output: y)
        }
        codes.withUnsafeBufferPointer { c in
            out.withUnsafeMutableBufferPointer { o in
                c.withMemoryRebound(to: Int8.self) { signedCodes in
                    o.withMemoryRebound(to: Int8.self) { signedOut in
                        switch (inputSigned, outputSigned) {
                        case (true, true): fill(signedCodes.baseAddress!, signedOut.baseAddress!)
                        case (true, false): fill(signedCodes.baseAddress!, o.baseAddress!)
                        case (false, true): fill(c.baseAddress!, signedOut.baseAddress!)
                        case (false, false): fill(c.baseAddress!, o.baseAddress!)
                        }
                    }
                }
            }
        }
        return ByteTableLookup(out)
    }

    private func quantize<T: FixedWidthInteger>(_ x: UnsafePointer<Float>, _ n: Int, _ output: RuntimeTensor,
                                                _ y: UnsafeMutablePointer<T>, _ threads: ThreadPool) {
        if let pc = perChannel {
            QuantizeReference.affinePerChannel(x, outerCount: pc.outer, channelCount: pc.channels, innerCount: pc.inner,
                                      scales: pc.scales, zeroPoints: pc.zeros, output: y)
        } else {
            let scale = output.scale, zeroPoint = output.zeroPoint
            threads.parallelFor(n, minChunk: WorkSplitPolicy.quantizeElements) { r in
                QuantizeReference.affine(x + r.lowerBound, count: r.count, scale: scale, zeroPoint: zeroPoint, output: y + r.lowerBound)
            }
        }
    }

    /// Requantizes `input` (elements of type `T`) into `output`, whose type is uint8, int8, int16 or int32.
    private func requantize<T: FixedWidthInteger>(_ input: RuntimeTensor, as _: T.Type, _ output: RuntimeTensor,
                                                  _ n: Int, _ threads: ThreadPool, _ op: String) throws {
        let x = try input.view(as: T.self, op).base
        switch output.type {
        case .uint8: requantize(x, n, input, output, try output.mutableView(as: UInt8.self, op).base, threads)
        case .int8: requantize(x, n, input, output, try output.mutableView(as: Int8.self, op).base, threads)
        case .int16: requantize(x, n, input, output, try output.mutableView(as: Int16.self, op).base, threads)
        default: requantize(x, n, input, output, try output.mutableView(as: Int32.self, op).base, threads)
        }
    }

    private func requantize<T: FixedWidthInteger, U: FixedWidthInteger>(
        _ x: UnsafePointer<T>, _ n: Int, _ input: RuntimeTensor, _ output: RuntimeTensor,
        _ y: UnsafeMutablePointer<U>, _ threads: ThreadPool) {
        let zIn = input.zeroPoint, zOut = output.zeroPoint, m = multiplier
        threads.parallelFor(n, minChunk: WorkSplitPolicy.quantizeElements) { r in
            QuantizeReference.requantize(x + r.lowerBound, count: r.count, inputZeroPoint: zIn, multiplier: m, outputZeroPoint: zOut,
                                output: y + r.lowerBound)
        }
    }
}
