import TFLiteKernels
import TFLiteSchema

/// RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR on NHWC tensors with the constant int32
/// `size` tensor (input 1, [new_height, new_width]).
/// Options: `ResizeBilinearOptions` / `ResizeNearestNeighborOptions` (align_corners, half_pixel_centers).
final class ResizeOperator: OperatorKernel {
    /// Sampling method.
    enum Method { case bilinear, nearestNeighbor }
    private let method: Method
    private var parameters: ResizeParameters?
    /// Row tables for the row-splitting kernels (float bilinear, nearest neighbour).
    private var rowsPlan: ResizeRowsPlan?
    private var elementSize = 0

    /// Creates the operator for `method`.
    init(_ method: Method) { self.method = method }

    private var op: String { method == .bilinear ? "RESIZE_BILINEAR" : "RESIZE_NEAREST_NEIGHBOR" }

    func prepare(_ node: NodeContext) throws {
        let op = self.op
        let input = try node.input(0)
        let output = try node.output(0)
        guard input.shape.count == 4 else { throw InterpreterError.invalidModel("\(op): input must be 4-D") }
        let size = try DataMovementSupport.constantIntegers(try node.input(1), op)
        guard size.count == 2, size[0] > 0, size[1] > 0 else {
            throw InterpreterError.invalidModel("\(op): size must be two positive values, got \(size)")
        }
        let alignCorners: Bool, halfPixel: Bool
        switch method {
        case .bilinear:
            let options = try node.options(ResizeBilinearOptions.self)
            alignCorners = options.alignCorners
            halfPixel = options.halfPixelCenters
            switch input.type {
            case .float32, .uint8, .int8, .int16: break
            default: throw InterpreterError.invalidModel("\(op): unsupported type \(input.type)")
            }
        case .nearestNeighbor:
            let options = try node.options(ResizeNearestNeighborOptions.self)
            alignCorners = options.alignCorners
            halfPixel = options.halfPixelCenters
            elementSize = try DataMovementSupport.elementSize(input, op)
        }
        let s = input.shape
        parameters = ResizeParameters(batches: s[0], inputHeight: s[1], inputWidth: s[2],
                                      outputHeight: size[0], outputWidth: size[1], depth: s[3],
                                      alignCorners: alignCorners, halfPixelCenters: halfPixel)
        try DataMovementSupport.requireSameType(input, output, op)
        DataMovementSupport.inheritQuantization(from: input, to: output)
        output.shape = try DataMovementSupport.checkedShape([s[0], size[0], size[1], s[3]], op)
        switch (method, input.type) {
        case (.nearestNeighbor, _): rowsPlan = ResizeRowsPlan(nearest: parameters!)
        case (.bilinear, .float32): rowsPlan = ResizeRowsPlan(bilinear: parameters!)
        default: rowsPlan = nil
        }
    }

    func invoke(_ node: NodeContext) throws {
        let op = self.op
        guard let p = parameters else { throw InterpreterError.allocateTensorsRequired }
        let input = try node.input(0), output = try node.output(0)
        guard output.elementCount > 0, input.elementCount > 0 else { return }
        let src = try DataMovementSupport.data(input, op), dst = try DataMovementSupport.data(output, op)
        // Rows of work big enough to be worth a thread: about 16k output elements each.
        let rowElements = max(1, p.outputWidth * p.depth)
        let minRows = max(1, 16_384 / rowElements)
        switch (method, input.type) {
        case (.nearestNeighbor, _):
            guard let plan = rowsPlan else { throw InterpreterError.allocateTensorsRequired }
            let size = elementSize
            node.threads.parallelFor(plan.rowCount, minChunk: minRows) { rows in
                ResizeOptimized.nearest(plan, rows: rows, elementSize: size, input: src, output: dst)
            }
        case (.bilinear, .float32):
            guard let plan = rowsPlan else { throw InterpreterError.allocateTensorsRequired }
            let x = try input.view(as: Float.self, op).base, y = try output.mutableView(as: Float.self, op).base
            node.threads.parallelFor(plan.rowCount, minChunk: minRows) { rows in
                ResizeOptimized.bilinearFloat(plan, rows: rows, input: x, output: y)
            }
        case (.bilinear, .uint8):
            ResizeBilinearReference.runUInt8(p, input: try input.view(as: UInt8.self, op).base,
                                    output: try output.mutableView(as: UInt8.self, op).base)
        case (.bilinear, .int8):
            ResizeBilinearReference.runInt8(p, input: try input.view(as: Int8.self, op).base,
                                   output: try output.mutableView(as: Int8.self, op).base)
        case (.bilinear, .int16):
            ResizeBilinearReference.runInt16(p, input: try input.view(as: Int16.self, op).base,
                                    output: try output.mutableView(as: Int16.self, op).base)
        default:
            throw InterpreterError.invocationFailed("\(op): unsupported type \(input.type)")
        }
    }
}
