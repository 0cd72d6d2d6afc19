import TFLiteSchema
import TFLiteKernels

/// GREATER, GREATER_EQUAL, LESS, LESS_EQUAL, EQUAL, NOT_EQUAL with broadcasting; bool out.
final class ComparisonOperator: OperatorKernel {
    private let operation: ElementwiseComparisonReference.Operation
    private let name: String
    private var layout: BroadcastLayout?
    private var quantized: ElementwiseComparisonReference.QuantizedParams?

    init(_ operation: ElementwiseComparisonReference.Operation, name: String) { self.operation = operation; self.name = name }

    func prepare(_ node: NodeContext) throws {
        let a = try node.input(0), b = try node.input(1), out = try node.output(0)
        try ElementwiseSupport.requireSameType([a, b], name)
        let layout = try ElementwiseSupport.broadcastLayout(a.shape, b.shape, name)
        quantized = nil
        switch a.type {
        case .float32, .int32, .int64, .int16: break
        case .bool:
            guard operation == .equal || operation == .notEqual else { throw ElementwiseSupport.unsupported(name, a.type) }
        case .int8, .uint8:
            let qa = try ElementwiseSupport.perTensor(a, name), qb = try ElementwiseSupport.perTensor(b, name)
            quantized = .init(input1Scale: qa.scale, input1ZeroPoint: qa.zeroPoint, input2Scale: qb.scale, input2ZeroPoint: qb.zeroPoint)
        default: throw ElementwiseSupport.unsupported(name, a.type)
        }
        self.layout = layout
        out.type = .bool
        out.shape = layout.outputShape
    }

    func invoke(_ node: NodeContext) throws {
        guard let layout else { throw InterpreterError.allocateTensorsRequired }
        let a = try node.input(0), b = try node.input(1), out = try node.output(0)
        let po = try out.mutableView(as: Bool.self, name).base
        let op = operation
        switch a.type {
        case .float32:
            ElementwiseComparisonReference.float32(op, layout: layout, try a.view(as: Float.self, name).base, try b.view(as: Float.self, name).base, po)
        case .int32:
            ElementwiseComparisonReference.int32(op, layout: layout, try a.view(as: Int32.self, name).base, try b.view(as: Int32.self, name).base, po)
        case .int64:
            ElementwiseComparisonReference.int64(op, layout: layout, try a.view(as: Int64.self, name).base, try b.view(as: Int64.self, name).base, po)
        case .int16:
            ElementwiseComparisonReference.int16(op, layout: layout, try a.view(as: Int16.self, name).base, try b.view(as: Int16.self, name).base, po)
        case .bool:
            ElementwiseComparisonReference.bool(op, layout: layout, try a.view(as: UInt8.self, name).base, try b.view(as: UInt8.self, name).base, po)
        case .int8:
            guard let q = quantized else { throw InterpreterError.allocateTensorsRequired }
            ElementwiseComparisonReference.int8(op, layout: layout, try a.view(as: Int8.self, name).base, try b.view(as: Int8.self, name).base, po, q)
        default:
            guard let q = quantized else { throw InterpreterError.allocateTensorsRequired }
            ElementwiseComparisonReference.uint8(op, layout: layout, try a.view(as: UInt8.self, name).base, try b.view(as: UInt8.self, name).base, po, q)
        }
    }
}

/// LOGICAL_AND, LOGICAL_OR (broadcast) and LOGICAL_NOT on bool tensors.
final class LogicalOperator: OperatorKernel {
    /// Which logical operation.
    enum Kind { case and, or, not }
    private let kind: Kind
    private let name: String
    private var layout: BroadcastLayout?
    private var count = 0

    init(_ kind: Kind, name: String) { self.kind = kind; self.name = name }

    func prepare(_ node: NodeContext) throws {
        let a = try node.input(0), out = try node.output(0)
        guard a.type == .bool else { throw ElementwiseSupport.unsupported(name, a.type) }
        if kind == .not {
            count = try ElementwiseSupport.checkedCount(a.shape, name)
            out.shape = a.shape
        } else {
            let b = try node.input(1)
            guard b.type == .bool else { throw ElementwiseSupport.unsupported(name, b.type) }
            let layout = try ElementwiseSupport.broadcastLayout(a.shape, b.shape, name)
            self.layout = layout
            out.shape = layout.outputShape
        }
        out.type = .bool
    }

    func invoke(_ node: NodeContext) throws {
        let a = try node.input(0), out = try node.output(0)
        let pa = try ElementwiseSupport.pointer(a, name, as: UInt8.self), po = try ElementwiseSupport.pointer(out, name, as: UInt8.self)
        if kind == .not {
            LogicalReference.not(count: count, pa, po)
            return
        }
        guard let layout else { throw InterpreterError.allocateTensorsRequired }
        let pb = try ElementwiseSupport.pointer(try node.input(1), name, as: UInt8.self)
        LogicalReference.binary(isAnd: kind == .and, layout: layout, pa, pb, po)
    }
}

/// SELECT (condition of the inputs' shape, or rank 1 selecting along the first dimension)
/// and SELECT_V2 (all three inputs broadcast).
final class SelectOperator: OperatorKernel {
    private let isV2: Bool
    private let name: String
    private var plan: MultiBroadcast?
    private var elementSize = 0

    init(v2: Bool) { isV2 = v2; name = v2 ? "SELECT_V2" : "SELECT" }

    func prepare(_ node: NodeContext) throws {
        let c = try node.input(0), x = try node.input(1), y = try node.input(2), out = try node.output(0)
        guard c.type == .bool else { throw InterpreterError.invalidModel("\(name): condition must be bool, got \(c.type)") }
        try ElementwiseSupport.requireSameType([x, y], name)
        guard let size = x.type.byteSize, x.type != .string else { throw ElementwiseSupport.unsupported(name, x.type) }
        var condShape = c.shape
        if !isV2 {
            guard x.shape == y.shape else { throw InterpreterError.invalidShape("\(name): x \(x.shape) and y \(y.shape) differ") }
            if c.shape.count == 1 && x.shape.count > 1 && c.shape[0] == x.shape[0] {
                condShape = c.shape + [Int](repeating: 1, count: x.shape.count - 1)
            } else if c.shape != x.shape && !(c.shape.isEmpty || c.shape == [1]) {
                throw InterpreterError.invalidShape("\(name): condition \(c.shape) does not match \(x.shape)")
            }
        }
        for s in [condShape, x.shape, y.shape] { _ = try ElementwiseSupport.checkedCount(s, name) }
        do { plan = try MultiBroadcast([condShape, x.shape, y.shape]) } catch {
            throw InterpreterError.invalidShape("\(name): \(error)")
        }
        elementSize = size
        out.type = x.type
        out.shape = plan!.outputShape
    }

    func invoke(_ node: NodeContext) throws {
        guard let plan else { throw InterpreterError.allocateTensorsRequired }
        let c = try node.input(0), x = try node.input(1), y = try node.input(2), out = try node.output(0)
        SelectReference.select(plan: plan, elementSize: elementSize,
                             condition: try ElementwiseSupport.pointer(c, name, as: UInt8.self),
                             UnsafeRawPointer(try ElementwiseSupport.data(x, name)),
                             UnsafeRawPointer(try ElementwiseSupport.data(y, name)), try ElementwiseSupport.data(out, name))
    }
}
