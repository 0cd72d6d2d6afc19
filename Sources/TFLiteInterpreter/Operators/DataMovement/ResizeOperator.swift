import TFLiteKernels
import TFLiteSchema

/// RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR on NHWC tensors with the constant int32
/// `size` tensor (input 1, [new_height, new_width]).
/// Options: `ResizeBilinearOptions` / `ResizeNearestNeighborOptions` (align_corners, half_pixel_centers).
final class ResizeOperator: OperatorKernel {
    /// Sampling method.
    enum Method { case bilinear, nearestNeighbor }

    /// How a node runs, decided at prepare from the method and the element type; each case
    /// carries exactly what its kernel needs.
    enum Plan {
        /// Not prepared (or the last prepare failed): invoke throws.
        case unprepared
        /// Nearest neighbour on elements of `elementSize` bytes, output rows split over the pool.
        case nearest(ResizeRowsPlan, elementSize: Int)
        /// Bilinear float32, output rows split over the pool, each chunk's weighted rows in the
        /// running thread's workspace (`ResizeOptimized.bilinearFloatWorkspaceBytes`).
        case bilinearFloat(ResizeRowsPlan, ThreadWorkspaceSlot)
        /// Bilinear uint8 through the reference kernel.
        case bilinearUInt8(ResizeParameters)
        /// Bilinear int8 through the reference kernel.
        case bilinearInt8(ResizeParameters)
        /// Bilinear int16 through the reference kernel.
        case bilinearInt16(ResizeParameters)
    }

    private let method: Method
    private var plan = Plan.unprepared

    /// Creates the operator for `method`.
    init(_ method: Method) { self.method = method }

    private var op: String { method == .bilinear ? "RESIZE_BILINEAR" : "RESIZE_NEAREST_NEIGHBOR" }

    func prepare(_ node: NodeContext) throws {
        plan = .unprepared
        let op = self.op
        let input = try node.input(0)
        let output = try node.output(0)
        guard input.shape.count == 4 else { throw InterpreterError.invalidModel("\(op): input must be 4-D") }
        let size = try DataMovementSupport.constantIntegers(try node.input(1), op)
        guard size.count == 2, size[0] > 0, size[1] > 0 else {
            throw InterpreterError.invalidModel("\(op): size must be two positive values, got \(size)")
        }
        let alignCorners: Bool, halfPixel: Bool
        // The plan for the geometry, made once the output shape passed its checks (the row
        // tables are as long as the output's rows and columns).
        let makePlan: (ResizeParameters) throws -> Plan
        switch method {
        case .bilinear:
            let options = try node.options(ResizeBilinearOptions.self)
            alignCorners = options.alignCorners
            halfPixel = options.halfPixelCenters
            switch input.type {
            case .float32:
                makePlan = {
                    let rows = ResizeRowsPlan(bilinear: $0)
                    return .bilinearFloat(rows, try node.requestWorkspace(bytesPerThread: ResizeOptimized.bilinearFloatWorkspaceBytes(rows),
                                                                          "the weighted input rows"))
                }
            case .uint8: makePlan = Plan.bilinearUInt8
            case .int8: makePlan = Plan.bilinearInt8
            case .int16: makePlan = Plan.bilinearInt16
            default: throw InterpreterError.invalidModel("\(op): unsupported type \(input.type)")
            }
        case .nearestNeighbor:
            let options = try node.options(ResizeNearestNeighborOptions.self)
            alignCorners = options.alignCorners
            halfPixel = options.halfPixelCenters
            let elementSize = try DataMovementSupport.elementSize(input, op)
            makePlan = { .nearest(ResizeRowsPlan(nearest: $0), elementSize: elementSize) }
        }
        let s = input.shape
        let parameters = ResizeParameters(batches: s[0], inputHeight: s[1], inputWidth: s[2],
                                          outputHeight: size[0], outputWidth: size[1], depth: s[3],
                                          alignCorners: alignCorners, halfPixelCenters: halfPixel)
        try DataMovementSupport.requireSameType(input, output, op)
        DataMovementSupport.inheritQuantization(from: input, to: output)
        output.shape = try DataMovementSupport.checkedShape([s[0], size[0], size[1], s[3]], op)
        plan = try makePlan(parameters)
    }

    func invoke(_ node: NodeContext) throws {
        let op = self.op
        if case .unprepared = plan { throw InterpreterError.allocateTensorsRequired }
        let input = try node.input(0), output = try node.output(0)
        guard output.elementCount > 0, input.elementCount > 0 else { return }
        switch plan {
        case .unprepared:
            throw InterpreterError.allocateTensorsRequired
        case .nearest(let rows, let elementSize):
            let src = try DataMovementSupport.data(input, op), dst = try DataMovementSupport.data(output, op)
            node.threads.parallelFor(rows.rowCount, minChunk: WorkSplitPolicy.resizeMinChunk(rows.parameters)) { part in
                ResizeOptimized.nearest(rows, rows: part, elementSize: elementSize, input: src, output: dst)
            }
        case .bilinearFloat(let rows, let workspace):
            let x = try input.view(as: Float.self, op).base, y = try output.mutableView(as: Float.self, op).base
            node.threads.parallelFor(rows.rowCount, minChunk: WorkSplitPolicy.resizeMinChunk(rows.parameters)) { part, worker in
                ResizeOptimized.bilinearFloat(rows, rows: part, input: x, output: y, workspace: workspace.workspace(worker))
            }
        case .bilinearUInt8(let p):
            ResizeBilinearReference.runUInt8(p, input: try input.view(as: UInt8.self, op).base,
                                             output: try output.mutableView(as: UInt8.self, op).base)
        case .bilinearInt8(let p):
            ResizeBilinearReference.runInt8(p, input: try input.view(as: Int8.self, op).base,
                                            output: try output.mutableView(as: Int8.self, op).base)
        case .bilinearInt16(let p):
            ResizeBilinearReference.runInt16(p, input: try input.view(as: Int16.self, op).base,
                                             output: try output.mutableView(as: Int16.self, op).base)
        }
    }
}
