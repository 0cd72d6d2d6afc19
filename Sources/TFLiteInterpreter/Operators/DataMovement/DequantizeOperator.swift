import TFLiteKernels
import TFLiteSchema

/// DEQUANTIZE: uint8/int8/int16 → float32 (per tensor or per channel) and float16 → float32.
/// Constant inputs (float16 or int8 weights) are folded by the interpreter at load, except the
/// float16 weights of layers that pack them (`DeferredDequantization`).
final class DequantizeOperator: OperatorKernel {
    /// The conversion of input 0's elements into output 0's floats, with the element count and
    /// the quantization captured.
    typealias Kernel<Element> = (UnsafePointer<Element>, UnsafeMutablePointer<Float>) -> Void

    /// How a node runs, decided at prepare from the input type.
    enum Plan {
        /// Not prepared (or the last prepare failed): invoke throws.
        case unprepared
        /// No elements: invoke does nothing.
        case empty
        /// float16 (as its bit patterns).
        case float16(Kernel<UInt16>)
        case uint8(Kernel<UInt8>)
        case int8(Kernel<Int8>)
        case int16(Kernel<Int16>)
        /// Per-tensor int8 or uint8 through the table of the 256 codes' floats, split over the pool.
        case bytes(DequantizeTable, count: Int)
    }

    private let op = "DEQUANTIZE"
    private var plan = Plan.unprepared

    func prepare(_ node: NodeContext) throws {
        plan = .unprepared
        let input = try node.input(0)
        let output = try node.output(0)
        guard output.type == .float32 else {
            throw InterpreterError.invalidModel("\(op): output must be float32, is \(output.type)")
        }
        let n = input.elementCount
        let next: Plan
        switch input.type {
        case .float16:
            next = .float16 { DequantizeReference.float16($0, count: n, output: $1) }
        case .uint8, .int8, .int16:
            guard let q = input.quantization, !q.scales.isEmpty, q.scales.count == q.zeroPoints.count else {
                throw InterpreterError.invalidModel("\(op): input '\(input.name)' has no quantization parameters")
            }
            let perChannel = q.scales.count > 1 ? try PerChannelQuantization(input.shape, q, op) : nil
            let scale = input.scale, zeroPoint = input.zeroPoint
            switch input.type {
            case .uint8 where perChannel == nil, .int8 where perChannel == nil:
                next = .bytes(DequantizeTable(scale: scale, zeroPoint: zeroPoint, signed: input.type == .int8), count: n)
            case .uint8: next = .uint8(Self.affine(n, perChannel, scale, zeroPoint))
            case .int8: next = .int8(Self.affine(n, perChannel, scale, zeroPoint))
            default: next = .int16(Self.affine(n, perChannel, scale, zeroPoint))
            }
        default:
            throw InterpreterError.invalidModel("\(op): unsupported input type \(input.type)")
        }
        output.shape = input.shape
        plan = n > 0 ? next : .empty
    }

    /// The affine dequantization of `n` codes: per channel, or per tensor with `scale` and `zeroPoint`.
    private static func affine<T: FixedWidthInteger>(_ n: Int, _ perChannel: PerChannelQuantization?,
                                                     _ scale: Float, _ zeroPoint: Int32) -> Kernel<T> {
        if let pc = perChannel {
            return { DequantizeReference.affinePerChannel($0, outerCount: pc.outer, channelCount: pc.channels, innerCount: pc.inner,
                                                          scales: pc.scales, zeroPoints: pc.zeroPoints, output: $1) }
        }
        return { DequantizeReference.affine($0, count: n, scale: scale, zeroPoint: zeroPoint, output: $1) }
    }

    func invoke(_ node: NodeContext) throws {
        switch plan {
        case .unprepared: throw InterpreterError.allocateTensorsRequired
        case .empty: return
        case let .float16(kernel): try run(node, kernel)
        case let .uint8(kernel): try run(node, kernel)
        case let .int8(kernel): try run(node, kernel)
        case let .int16(kernel): try run(node, kernel)
        case let .bytes(table, count):
            let input = try node.input(0), output = try node.output(0)
            let codes = input.type == .int8 ? UnsafeRawPointer(try input.view(as: Int8.self, op).base)
                                            : UnsafeRawPointer(try input.view(as: UInt8.self, op).base)
            let (x, y) = (codes.assumingMemoryBound(to: UInt8.self), try output.mutableView(as: Float.self, op).base)
            node.threads.parallelFor(count, minChunk: WorkSplitPolicy.byteTableElements) { table.run(x, output: y, range: $0) }
        }
    }

    /// Runs `kernel` from input 0 into output 0, after checking that both have data.
    private func run<Element>(_ node: NodeContext, _ kernel: Kernel<Element>) throws {
        let input = try node.input(0), output = try node.output(0)
        _ = try DataMovementSupport.data(input, op); _ = try DataMovementSupport.data(output, op)
        kernel(try input.view(as: Element.self, op).base, try output.mutableView(as: Float.self, op).base)
    }
}
