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
        case .float32: go(Float.self)
        case .int32: go(Int32.self)
        case .int64: go(Int64.self)
        case .int8: go(Int8.self)
        case .uint8, .bool: go(UInt8.self)
        case .int16: go(Int16.self)
        }
    }
}
