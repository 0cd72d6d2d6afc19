// Optimized float32 ADD / SUB / MUL / DIV / MAXIMUM / MINIMUM with the fused clamp: 16-lane
// vector loops over contiguous runs, for same-shape operands and for the broadcast rows
// of a `BroadcastLayout` (scalar, per-channel and row operands). Tested against
// `BinaryArithmetic.float32`.

/// Optimized two-input float kernels.
public enum OptimizedBinaryArithmetic {
    /// True for the operations these kernels implement.
    public static func supportsFloat(_ op: BinaryArithmetic.Operation) -> Bool {
        switch op {
        case .add, .sub, .mul, .div, .maximum, .minimum, .squaredDifference: return true
        default: return false
        }
    }

    @inline(__always)
    static func run(_ n: Int, _ a: UnsafePointer<Float>, _ sa: Int, _ b: UnsafePointer<Float>, _ sb: Int,
                    _ out: UnsafeMutablePointer<Float>, _ lo: Float, _ hi: Float,
                    _ v: (SIMD16<Float>, SIMD16<Float>) -> SIMD16<Float>, _ s: (Float, Float) -> Float) {
        typealias F = SIMD16<Float>
        let vlo = F(repeating: lo), vhi = F(repeating: hi)
        var i = 0
        let rawA = UnsafeRawPointer(a), rawB = UnsafeRawPointer(b), rawO = UnsafeMutableRawPointer(out)
        if sa == 1 && sb == 1 {
            while i + 16 <= n {
                let x = rawA.loadUnaligned(fromByteOffset: i * 4, as: F.self)
                let y = rawB.loadUnaligned(fromByteOffset: i * 4, as: F.self)
                rawO.storeBytes(of: pointwiseMin(pointwiseMax(v(x, y), vlo), vhi), toByteOffset: i * 4, as: F.self)
                i += 16
            }
        } else if sa == 1 {
            let y = F(repeating: b[0])
            while i + 16 <= n {
                let x = rawA.loadUnaligned(fromByteOffset: i * 4, as: F.self)
                rawO.storeBytes(of: pointwiseMin(pointwiseMax(v(x, y), vlo), vhi), toByteOffset: i * 4, as: F.self)
                i += 16
            }
        } else if sb == 1 {
            let x = F(repeating: a[0])
            while i + 16 <= n {
                let y = rawB.loadUnaligned(fromByteOffset: i * 4, as: F.self)
                rawO.storeBytes(of: pointwiseMin(pointwiseMax(v(x, y), vlo), vhi), toByteOffset: i * 4, as: F.self)
                i += 16
            }
        }
        while i < n {
            out[i] = Swift.min(Swift.max(s(a[i * sa], b[i * sb]), lo), hi)
            i += 1
        }
    }

    @inline(__always)
    static func dispatch(_ op: BinaryArithmetic.Operation, _ n: Int, _ a: UnsafePointer<Float>, _ sa: Int,
                         _ b: UnsafePointer<Float>, _ sb: Int, _ out: UnsafeMutablePointer<Float>, _ lo: Float, _ hi: Float) {
        switch op {
        case .add: run(n, a, sa, b, sb, out, lo, hi, { $0 + $1 }, { $0 + $1 })
        case .sub: run(n, a, sa, b, sb, out, lo, hi, { $0 - $1 }, { $0 - $1 })
        case .mul: run(n, a, sa, b, sb, out, lo, hi, { $0 * $1 }, { $0 * $1 })
        case .div: run(n, a, sa, b, sb, out, lo, hi, { $0 / $1 }, { $0 / $1 })
        // Like the reference, only ADD / SUB / MUL / DIV apply the fused clamp.
        case .maximum: run(n, a, sa, b, sb, out, -.infinity, .infinity, { $0.replacing(with: $1, where: $1 .> $0) }, { $0 > $1 ? $0 : $1 })
        case .minimum: run(n, a, sa, b, sb, out, -.infinity, .infinity, { $0.replacing(with: $1, where: $1 .< $0) }, { $0 < $1 ? $0 : $1 })
        case .squaredDifference: run(n, a, sa, b, sb, out, -.infinity, .infinity, { ($0 - $1) * ($0 - $1) }, { ($0 - $1) * ($0 - $1) })
        default: break
        }
    }

    /// Same-shape elementwise operation on `range` of the flat buffers.
    public static func float32Elementwise(_ op: BinaryArithmetic.Operation, range: Range<Int>,
                                          _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>,
                                          _ out: UnsafeMutablePointer<Float>,
                                          activationMin lo: Float = -.infinity, activationMax hi: Float = .infinity) {
        let s = range.lowerBound
        dispatch(op, range.count, a + s, 1, b + s, 1, out + s, lo, hi)
    }

    /// Broadcast operation over the innermost `rows` of `layout`.
    public static func float32(_ op: BinaryArithmetic.Operation, layout: BroadcastLayout, rows: Range<Int>,
                               _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>,
                               activationMin lo: Float = -.infinity, activationMax hi: Float = .infinity) {
        let inner = layout.innerCount
        let sa = layout.stridesA[BroadcastLayout.maxRank - 1], sb = layout.stridesB[BroadcastLayout.maxRank - 1]
        layout.forEachRow(in: rows) { o, offA, offB in
            dispatch(op, inner, a + offA, sa, b + offB, sb, out + o, lo, hi)
        }
    }
}
