/// Errors the interpreter throws. Every user mistake and malformed model maps to one of these.
public enum InterpreterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A tensor index outside `0..<count`.
    case invalidTensorIndex(index: Int, count: Int)
    /// Data of the wrong size copied into a tensor.
    case invalidDataCount(provided: Int, required: Int)
    /// Data of the wrong type.
    case invalidTensorDataType(expected: String, got: String)
    /// `allocateTensors()` must be called first (or again after a resize).
    case allocateTensorsRequired
    /// The model uses an operator this engine does not implement.
    case unsupportedOperator(name: String)
    /// The model is malformed or inconsistent.
    case invalidModel(String)
    /// A shape that cannot be used (negative, overflowing, wrong rank).
    case invalidShape(String)
    /// An operator failed while running.
    case invocationFailed(String)
    /// No signature with this key, or no tensor with this name.
    case notFound(String)
    /// The interpreter was used from two threads at once.
    case concurrentUse
    /// An argument or option outside its allowed range (e.g. a thread count below 1).
    case invalidArgument(String)
    /// The model or an input needs more memory than ``Interpreter/Options/resourceLimits``
    /// allow; the message names the limit, the amount and what asked for it.
    case resourceLimitExceeded(String)

    /// A readable message.
    public var description: String {
        switch self {
        case let .invalidTensorIndex(i, n): return "tensor index \(i) is out of range 0..<\(n)"
        case let .invalidDataCount(p, r): return "provided \(p) bytes, the tensor needs \(r)"
        case let .invalidTensorDataType(e, g): return "expected \(e) data, got \(g)"
        case .allocateTensorsRequired: return "call allocateTensors() before using tensors"
        case let .unsupportedOperator(name): return "unsupported operator \(name)"
        case let .invalidModel(m): return "invalid model: \(m)"
        case let .invalidShape(m): return "invalid shape: \(m)"
        case let .invocationFailed(m): return "invoke failed: \(m)"
        case let .notFound(m): return "not found: \(m)"
        case .concurrentUse: return "the interpreter was used from two threads at once"
        case let .invalidArgument(m): return "invalid argument: \(m)"
        case let .resourceLimitExceeded(m): return "resource limit exceeded: \(m)"
        }
    }
}
