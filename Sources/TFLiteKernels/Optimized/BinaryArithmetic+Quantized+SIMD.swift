// Optimized quantized ADD / SUB / MUL for int8 and uint8: the reference's fixed-point
// arithmetic (left shift 20, double-rounding high multiply, rounding right shift) on
// 16-lane Int32/Int64 vectors. Bit-exact with `BinaryArithmetic.quantizedAdd/Mul`
// (tested on random shapes and parameters).

/// Optimized quantized two-input kernels.
public enum OptimizedQuantizedArithmetic {
    typealias I = SIMD16<Int32>
    typealias L = SIMD16<Int64>

    /// `saturatingRoundingDoublingHighMul(x, m)` per lane for a multiplier in (0, 2^31):
    /// `(x·m + 2^30) >> 31` equals the reference's truncating division in both signs.
    @inline(__always)
    static func highMul(_ x: I, _ m: Int32) -> I {
        let p = L(truncatingIfNeeded: x) &* Int64(m) &+ (Int64(1) << 30)
        return I(truncatingIfNeeded: p &>> 31)
    }

    /// `roundingDivideByPOT(x, e)` per lane.
    @inline(__always)
    static func roundingShift(_ x: I, _ e: Int) -> I {
        if e == 0 { return x }
        let mask = Int32(truncatingIfNeeded: (Int64(1) << e) - 1)
        let remainder = x & mask
        var threshold = I(repeating: mask >> 1)
        threshold = threshold.replacing(with: (mask >> 1) &+ 1, where: x .< 0)
        let base = x &>> Int32(e)
        return base.replacing(with: base &+ 1, where: remainder .> threshold)
    }

    /// `multiplyByQuantizedMultiplier(x, m)` per lane.
    @inline(__always)
    static func requantize(_ x: I, _ m: QuantizedMultiplier) -> I {
        let left = m.shift > 0 ? m.shift : 0, right = m.shift > 0 ? 0 : -m.shift
        let shifted = left > 0 ? x &<< Int32(left) : x
        return roundingShift(highMul(shifted, m.multiplier), right)
    }

    @inline(__always)
    static func load<T: FixedWidthInteger>(_ p: UnsafePointer<T>, _ i: Int, stride s: Int) -> I {
        if s == 0 { return I(repeating: Int32(p[0])) }
        if T.self == Int8.self {
            return I(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(fromByteOffset: i, as: SIMD16<Int8>.self))
        }
        return I(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self))
    }

    @inline(__always)
    static func store<T: FixedWidthInteger>(_ v: I, _ p: UnsafeMutablePointer<T>, _ i: Int) {
        if T.self == Int8.self {
            UnsafeMutableRawPointer(p).storeBytes(of: SIMD16<Int8>(truncatingIfNeeded: v), toByteOffset: i, as: SIMD16<Int8>.self)
        } else {
            UnsafeMutableRawPointer(p).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: v), toByteOffset: i, as: SIMD16<UInt8>.self)
        }
    }

    @inline(__always)
    static func addRun<T: FixedWidthInteger>(_ n: Int, _ a: UnsafePointer<T>, _ sa: Int, _ b: UnsafePointer<T>, _ sb: Int,
                                              _ out: UnsafeMutablePointer<T>, _ p: BinaryArithmetic.QuantizedAddParams,
                                              subtract: Bool) {
        var i = 0
        let shift = Int32(p.leftShift)
        let lo = I(repeating: p.activationMin), hi = I(repeating: p.activationMax)
        let m1 = p.input1Multiplier, m2 = p.input2Multiplier, mo = p.outputMultiplier
        while i + 16 <= n {
            let x = (load(a, i, stride: sa) &+ p.input1Offset) &<< shift
            let y = (load(b, i, stride: sb) &+ p.input2Offset) &<< shift
            let s1 = roundingShift(highMul(x, m1.multiplier), -m1.shift)
            let s2 = roundingShift(highMul(y, m2.multiplier), -m2.shift)
            let raw = subtract ? s1 &- s2 : s1 &+ s2
            let o = roundingShift(highMul(raw, mo.multiplier), -mo.shift) &+ p.outputOffset
            store(pointwiseMin(pointwiseMax(o, lo), hi), out, i)
            i += 16
        }
        while i < n {
            out[i] = T(truncatingIfNeeded: BinaryArithmetic.quantizedAddElement(
                Int32(a[i * sa]), Int32(b[i * sb]), p, subtract: subtract))
            i += 1
        }
    }

    @inline(__always)
    static func mulRun<T: FixedWidthInteger>(_ n: Int, _ a: UnsafePointer<T>, _ sa: Int, _ b: UnsafePointer<T>, _ sb: Int,
                                              _ out: UnsafeMutablePointer<T>, _ p: BinaryArithmetic.QuantizedMulParams) {
        var i = 0
        let lo = I(repeating: p.activationMin), hi = I(repeating: p.activationMax)
        while i + 16 <= n {
            let x = load(a, i, stride: sa) &+ p.input1Offset
            let y = load(b, i, stride: sb) &+ p.input2Offset
            let o = requantize(x &* y, p.outputMultiplier) &+ p.outputOffset
            store(pointwiseMin(pointwiseMax(o, lo), hi), out, i)
            i += 16
        }
        while i < n {
            out[i] = T(truncatingIfNeeded: BinaryArithmetic.quantizedMulElement(Int32(a[i * sa]), Int32(b[i * sb]), p))
            i += 1
        }
    }

    /// Calls `body(count, offsetA, strideA, offsetB, strideB, offsetOut)` for each innermost run.
    @inline(__always)
    static func forEachRun(_ layout: BroadcastLayout, _ rows: Range<Int>,
                           _ body: (Int, Int, Int, Int, Int, Int) -> Void) {
        let inner = layout.innerCount
        let sa = layout.stridesA[BroadcastLayout.maxRank - 1], sb = layout.stridesB[BroadcastLayout.maxRank - 1]
        layout.forEachRow(in: rows) { o, offA, offB in body(inner, offA, sa, offB, sb, o) }
    }

    /// Quantized ADD / SUB on int8, same shapes, over `range`.
    public static func addInt8(range: Range<Int>, _ a: UnsafePointer<Int8>, _ b: UnsafePointer<Int8>,
                               _ out: UnsafeMutablePointer<Int8>, _ p: BinaryArithmetic.QuantizedAddParams, subtract: Bool = false) {
        let s = range.lowerBound
        addRun(range.count, a + s, 1, b + s, 1, out + s, p, subtract: subtract)
    }
    /// Quantized ADD / SUB on uint8, same shapes, over `range`.
    public static func addUInt8(range: Range<Int>, _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>,
                                _ out: UnsafeMutablePointer<UInt8>, _ p: BinaryArithmetic.QuantizedAddParams, subtract: Bool = false) {
        let s = range.lowerBound
        addRun(range.count, a + s, 1, b + s, 1, out + s, p, subtract: subtract)
    }
    /// Quantized ADD / SUB on int8 over broadcast rows.
    public static func addInt8(layout: BroadcastLayout, rows: Range<Int>, _ a: UnsafePointer<Int8>, _ b: UnsafePointer<Int8>,
                               _ out: UnsafeMutablePointer<Int8>, _ p: BinaryArithmetic.QuantizedAddParams, subtract: Bool = false) {
        forEachRun(layout, rows) { n, oa, sa, ob, sb, o in
            addRun(n, a + oa, sa, b + ob, sb, out + o, p, subtract: subtract)
        }
    }
    /// Quantized ADD / SUB on uint8 over broadcast rows.
    public static func addUInt8(layout: BroadcastLayout, rows: Range<Int>, _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>,
                                _ out: UnsafeMutablePointer<UInt8>, _ p: BinaryArithmetic.QuantizedAddParams, subtract: Bool = false) {
        forEachRun(layout, rows) { n, oa, sa, ob, sb, o in
            addRun(n, a + oa, sa, b + ob, sb, out + o, p, subtract: subtract)
        }
    }
    /// Quantized MUL on int8, same shapes, over `range`.
    public static func mulInt8(range: Range<Int>, _ a: UnsafePointer<Int8>, _ b: UnsafePointer<Int8>,
                               _ out: UnsafeMutablePointer<Int8>, _ p: BinaryArithmetic.QuantizedMulParams) {
        let s = range.lowerBound
        mulRun(range.count, a + s, 1, b + s, 1, out + s, p)
    }
    /// Quantized MUL on uint8, same shapes, over `range`.
    public static func mulUInt8(range: Range<Int>, _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>,
                                _ out: UnsafeMutablePointer<UInt8>, _ p: BinaryArithmetic.QuantizedMulParams) {
        let s = range.lowerBound
        mulRun(range.count, a + s, 1, b + s, 1, out + s, p)
    }
    /// Quantized MUL on int8 over broadcast rows.
    public static func mulInt8(layout: BroadcastLayout, rows: Range<Int>, _ a: UnsafePointer<Int8>, _ b: UnsafePointer<Int8>,
                               _ out: UnsafeMutablePointer<Int8>, _ p: BinaryArithmetic.QuantizedMulParams) {
        forEachRun(layout, rows) { n, oa, sa, ob, sb, o in
            mulRun(n, a + oa, sa, b + ob, sb, out + o, p)
        }
    }
    /// Quantized MUL on uint8 over broadcast rows.
    public static func mulUInt8(layout: BroadcastLayout, rows: Range<Int>, _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>,
                                _ out: UnsafeMutablePointer<UInt8>, _ p: BinaryArithmetic.QuantizedMulParams) {
        forEachRun(layout, rows) { n, oa, sa, ob, sb, o in
            mulRun(n, a + oa, sa, b + ob, sb, out + o, p)
        }
    }
}
