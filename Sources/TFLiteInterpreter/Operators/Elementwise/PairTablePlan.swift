import TFLiteKernels

/// The 64K-entry table of a large 8-bit ADD / SUB / MUL (every output code by input-code pair),
/// described at prepare and built by ``build()`` once operator fusion has decided that the node
/// runs (``PlanFinishingKernel``): a MUL that `ByteMapFusion` folds into a 256-entry table, or
/// that `OutputByteMapFusion` moves into a convolution, never runs, and never builds its table.
/// Invoke only reads ``table``.
final class PairTablePlan {
    /// Bytes the built table holds (reserved in the budget before it is built).
    static let byteCount = 65_536
    private let make: () -> QuantizedPairTable
    /// The table; nil until ``build()``.
    private(set) var table: QuantizedPairTable?

    /// A plan whose table `make` computes.
    init(_ make: @escaping () -> QuantizedPairTable) { self.make = make }

    /// Computes the table (again only if it was never built).
    func build() { if table == nil { table = make() } }
}
