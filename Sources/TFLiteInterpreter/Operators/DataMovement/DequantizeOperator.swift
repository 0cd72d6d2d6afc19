import TFLiteKernels
import TFLiteSchema

/// DEQUANTIZE: uint8/int8/int16 → float32 (per tensor or per channel) and float16 → float32.
/// Constant inputs (float16 or int8 weights) are folded by the interpreter at prepare.
final class DequantizeOperator: OperatorKernel {
    private var perChannel: (outer: Int, channels: Int, inner: Int, scales: [Float], zeros: [Int32])?

    func prepare(_ node: NodeContext) throws {
        let op = "DEQUANTIZE"
        let input = try node.input(0)
        let output = try node.output(0)
        guard output.type == .float32 else {
            throw InterpreterError.invalidModel("\(op): output must be float32, is \(output.type)")
        }
        perChannel = nil
        switch input.type {
        case .float16: break
        case .uint8, .int8, .int16:
            guard let q = input.quantization, !q.scales.isEmpty, q.scales.count == q.zeroPoints.count else {
                throw InterpreterError.invalidModel("\(op): input '\(input.name)' has no quantization parameters")
            }
            if q.scales.count > 1 {
                let axis = q.quantizedDimension
                guard axis >= 0, axis < input.shape.count, input.shape[axis] == q.scales.count else {
                    throw InterpreterError.invalidModel("\(op): per-channel parameters do not match dimension \(axis)")
                }
                perChannel = (input.shape[..<axis].reduce(1, *), q.scales.count, input.shape[(axis + 1)...].reduce(1, *),
                              q.scales, q.zeroPoints.map { Int32(truncatingIfNeeded: $0) })
            }
        default:
            throw InterpreterError.invalidModel("\(op): unsupported input type \(input.type)")
        }
        output.shape = input.shape
    }

    func invoke(_ node: NodeContext) throws {
        let op = "DEQUANTIZE"
        let input = try node.input(0), output = try node.output(0)
        let n = output.elementCount
        guard n > 0 else { return }
        _ = try DataMovementSupport.data(input, op); _ = try DataMovementSupport.data(output, op)
        let y = try output.mutableView(as: Float.self, op).base
        switch input.type {
        case .float16: DequantizeReference.float16(try input.view(as: UInt16.self, op).base, count: n, output: y)
        case .uint8: dequantize(try input.view(as: UInt8.self, op).base, n, input, y)
        case .int8: dequantize(try input.view(as: Int8.self, op).base, n, input, y)
        default: dequantize(try input.view(as: Int16.self, op).base, n, input, y)
        }
    }

    private func dequantize<T: FixedWidthInteger>(_ x: UnsafePointer<T>, _ n: Int, _ input: RuntimeTensor,
                                                  _ y: UnsafeMutablePointer<Float>) {
        if let pc = perChannel {
            DequantizeReference.affinePerChannel(x, outerCount: pc.outer, channelCount: pc.channels, innerCount: pc.inner,
                                        scales: pc.scales, zeroPoints: pc.zeros, output: y)
        } else {
            DequantizeReference.affine(x, count: n, scale: input.scale, zeroPoint: input.zeroPoint, output: y)
        }
    }
}
