/// The ``MemoryBudget`` of one prepare pass, shared by reference between the executor and the
/// kernels of its nodes, so memory kernels keep (packed weights, depthwise input windows,
/// accumulators) counts against ``ResourceLimits/maximumTotalByteCount`` together with the
/// values computed at prepare and the arena (which holds the per-invoke scratch kernels request
/// with ``NodeContext/requestScratch(_:count:_:)``).
///
/// Contract: a kernel calls ``NodeContext/reserveScratch(_:_:)`` with the bytes it is about to
/// allocate *before* allocating them, on every `prepare` (the executor starts each pass from the
/// model's base budget, so scratch kept from an earlier pass is counted again, once).
final class SharedMemoryBudget {
    /// The budget, reserved into by the executor and the kernels.
    var budget: MemoryBudget

    /// A shared budget starting from `budget`.
    init(_ budget: MemoryBudget) { self.budget = budget }

    /// Reserves `bytes` for `subject`, or throws ``InterpreterError/resourceLimitExceeded(_:)``.
    func reserve(_ bytes: Int, _ subject: @autoclosure () -> String) throws {
        try budget.reserve(bytes, subject())
    }

    /// `count × elementSize` bytes, saturating at `Int.max` (which no limit admits) instead of
    /// overflowing, for sizes computed from untrusted shapes.
    static func bytes(_ count: Int, _ elementSize: Int) -> Int {
        let (product, overflow) = max(0, count).multipliedReportingOverflow(by: max(0, elementSize))
        return overflow ? Int.max : product
    }
}
