// The error data-movement plans throw for parameters that cannot be executed.

/// Parameters (shapes, axes, indices, paddings) a data-movement kernel cannot execute.
public struct DataMovementParameterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, e.g. "STRIDED_SLICE: stride 2 is zero".
    public let message: String
    /// Creates the error.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
