/// The activation arena of an interpreter's main subgraph and the lower bound it is measured
/// against (``Interpreter/arenaUsage``; `bench` prints both, as `arena MB` and `live MB`).
///
/// Both come from the same lifetimes: the tensors (or groups of tensors sharing memory) that
/// the arena holds, each live from the step that first uses it to the step that last does, in
/// the interpreter's run order — after constant folding and node fusion, graph inputs and
/// outputs live for the whole run — the kernels' per-invoke scratch (integer GEMM
/// activation copies and patch rows, quantized hybrid rows), each live only at its node's
/// step, and the per-thread kernel workspace (pointer tables, accumulator tiles, rows of
/// sums): one block per pool thread shared by every node, live for the whole run.
/// Constants, packed weights and variable tensors are not in the arena.
public struct ArenaUsage: Codable, Sendable, Equatable {
    /// Bytes of the planned arena (``Interpreter/arenaByteCount``).
    public var arenaByteCount: Int
    /// The most bytes of arena tensors live at one step: no placement can use less, so
    /// `arenaByteCount / peakLiveByteCount` is what the greedy planner adds (alignment included).
    public var peakLiveByteCount: Int

    /// Creates a usage record.
    public init(arenaByteCount: Int, peakLiveByteCount: Int) {
        self.arenaByteCount = arenaByteCount
        self.peakLiveByteCount = peakLiveByteCount
    }
}
