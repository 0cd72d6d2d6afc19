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
        let src = try DataMovementSupport.data(input, op), dst = try DataMovementSupport.data(output, op)
        if input.type == .float32 {
            let x = UnsafePointer(src.assumingMemoryBound(to: Float.self))
            switch output.type {
            case .uint8: quantize(x, n, output, dst.assumingMemoryBound(to: UInt8.self), node.threads)
            case .int8: quantize(x, n, output, dst.assumingMemoryBound(to: Int8.self), node.threads)
            default: quantize(x, n, output, dst.assumingMemoryBound(to: Int16.self), node.threads)
            }
            return
        }
        if let table = byteTable {
            let x = UnsafePointer(src.assumingMemoryBound(to: UInt8.self)), y = dst.assumingMemoryBound(to: UInt8.self)
            node.threads.parallelFor(n, minChunk: Self.tableChunk) { r in table.apply(range: r, x, y) }
            return
        }
        switch input.type {
        case .uint8: requantize(src.assumingMemoryBound(to: UInt8.self), n, input, output, dst, node.threads)
        case .int8: requantize(src.assumingMemoryBound(to: Int8.self), n, input, output, dst, node.threads)
        default: requantize(src.assumingMemoryBound(to: Int16.self), n, input, output, dst, node.threads)
        }
    }

    /// Elements per thread chunk for the element-wise loops.
    private static let chunk = 8_192
    /// Elements per thread chunk for the table lookup (about 1 ns per 4 elements).
    private static let tableChunk = 65_536

    /// The requantization of every 8-bit input code, computed by the reference loop.
    private func requantizationTable(inputSigned: Bool, _ zIn: Int32, _ zOut: Int32,
                                     outputSigned: Bool) -> ByteTableLookup {
        var codes = [UInt8](repeating: 0, count: 256)
        for i in 0..<256 { codes[i] = UInt8(i) }
        var out = [UInt8](repeating: 0, count: 256)
        codes.withUnsafeMutableBufferPointer { c in
            out.withUnsafeMutableBufferPointer { o in
                let dst = UnsafeMutableRawPointer(o.baseAddress!)
                if inputSigned {
                    let x = UnsafeMutableRawPointer(c.baseAddress!).assumingMemoryBound(to: Int8.self)
                    requantize(x, 256, zIn, zOut, outputSigned ? .int8 : .uint8, dst)
                } else {
                    requantize(c.baseAddress!, 256, zIn, zOut, outputSigned ? .int8 : .uint8, dst)
                }
            }
        }
        return ByteTableLookup(out)
    }

    private func quantize<T: FixedWidthInteger>(_ x: UnsafePointer<Float>, _ n: Int, _ output: RuntimeTensor,
                                                _ y: UnsafeMutablePointer<T>, _ threads: ThreadPool) {
        if let pc = perChannel {
            Quantize.affinePerChannel(x, outerCount: pc.outer, channelCount: pc.channels, innerCount: pc.inner,
                                      scales: pc.scales, zeroPoints: pc.zeros, output: y)
        } else {
            let scale = output.scale, zeroPoint = output.zeroPoint
            threads.parallelFor(n, minChunk: Self.chunk) { r in
                Quantize.affine(x + r.lowerBound, count: r.count, scale: scale, zeroPoint: zeroPoint, output: y + r.lowerBound)
            }
        }
    }

    private func requantize<T: FixedWidthInteger>(_ x: UnsafeMutablePointer<T>, _ n: Int, _ input: RuntimeTensor,
                                                  _ output: RuntimeTensor, _ dst: UnsafeMutableRawPointer,
                                                  _ threads: ThreadPool) {
        let zIn = input.zeroPoint, zOut = output.zeroPoint, type = output.type
        threads.parallelFor(n, minChunk: Self.chunk) { r in
            requantize(x + r.lowerBound, r.count, zIn, zOut, type, dst + r.lowerBound * (type.byteSize ?? 1))
        }
    }

    private func requantize<T: FixedWidthInteger>(_ x: UnsafeMutablePointer<T>, _ n: Int, _ zIn: Int32, _ zOut: Int32,
                                                  _ type: TensorType, _ dst: UnsafeMutableRawPointer) {
        switch type {
        case .uint8:
            Quantize.requantize(x, count: n, inputZeroPoint: zIn, multiplier: multiplier, outputZeroPoint: zOut,
                                output: dst.assumingMemoryBound(to: UInt8.self))
        case .int8:
            Quantize.requantize(x, count: n, inputZeroPoint: zIn, multiplier: multiplier, outputZeroPoint: zOut,
                                output: dst.assumingMemoryBound(to: Int8.self))
        case .int16:
            Quantize.requantize(x, count: n, inputZeroPoint: zIn, multiplier: multiplier, outputZeroPoint: zOut,
                                output: dst.assumingMemoryBound(to: Int16.self))
        default:
            Quantize.requantize(x, count: n, inputZeroPoint: zIn, multiplier: multiplier, outputZeroPoint: zOut,
                                output: dst.assumingMemoryBound(to: Int32.self))
        }
    }
}
