/// Accumulated run time of one operator of a model (see ``Interpreter/operatorProfile``).
public struct OperatorProfile: Equatable, Sendable {
    /// Position of the operator in the model's subgraph.
    public let position: Int
    /// Operator name, e.g. `CONV_2D`.
    public let name: String
    /// Shape of its first output.
    public let outputShape: [Int]
    /// Number of invokes measured.
    public let invocations: Int
    /// Total wall time over those invokes, in nanoseconds.
    public let totalNanoseconds: UInt64

    /// Average milliseconds per invoke.
    public var averageMilliseconds: Double {
        invocations == 0 ? 0 : Double(totalNanoseconds) / Double(invocations) / 1e6
    }
}
