// MEAN, SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD over any set of axes, following the
// reference kernels: inputs are visited in row-major order and accumulated into their
// output slot, so float sums add in the same order as the reference.

/// Errors of reduction planning.
public enum ReductionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An axis outside `-rank..<rank`.
    case axisOutOfRange(axis: Int, rank: Int)

    /// A readable message.
    public var description: String {
        switch self {
        case let .axisOutOfRange(a, r): return "reduction axis \(a) is out of range for rank \(r)"
        }
    }
}

/// Which input dimensions a reduction folds, precomputed once per shape.
public struct ReductionPlan: Sendable, Equatable {
    /// Input shape.
    public let inputShape: [Int]
    /// Resolved axes (non-negative, without duplicates), in the order given.
    public let axes: [Int]
    /// Output shape (reduced dimensions kept as 1 when `keepDims`, dropped otherwise).
    public let outputShape: [Int]
    /// Number of output elements.
    public let outputCount: Int
    /// Number of input elements folded into each output element.
    public let reducedCount: Int
    /// Output element stride for each input dimension (0 for reduced dimensions).
    let outputStrides: [Int]

    /// Plans reducing `inputShape` over `axes` (negative axes count from the end).
    public init(inputShape: [Int], axes rawAxes: [Int], keepDims: Bool) throws {
        let rank = inputShape.count
        var axes: [Int] = []
        for a in rawAxes {
            let r = a < 0 ? a + rank : a
            guard rank == 0 || (r >= 0 && r < rank) else { throw ReductionError.axisOutOfRange(axis: a, rank: rank) }
            if rank > 0 && !axes.contains(r) { axes.append(r) }
        }
        var outShape: [Int] = []
        var kept: [Int] = []    // extents of the output dims in input order (1 for reduced)
        for d in 0..<rank {
            if axes.contains(d) {
                kept.append(1)
                if keepDims { outShape.append(1) }
            } else {
                kept.append(inputShape[d]); outShape.append(inputShape[d])
            }
        }
        var strides = [Int](repeating: 0, count: rank)
        var acc = 1
        for d in stride(from: rank - 1, through: 0, by: -1) {
            strides[d] = axes.contains(d) ? 0 : acc
            acc *= kept[d]
        }
        self.inputShape = inputShape
        self.axes = axes
        outputShape = outShape
        outputCount = outShape.reduce(1, *)
        reducedCount = axes.reduce(1) { $0 * inputShape[$1] }
        outputStrides = strides
    }

    /// Calls `body(inputIndex, outputIndex)` for every input element in row-major order (the
    /// elements of `forEachRun`'s runs one by one).
    @inline(__always)
    func forEach(_ body: (Int, Int) -> Void) {
        forEachRun { i, o, count in
            for k in 0..<count { body(i + k, o + k) }
        }
    }
}

extension ReductionPlan {
    /// Elements per output when the reduced axes are exactly the last ones (a softmax-like
    /// row: each output folds one contiguous run of the input, output `j` the run at
    /// `j · trailingRun`); nil otherwise.
    var trailingRun: Int? {
        let rank = inputShape.count
        guard !axes.isEmpty, axes.allSatisfy({ $0 >= rank - axes.count }) else { return nil }
        return reducedCount
    }

    /// `forEach` in runs: calls `body(inputIndex, outputIndex, count)` for each run of `count`
    /// consecutive input elements whose output elements are consecutive too (the trailing
    /// dimensions that are not reduced: the channels of a global average pool), runs in
    /// row-major order. A body that folds element `k` of a run into output `outputIndex + k`
    /// folds every output's inputs in the order `forEach` visits them, with a loop the compiler
    /// vectorizes. Without such dimensions, runs are single elements. The call's only temporary
    /// is its index digits, one `Int` per outer dimension (bounded by the input's rank), stack
    /// memory while small: not a per-layer buffer, so not kernel workspace.
    @inline(__always)
    func forEachRun(_ body: (Int, Int, Int) -> Void) {
        let rank = inputShape.count
        var outer = rank, run = 1
        while outer > 0, !axes.contains(outer - 1) { outer -= 1; run *= inputShape[outer] }
        let total = inputShape.reduce(1, *)
        guard total > 0 else { return }
        if outer == 0 { body(0, 0, run); return }
        // Odometer over the outer dimensions with a running output offset.
        let extents = inputShape, strides = outputStrides
        withUnsafeTemporaryAllocation(of: Int.self, capacity: outer) { idx in
            for d in 0..<outer { idx[d] = 0 }
            var outOff = 0
            for i in stride(from: 0, to: total, by: run) {
                body(i, outOff, run)
                var d = outer - 1
                while d >= 0 {
                    idx[d] += 1
                    outOff += strides[d]
                    if idx[d] < extents[d] { break }
                    outOff -= strides[d] * extents[d]
                    idx[d] = 0
                    d -= 1
                }
            }
        }
    }
}

/// Reduction kernels.
public enum ReductionReference {
    /// The reduction.
    public enum Operation: Sendable, Equatable {
        case sum, product, maximum, minimum
    }

    @inline(__always)
    static func reduce<T>(_ plan: ReductionPlan, _ x: UnsafePointer<T>, _ out: UnsafeMutablePointer<T>,
                          initial: T, _ f: (T, T) -> T) {
        if let run = plan.trailingRun {
            // Each output folds its own contiguous run, in the same (element) order.
            for j in 0..<plan.outputCount {
                var acc = initial
                for k in (j * run)..<((j + 1) * run) { acc = f(acc, x[k]) }
                out[j] = acc
            }
            return
        }
        for j in 0..<plan.outputCount { out[j] = initial }
        plan.forEachRun { i, o, count in
            for k in 0..<count { out[o + k] = f(out[o + k], x[i + k]) }
        }
    }

    /// The float REDUCE_MAX (`isMax`) or REDUCE_MIN of `reduce` (a value replaces the running
    /// one when strictly beyond it, so NaNs never enter and the first of equal values stays).
    /// Over trailing runs, sixteen lanes at a time, then across lanes: the same value, except
    /// that among zeros the lanes may meet a different one first, so a run whose result is a
    /// zero takes the run's first zero, the one the element-by-element fold keeps.
    static func extremumFloat32(isMax: Bool, _ plan: ReductionPlan, _ x: UnsafePointer<Float>,
                                _ out: UnsafeMutablePointer<Float>) {
        let initial: Float = isMax ? -.greatestFiniteMagnitude : .greatestFiniteMagnitude
        @inline(__always) func beyond(_ v: Float, _ acc: Float) -> Bool { isMax ? v > acc : v < acc }
        guard let run = plan.trailingRun, run >= 32 else {
            return isMax ? reduce(plan, x, out, initial: initial) { $1 > $0 ? $1 : $0 }
                         : reduce(plan, x, out, initial: initial) { $1 < $0 ? $1 : $0 }
        }
        for j in 0..<plan.outputCount {
            let row = x + j * run
            var lanes = SIMD16<Float>(repeating: initial)
            var k = 0
            while k + 16 <= run {
                let v = UnsafeRawPointer(row + k).loadUnaligned(as: SIMD16<Float>.self)
                lanes = lanes.replacing(with: v, where: isMax ? v .> lanes : v .< lanes)
                k += 16
            }
            var acc = initial
            for l in 0..<16 where beyond(lanes[l], acc) { acc = lanes[l] }
            while k < run { if beyond(row[k], acc) { acc = row[k] }; k += 1 }
            // The fold keeps the first zero it meets (every value before it is beyond zero on
            // the other side): that zero, with its sign.
            if acc == 0, let first = (0..<run).first(where: { row[$0] == 0 }) { acc = row[first] }
            out[j] = acc
        }
    }

    /// The float sum of `reduce`, its runs 16 lanes at a time (each lane's additions in the
    /// same order, so the same sums); over trailing runs, one running sum per run.
    static func sumFloat32(_ plan: ReductionPlan, _ x: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>) {
        if plan.trailingRun != nil { return reduce(plan, x, out, initial: 0) { $0 + $1 } }
        for j in 0..<plan.outputCount { out[j] = 0 }
        plan.forEachRun { i, o, count in
            var k = 0
            while k + 16 <= count {
                let sum = UnsafeRawPointer(out + o + k).loadUnaligned(as: SIMD16<Float>.self)
                    + UnsafeRawPointer(x + i + k).loadUnaligned(as: SIMD16<Float>.self)
                UnsafeMutableRawPointer(out + o + k).storeBytes(of: sum, as: SIMD16<Float>.self)
                k += 16
            }
            while k < count { out[o + k] = out[o + k] + x[i + k]; k += 1 }
        }
    }

    /// SUM / REDUCE_PROD / REDUCE_MAX / REDUCE_MIN on float32.
    public static func float32(_ op: Operation, plan: ReductionPlan, _ x: UnsafePointer<Float>,
                               _ out: UnsafeMutablePointer<Float>) {
        switch op {
        case .sum: sumFloat32(plan, x, out)
        case .product: reduce(plan, x, out, initial: 1) { $0 * $1 }
        case .maximum: extremumFloat32(isMax: true, plan, x, out)
        case .minimum: extremumFloat32(isMax: false, plan, x, out)
        }
    }

    @inline(__always)
    static func integer<T: FixedWidthInteger>(_ op: Operation, _ plan: ReductionPlan, _ x: UnsafePointer<T>,
                                              _ out: UnsafeMutablePointer<T>) {
        switch op {
        case .sum: reduce(plan, x, out, initial: 0) { $0 &+ $1 }
        case .product: reduce(plan, x, out, initial: 1) { $0 &* $1 }
        case .maximum: reduce(plan, x, out, initial: T.min) { $1 > $0 ? $1 : $0 }
        case .minimum: reduce(plan, x, out, initial: T.max) { $1 < $0 ? $1 : $0 }
        }
    }

    /// Integer reductions (wrapping sum / product) on int32.
    public static func int32(_ op: Operation, plan: ReductionPlan, _ x: UnsafePointer<Int32>, _ out: UnsafeMutablePointer<Int32>) {
        integer(op, plan, x, out)
    }
    /// Integer reductions on int64.
    public static func int64(_ op: Operation, plan: ReductionPlan, _ x: UnsafePointer<Int64>, _ out: UnsafeMutablePointer<Int64>) {
        integer(op, plan, x, out)
    }
    /// Raw reductions on int8 (quantized inputs with the output's scale and zero point).
    public static func int8(_ op: Operation, plan: ReductionPlan, _ x: UnsafePointer<Int8>, _ out: UnsafeMutablePointer<Int8>) {
        integer(op, plan, x, out)
    }
    /// Raw reductions on uint8.
    public static func uint8(_ op: Operation, plan: ReductionPlan, _ x: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>) {
        integer(op, plan, x, out)
    }
    /// Raw reductions on int16.
    public static func int16(_ op: Operation, plan: ReductionPlan, _ x: UnsafePointer<Int16>, _ out: UnsafeMutablePointer<Int16>) {
        integer(op, plan, x, out)
    }

    /// Float MEAN: sum in row-major order, then divide by the reduced element count.
    public static func meanFloat32(plan: ReductionPlan, _ x: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>) {
        sumFloat32(plan, x, out)
        let n = Float(plan.reducedCount)
        if plan.reducedCount > 0 { for j in 0..<plan.outputCount { out[j] = out[j] / n } }
    }

    /// Integer MEAN (int32 / int64): sum in 64 bits, divide truncating toward zero.
    public static func meanInt32(plan: ReductionPlan, scratch: UnsafeMutablePointer<Int64>,
                                 _ x: UnsafePointer<Int32>, _ out: UnsafeMutablePointer<Int32>) {
        for j in 0..<plan.outputCount { scratch[j] = 0 }
        plan.forEach { i, o in scratch[o] = scratch[o] &+ Int64(x[i]) }
        let n = Int64(plan.reducedCount)
        if n > 0 { for j in 0..<plan.outputCount { out[j] = Int32(truncatingIfNeeded: scratch[j] / n) } }
    }

    /// Integer MEAN on int64.
    public static func meanInt64(plan: ReductionPlan, _ x: UnsafePointer<Int64>, _ out: UnsafeMutablePointer<Int64>) {
        reduce(plan, x, out, initial: 0) { $0 &+ $1 }
        let n = Int64(plan.reducedCount)
        if n > 0 { for j in 0..<plan.outputCount { out[j] = out[j] / n } }
    }
}
