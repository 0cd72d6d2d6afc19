import TFLiteSchema
import TFLiteKernels

/// GREATER, GREATER_EQUAL, LESS, LESS_EQUAL, EQUAL, NOT_EQUAL with broadcasting; bool out.
final class ComparisonOperator: OperatorKernel {
    /// The comparison of two broadcast inputs into the bool output, with the operation, the
    /// broadcast layout and (8-bit) the inputs' quantization captured.
    typealias Kernel<Element> = (UnsafePointer<Element>, UnsafePointer<Element>, UnsafeMutablePointer<Bool>) -> Void

    /// How a node runs, decided at prepare from the inputs' element type (by storage type).
    enum Plan {
        /// Not prepared (or the last prepare failed): invoke throws.
        case unprepared
        case float32(Kernel<Float>)
        case int32(Kernel<Int32>)
        case int64(Kernel<Int64>)
        case int16(Kernel<Int16>)
        /// int8 codes, compared through their quantization.
        case int8(Kernel<Int8>)
        /// uint8 codes compared through their quantization, or bool (one byte each) for EQUAL / NOT_EQUAL.
        case uint8(Kernel<UInt8>)
    }

    private let operation: ElementwiseComparisonReference.Operation
    private let name: String
    private var plan = Plan.unprepared

    init(_ operation: ElementwiseComparisonReference.Operation, name: String) { self.operation = operation; self.name = name }

    func prepare(_ node: NodeContext) throws {
        plan = .unprepared
        let a = try node.input(0), b = try node.input(1), out = try node.output(0)
        try ElementwiseSupport.requireSameType([a, b], name)
        let layout = try ElementwiseSupport.broadcastLayout(a.shape, b.shape, name)
        let op = operation
        let next: Plan
        switch a.type {
        case .float32: next = .float32 { ElementwiseComparisonReference.float32(op, layout: layout, $0, $1, $2) }
        case .int32: next = .int32 { ElementwiseComparisonReference.int32(op, layout: layout, $0, $1, $2) }
        case .int64: next = .int64 { ElementwiseComparisonReference.int64(op, layout: layout, $0, $1, $2) }
        case .int16: next = .int16 { ElementwiseComparisonReference.int16(op, layout: layout, $0, $1, $2) }
        case .bool:
            guard operation == .equal || operation == .notEqual else { throw ElementwiseSupport.unsupported(name, a.type) }
            next = .uint8 { ElementwiseComparisonReference.bool(op, layout: layout, $0, $1, $2) }
        case .int8, .uint8:
            let qa = try ElementwiseSupport.perTensor(a, name), qb = try ElementwiseSupport.perTensor(b, name)
            let q = ElementwiseComparisonReference.QuantizedParams(input1Scale: qa.scale, input1ZeroPoint: qa.zeroPoint,
                                                                  input2Scale: qb.scale, input2ZeroPoint: qb.zeroPoint)
            next = a.type == .int8
                ? .int8 { ElementwiseComparisonReference.int8(op, layout: layout, $0, $1, $2, q) }
                : .uint8 { ElementwiseComparisonReference.uint8(op, layout: layout, $0, $1, $2, q) }
        default: throw ElementwiseSupport.unsupported(name, a.type)
        }
        out.type = .bool
        out.shape = layout.outputShape
        plan = next
    }

    func invoke(_ node: NodeContext) throws {
        switch plan {
        case .unprepared: throw InterpreterError.allocateTensorsRequired
        case let .float32(kernel): try run(node, kernel)
        case let .int32(kernel): try run(node, kernel)
        case let .int64(kernel): try run(node, kernel)
        case let .int16(kernel): try run(node, kernel)
        case let .int8(kernel): try run(node, kernel)
        case let .uint8(kernel): try run(node, kernel)
        }
    }

    /// Runs `kernel` from inputs 0 and 1 into output 0.
    private func run<Element>(_ node: NodeContext, _ kernel: Kernel<Element>) throws {
        let po = try node.output(0).mutableView(as: Bool.self, name).base
        kernel(try node.input(0).view(as: Element.self, name).base, try node.input(1).view(as: Element.self, name).base, po)
    }
}

/// LOGICAL_AND, LOGICAL_OR (broadcast) and LOGICAL_NOT on bool tensors.
final class LogicalOperator: OperatorKernel {
    /// Which logical operation.
    enum Kind { case and, or, not }

    /// How a node runs, decided at prepare from the kind and the shapes.
    enum Plan {
        /// Not prepared (or the last prepare failed): invoke throws.
        case unprepared
        /// LOGICAL_NOT of `count` elements.
        case not(count: Int)
        /// LOGICAL_AND (`isAnd`) or LOGICAL_OR of two broadcast inputs.
        case binary(BroadcastLayout, isAnd: Bool)
    }

    private let kind: Kind
    private let name: String
    private var plan = Plan.unprepared

    init(_ kind: Kind, name: String) { self.kind = kind; self.name = name }

    func prepare(_ node: NodeContext) throws {
        plan = .unprepared
        let a = try node.input(0), out = try node.output(0)
        guard a.type == .bool else { throw ElementwiseSupport.unsupported(name, a.type) }
        let next: Plan
        if kind == .not {
            next = .not(count: try ElementwiseSupport.checkedCount(a.shape, name))
            out.shape = a.shape
        } else {
            let b = try node.input(1)
            guard b.type == .bool else { throw ElementwiseSupport.unsupported(name, b.type) }
            let layout = try ElementwiseSupport.broadcastLayout(a.shape, b.shape, name)
            next = .binary(layout, isAnd: kind == .and)
            out.shape = layout.outputShape
        }
        out.type = .bool
        plan = next
    }

    func invoke(_ node: NodeContext) throws {
        switch plan {
        case .unprepared:
            throw InterpreterError.allocateTensorsRequired
        case let .not(count):
            let pa = try bytes(node.input(0)), po = try bytes(node.output(0))
            LogicalReference.not(count: count, pa, po)
        case let .binary(layout, isAnd):
            let pa = try bytes(node.input(0)), po = try bytes(node.output(0)), pb = try bytes(node.input(1))
            LogicalReference.binary(isAnd: isAnd, layout: layout, pa, pb, po)
        }
    }

    /// The bool tensor's bytes.
    private func bytes(_ t: RuntimeTensor) throws -> UnsafeMutablePointer<UInt8> {
        try ElementwiseSupport.pointer(t, name, as: UInt8.self)
    }
}

/// SELECT (condition of the inputs' shape, or rank 1 selecting along the first dimension)
/// and SELECT_V2 (all three inputs broadcast).
final class SelectOperator: OperatorKernel {
    /// How a node runs, decided at prepare from the shapes and the element size.
    enum Plan {
        /// Not prepared (or the last prepare failed): invoke throws.
        case unprepared
        /// Elements of `elementSize` bytes chosen through the three inputs' broadcast.
        case select(MultiBroadcast, elementSize: Int)
    }

    private let isV2: Bool
    private let name: String
    private var plan = Plan.unprepared

    init(v2: Bool) { isV2 = v2; name = v2 ? "SELECT_V2" : "SELECT" }

    func prepare(_ node: NodeContext) throws {
        plan = .unprepared
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
        let broadcast: MultiBroadcast
        do { broadcast = try MultiBroadcast([condShape, x.shape, y.shape]) } catch {
            throw InterpreterError.invalidShape("\(name): \(error)")
        }
        out.type = x.type
        out.shape = broadcast.outputShape
        plan = .select(broadcast, elementSize: size)
    }

    func invoke(_ node: NodeContext) throws {
        switch plan {
        case .unprepared:
            throw InterpreterError.allocateTensorsRequired
        case let .select(broadcast, elementSize):
            let c = try node.input(0), x = try node.input(1), y = try node.input(2), out = try node.output(0)
            SelectReference.select(plan: broadcast, elementSize: elementSize,
                                   condition: try ElementwiseSupport.pointer(c, name, as: UInt8.self),
                                   UnsafeRawPointer(try ElementwiseSupport.data(x, name)),
                                   UnsafeRawPointer(try ElementwiseSupport.data(y, name)), try ElementwiseSupport.data(out, name))
        }
    }
}
