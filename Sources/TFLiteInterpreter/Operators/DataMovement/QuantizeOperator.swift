import TFLiteKernels
import TFLiteSchema

/// QUANTIZE: float32 → uint8/int8/int16 (per tensor, or per channel when the output has
/// several scales), and requantization between uint8, int8, int16 and int32.
final class QuantizeOperator: OperatorKernel {
    /// A conversion of input 0 into output 0, its element types, parameters and tables fixed
    /// at prepare (the typed views are taken inside, so they check the types they read).
    typealias Conversion = (_ input: RuntimeTensor, _ output: RuntimeTensor, ThreadPool) throws -> Void

    /// How a node runs, decided at prepare from the input and output types and quantization.
    enum Plan {
        /// Not prepared (or the last prepare failed): invoke throws.
        case unprepared
        /// No elements: invoke does nothing.
        case empty
        /// Checks that both tensors have data, then runs the conversion.
        case convert(Conversion)
    }

    private let op = "QUANTIZE"
    private var plan = Plan.unprepared

    func prepare(_ node: NodeContext) throws {
        plan = .unprepared
        let input = try node.input(0)
        let output = try node.output(0)
        guard let q = output.quantization, !q.scales.isEmpty, q.scales.count == q.zeroPoints.count else {
            throw InterpreterError.invalidModel("\(op): output '\(output.name)' has no quantization parameters")
        }
        guard q.scales.allSatisfy({ $0 > 0 && $0.isFinite }) else {
            throw InterpreterError.invalidModel("\(op): output scale must be positive")
        }
        output.shape = input.shape
        let n = output.elementCount
        let next: Conversion
        switch (input.type, output.type) {
        case (.float32, .uint8), (.float32, .int8), (.float32, .int16):
            let perChannel = q.scales.count > 1 ? try PerChannelQuantization(input.shape, q, op) : nil
            switch output.type {
            case .uint8: next = quantize(to: UInt8.self, n, perChannel, scale: output.scale, zeroPoint: output.zeroPoint)
            case .int8: next = quantize(to: Int8.self, n, perChannel, scale: output.scale, zeroPoint: output.zeroPoint)
            default: next = quantize(to: Int16.self, n, perChannel, scale: output.scale, zeroPoint: output.zeroPoint)
            }
        case (.uint8, .uint8), (.uint8, .int8), (.int8, .int8), (.int8, .uint8), (.int8, .int16), (.int8, .int32),
             (.int16, .int16), (.int16, .int8), (.int16, .int32), (.uint8, .int16), (.int16, .uint8):
            guard input.scale > 0, input.scale.isFinite, q.scales.count == 1 else {
                throw InterpreterError.invalidModel("\(op): requantization needs per-tensor parameters")
            }
            let multiplier = try QuantizedMultiplier(checking: Double(input.scale) / Double(output.scale),
                                                     "multiplier (input scale / output scale)")
            let zIn = input.zeroPoint, zOut = output.zeroPoint
            if [.int8, .uint8].contains(input.type) && [.int8, .uint8].contains(output.type) {
                let table = requantizationTable(inputSigned: input.type == .int8, zIn, multiplier, zOut,
                                                outputSigned: output.type == .int8)
                next = { [op] input, output, pool in
                    let x = try input.byteView(op).base, y = try output.mutableByteView(op).base
                    pool.parallelFor(n, minChunk: WorkSplitPolicy.byteTableElements) { r in table.apply(range: r, x, y) }
                }
            } else {
                switch input.type {
                case .uint8: next = requantize(from: UInt8.self, to: output.type, n, zIn, multiplier, zOut)
                case .int8: next = requantize(from: Int8.self, to: output.type, n, zIn, multiplier, zOut)
                default: next = requantize(from: Int16.self, to: output.type, n, zIn, multiplier, zOut)
                }
            }
        default:
            throw InterpreterError.invalidModel("\(op): unsupported conversion \(input.type) → \(output.type)")
        }
        plan = n > 0 ? .convert(next) : .empty
    }

    func invoke(_ node: NodeContext) throws {
        switch plan {
        case .unprepared:
            throw InterpreterError.allocateTensorsRequired
        case .empty:
            return
        case let .convert(conversion):
            let input = try node.input(0), output = try node.output(0)
            _ = try DataMovementSupport.data(input, op); _ = try DataMovementSupport.data(output, op)
            try conversion(input, output, node.threads)
        }
    }

    /// The requantization of every 8-bit input code, computed by the reference loop.
    private func requantizationTable(inputSigned: Bool, _ zIn: Int32, _ m: QuantizedMultiplier, _ zOut: Int32,
                                     outputSigned: Bool) -> ByteTableLookup {
        let codes = (0..<256).map { UInt8($0) }
        var out = [UInt8](repeating: 0, count: 256)
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

    /// float32 → `T` codes: per channel, or per tensor with chunks split over the pool.
    private func quantize<T: FixedWidthInteger>(to _: T.Type, _ n: Int, _ perChannel: PerChannelQuantization?,
                                                scale: Float, zeroPoint: Int32) -> Conversion {
        if let pc = perChannel {
            return { [op] input, output, _ in
                let x = try input.view(as: Float.self, op).base, y = try output.mutableView(as: T.self, op).base
                QuantizeReference.affinePerChannel(x, outerCount: pc.outer, channelCount: pc.channels, innerCount: pc.inner,
                                                   scales: pc.scales, zeroPoints: pc.zeroPoints, output: y)
            }
        }
        return { [op] input, output, pool in
            let x = try input.view(as: Float.self, op).base, y = try output.mutableView(as: T.self, op).base
            pool.parallelFor(n, minChunk: WorkSplitPolicy.quantizeElements) { r in
                QuantizeReference.affine(x + r.lowerBound, count: r.count, scale: scale, zeroPoint: zeroPoint, output: y + r.lowerBound)
            }
        }
    }

    /// `T` codes → codes of `outputType` (uint8, int8, int16 or int32).
    private func requantize<T: FixedWidthInteger>(from _: T.Type, to outputType: TensorType, _ n: Int, _ zIn: Int32,
                                                  _ m: QuantizedMultiplier, _ zOut: Int32) -> Conversion {
        switch outputType {
        case .uint8: return requantize(T.self, UInt8.self, n, zIn, m, zOut)
        case .int8: return requantize(T.self, Int8.self, n, zIn, m, zOut)
        case .int16: return requantize(T.self, Int16.self, n, zIn, m, zOut)
        default: return requantize(T.self, Int32.self, n, zIn, m, zOut)
        }
    }

    /// `T` codes → `U` codes, chunks split over the pool.
    private func requantize<T: FixedWidthInteger, U: FixedWidthInteger>(
        _: T.Type, _: U.Type, _ n: Int, _ zIn: Int32, _ m: QuantizedMultiplier, _ zOut: Int32) -> Conversion {
        { [op] input, output, pool in
            let x = try input.view(as: T.self, op).base, y = try output.mutableView(as: U.self, op).base
            pool.parallelFor(n, minChunk: WorkSplitPolicy.quantizeElements) { r in
                QuantizeReference.requantize(x + r.lowerBound, count: r.count, inputZeroPoint: zIn, multiplier: m,
                                             outputZeroPoint: zOut, output: y + r.lowerBound)
            }
        }
    }
}
