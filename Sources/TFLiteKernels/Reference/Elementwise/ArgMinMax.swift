// ARG_MAX / ARG_MIN along one axis; ties pick the first index, as the reference does.

/// ARG_MAX / ARG_MIN kernels.
public enum ArgMinMaxReference {
    /// Finds, for each (outer, inner) position, the index along the axis of the largest
    /// (`isMax`) or smallest value. Input is viewed as `[outer, axisSize, inner]`.
    @inline(__always)
    static func run<T: Comparable, I: FixedWidthInteger>(isMax: Bool, outer: Int, axisSize: Int, inner: Int,
                                                         _ x: UnsafePointer<T>, _ out: UnsafeMutablePointer<I>) {
        for o in 0..<outer {
            for i in 0..<inner {
                let base = o * axisSize * inner + i
                var best = x[base]
                var bestIndex = 0
                if axisSize > 1 {
                    for k in 1..<axisSize {
                        let v = x[base + k * inner]
                        if isMax ? (v > best) : (v < best) { best = v; bestIndex = k }
                    }
                }
                out[o * inner + i] = I(truncatingIfNeeded: bestIndex)
            }
        }
    }

    /// The input element type.
    public enum InputType: Sendable { case float32, int32, int64, int8, uint8, int16, bool }

    /// ARG_MAX / ARG_MIN over raw memory; `out` is int32 (`outputIsInt64 == false`) or int64.
    public static func argMinMax(isMax: Bool, type: InputType, outer: Int, axisSize: Int, inner: Int,
                                 _ x: UnsafeRawPointer, _ out: UnsafeMutableRawPointer, outputIsInt64: Bool) {
        func go<T: Comparable>(_: T.Type) {
            let xp = x.assumingMemoryBound(to: T.self)
            if outputIsInt64 {
                run(isMax: isMax, outer: outer, axisSize: axisSize, inner: inner, xp, out.assumingMemoryBound(to: Int64.self))
            } else {
                run(isMax: isMax, outer: outer, axisSize: axisSize, inner: inner, xp, out.assumingMemoryBound(to: Int32.self))
            }
        }
        switch type {
        case .float32 where inner == 1 && axisSize >= 32 && axisSize <= Int(Int32.max):
            let xp = x.assumingMemoryBound(to: Float.self)
            if outputIsInt64 {
                floatRows(isMax: isMax, outer: outer, axisSize: axisSize, xp, out.assumingMemoryBound(to: Int64.self))
            } else {
                floatRows(isMax: isMax, outer: outer, axisSize: axisSize, xp, out.assumingMemoryBound(to: Int32.self))
            }
        case .float32: go(Float.self)
        case .int32: go(Int32.self)
        case .int64: go(Int64.self)
        case .int8: go(Int8.self)
        case .uint8, .bool: go(UInt8.self)
        case .int16: go(Int16.self)
        }
    }

    /// `run` over float rows along the last axis (`inner == 1`, `32 ≤ axisSize ≤ Int32.max`),
    /// sixteen lanes at a time. Without NaN, `run`'s answer is the first index of the row's
    /// extreme (equal values compared as numbers, so `-0.0` and `0.0` tie): each lane keeps the
    /// first index of its own extreme, the answer is the least of the lanes' indices whose
    /// extreme is the row's, else the first one in the tail. A row holding a NaN runs `run`'s
    /// scan (a leading NaN stays the answer there, and later ones are skipped).
    @inline(__always)
    static func floatRows<I: FixedWidthInteger>(isMax: Bool, outer: Int, axisSize: Int, _ x: UnsafePointer<Float>,
                                                _ out: UnsafeMutablePointer<I>) {
        let iota = SIMD16<Int32>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
        for o in 0..<outer {
            let row = x + o * axisSize
            var best = UnsafeRawPointer(row).loadUnaligned(as: SIMD16<Float>.self)
            var index = iota
            var nan = best .!= best
            var k = 16
            while k + 16 <= axisSize {
                let v = UnsafeRawPointer(row + k).loadUnaligned(as: SIMD16<Float>.self)
                nan .|= v .!= v
                let take = isMax ? v .> best : v .< best
                best = best.replacing(with: v, where: take)
                index = index.replacing(with: iota &+ Int32(k), where: take)
                k += 16
            }
            var tailNaN = false
            for t in k..<axisSize where row[t] != row[t] { tailNaN = true }
            if any(nan) || tailNaN {
                run(isMax: isMax, outer: 1, axisSize: axisSize, inner: 1, row, out + o)
                continue
            }
            var extreme = best[0]
            for l in 1..<16 where isMax ? best[l] > extreme : best[l] < extreme { extreme = best[l] }
            for t in k..<axisSize where isMax ? row[t] > extreme : row[t] < extreme { extreme = row[t] }
            var answer = Int32.max
            for l in 0..<16 where best[l] == extreme { answer = Swift.min(answer, index[l]) }
            if answer == .max {
                for t in k..<axisSize where row[t] == extreme { answer = Int32(t); break }
            }
            out[o] = I(truncatingIfNeeded: answer)
        }
    }
}
