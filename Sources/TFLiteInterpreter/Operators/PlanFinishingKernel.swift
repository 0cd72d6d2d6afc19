/// A kernel that finishes its plan after operator fusion, with work that only a node that runs
/// needs (the 8-bit pair tables of `BinaryArithmeticOperator`): `prepare` decides the plan,
/// fusion decides which nodes still run, and `finishPlan` completes theirs, so invoke only runs.
///
/// Contract: whoever invokes a prepared kernel calls `finishPlan` first, after any fusion and
/// after every prepare — the executor for the nodes of its run order whose own kernel runs (not
/// those a fused table replaces), at prepare and when it re-prepares a node at invoke;
/// `AheadOfTimeEvaluation` before it evaluates a node. `finishPlan` may allocate (reserving
/// through `node.reserveScratch` first) and does nothing when the plan is already finished.
protocol PlanFinishingKernel: AnyObject {
    /// Completes the plan `prepare` made for `node`.
    func finishPlan(_ node: NodeContext) throws
}
