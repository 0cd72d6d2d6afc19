#if LITEVISION_AVX512
import _Builtin_intrinsics.intel
#endif

// Quantized 8-bit ADD / SUB / MUL computed 16 elements at a time with exactly the reference's
// integer arithmetic: zero-point offsets and products in Int32 lanes, the rounding doubling
// high multiply as unsigned 32×32→64 products of even and odd lanes (shared with the
// convolution epilogue), then the rounding divide by a power of two, output offset and clamp. No lookups, so the loop
// vectorizes; bit-exact with `BinaryArithmeticReference.quantizedAddElement` / `quantizedMulElement`.

/// Vectorized 8-bit quantized ADD, SUB and MUL.
public enum QuantizedBinaryArithmeticOptimized {
    /// Whether `p` is within what the vector ADD handles (rescales with shift ≤ 0 and right
    /// shifts below 32, left shift ≤ 24); otherwise use the table or the reference.
    public static func supports(_ p: BinaryArithmeticReference.QuantizedAddParams) -> Bool {
        [p.input1Multiplier, p.input2Multiplier, p.outputMultiplier].allSatisfy {
            $0.multiplier >= 0 && $0.shift <= 0 && $0.shift > -32
        }
            && p.leftShift >= 0 && p.leftShift <= 24
    }

    /// Whether `p` is within what the vector MUL handles (|shift| < 32).
    public static func supports(_ p: BinaryArithmeticReference.QuantizedMulParams) -> Bool {
        p.outputMultiplier.multiplier >= 0 && p.outputMultiplier.shift > -32 && p.outputMultiplier.shift < 31
    }

    /// `saturatingRoundingDoublingHighMul(x, m)` for 0 ≤ `m` < 2^31: the convolution
    /// epilogue's exact unsigned even/odd-lane high multiply with its signed fix-up.
    @inline(__always)
    static func doublingHighMul(_ x: SIMD16<Int32>, _ m: Int64) -> SIMD16<Int32> {
        ConvRequantizer.roundingDoublingHighMul(x, SIMD16<Int32>(repeating: Int32(truncatingIfNeeded: m)))
    }

    /// `roundingDivideByPOT(x, exponent)` for 0 ≤ exponent < 32.
    @inline(__always)
    static func roundingDivideByPOT(_ x: SIMD16<Int32>, _ exponent: Int32) -> SIMD16<Int32> {
        let mask = Int32(truncatingIfNeeded: (Int64(1) << Int64(exponent)) - 1)
        let remainder = x & SIMD16<Int32>(repeating: mask)
        // threshold = mask / 2 + (x < 0 ? 1 : 0)
        let threshold = SIMD16<Int32>(repeating: mask >> 1) &- (x &>> 31)
        let roundUp = SIMD16<Int32>(repeating: 0).replacing(with: 1, where: remainder .> threshold)
        return (x &>> SIMD16<Int32>(repeating: exponent)) &+ roundUp
    }

    @inline(__always)
    static func clamp(_ v: SIMD16<Int32>, _ lo: Int32, _ hi: Int32) -> SIMD16<Int32> {
        pointwiseMax(pointwiseMin(v, SIMD16<Int32>(repeating: hi)), SIMD16<Int32>(repeating: lo))
    }

    /// Precomputed constants of one MUL.
    @usableFromInline
    struct MulConstants {
        var offsetA: SIMD16<Int32>, offsetB: SIMD16<Int32>
        var leftShift: Int32, rightShift: Int32, multiplier: Int64
        var outputOffset: SIMD16<Int32>, lo: Int32, hi: Int32

        init(_ p: BinaryArithmeticReference.QuantizedMulParams) {
            offsetA = SIMD16(repeating: p.input1Offset); offsetB = SIMD16(repeating: p.input2Offset)
            let shift = Int32(p.outputMultiplier.shift)
            leftShift = max(shift, 0); rightShift = max(-shift, 0)
            multiplier = Int64(p.outputMultiplier.multiplier)
            outputOffset = SIMD16(repeating: p.outputOffset); lo = p.activationMin; hi = p.activationMax
        }

        @inline(__always)
        func apply(_ a: SIMD16<Int32>, _ b: SIMD16<Int32>) -> SIMD16<Int32> {
            let product = ((a &+ offsetA) &* (b &+ offsetB)) &<< SIMD16<Int32>(repeating: leftShift)
            let scaled = roundingDivideByPOT(doublingHighMul(product, multiplier), rightShift)
            return clamp(scaled &+ outputOffset, lo, hi)
        }
    }

    /// Precomputed constants of one ADD or SUB.
    @usableFromInline
    struct AddConstants {
        var offsetA: SIMD16<Int32>, offsetB: SIMD16<Int32>, leftShift: SIMD16<Int32>
        var multiplierA: Int64, shiftA: Int32, multiplierB: Int64, shiftB: Int32
        var multiplierOut: Int64, shiftOut: Int32
        var outputOffset: SIMD16<Int32>, lo: Int32, hi: Int32, subtract: Bool

        init(_ p: BinaryArithmeticReference.QuantizedAddParams, subtract: Bool) {
            offsetA = SIMD16(repeating: p.input1Offset); offsetB = SIMD16(repeating: p.input2Offset)
            leftShift = SIMD16(repeating: Int32(p.leftShift))
            multiplierA = Int64(p.input1Multiplier.multiplier); shiftA = Int32(-p.input1Multiplier.shift)
            multiplierB = Int64(p.input2Multiplier.multiplier); shiftB = Int32(-p.input2Multiplier.shift)
            multiplierOut = Int64(p.outputMultiplier.multiplier); shiftOut = Int32(-p.outputMultiplier.shift)
            outputOffset = SIMD16(repeating: p.outputOffset); lo = p.activationMin; hi = p.activationMax
            self.subtract = subtract
        }

        @inline(__always)
        func apply(_ a: SIMD16<Int32>, _ b: SIMD16<Int32>) -> SIMD16<Int32> {
            output(rescaledA(a), rescaledB(b))
        }

        /// First-input codes on the sum's scale (depends on that input alone).
        @inline(__always)
        func rescaledA(_ a: SIMD16<Int32>) -> SIMD16<Int32> {
            roundingDivideByPOT(doublingHighMul((a &+ offsetA) &<< leftShift, multiplierA), shiftA)
        }

        /// Second-input codes on the sum's scale.
        @inline(__always)
        func rescaledB(_ b: SIMD16<Int32>) -> SIMD16<Int32> {
            roundingDivideByPOT(doublingHighMul((b &+ offsetB) &<< leftShift, multiplierB), shiftB)
        }

        /// The output codes of rescaled inputs: their sum (difference) rescaled, offset, clamped.
        @inline(__always)
        func output(_ sa: SIMD16<Int32>, _ sb: SIMD16<Int32>) -> SIMD16<Int32> {
            let raw = subtract ? sa &- sb : sa &+ sb
            let out = roundingDivideByPOT(doublingHighMul(raw, multiplierOut), shiftOut)
            return clamp(out &+ outputOffset, lo, hi)
        }
    }

    /// Whether a same-shape MUL with `p` is faster computed than read from the 64K pair table
    /// (AVX-512 builds, when the intrinsic kernel handles `p`).
    public static func mulBeatsPairTable(_ p: BinaryArithmeticReference.QuantizedMulParams) -> Bool {
        #if LITEVISION_AVX512
        return avx512Supports(p)
        #else
        return false
        #endif
    }

    /// int8 MUL of same-shape operands over `range`.
    /// - Precondition: `range.lowerBound ≥ 0`; every pointer holds at least `range.upperBound` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func mul(_ p: BinaryArithmeticReference.QuantizedMulParams, range: Range<Int>,
                           _ a: UnsafePointer<Int8>, _ b: UnsafePointer<Int8>, _ out: UnsafeMutablePointer<Int8>) {
        KernelPrecondition.validRange(range)
        #if LITEVISION_AVX512
        if avx512Supports(p) {
            mulAVX512(p, range: range, a, b, out) { _mm512_cvtepi8_epi32($0.loadUnaligned(as: __m128i.self)) }
            return
        }
        #endif
        let k = MulConstants(p)
        run(range: range, a, b, out, stepA: 1, stepB: 1) { k.apply($0, $1) } scalar: {
            BinaryArithmeticReference.quantizedMulElement($0, $1, p)
        }
    }

    /// uint8 MUL of same-shape operands over `range`.
    /// - Precondition: `range.lowerBound ≥ 0`; every pointer holds at least `range.upperBound` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func mul(_ p: BinaryArithmeticReference.QuantizedMulParams, range: Range<Int>,
                           _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>) {
        KernelPrecondition.validRange(range)
        #if LITEVISION_AVX512
        if avx512Supports(p) {
            mulAVX512(p, range: range, a, b, out) { _mm512_cvtepu8_epi32($0.loadUnaligned(as: __m128i.self)) }
            return
        }
        #endif
        let k = MulConstants(p)
        run(range: range, a, b, out, stepA: 1, stepB: 1) { k.apply($0, $1) } scalar: {
            BinaryArithmeticReference.quantizedMulElement($0, $1, p)
        }
    }

    /// int8 ADD (or SUB) of same-shape operands over `range`.
    /// - Precondition: `range.lowerBound ≥ 0`; every pointer holds at least `range.upperBound` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func add(_ p: BinaryArithmeticReference.QuantizedAddParams, subtract: Bool, range: Range<Int>,
                           _ a: UnsafePointer<Int8>, _ b: UnsafePointer<Int8>, _ out: UnsafeMutablePointer<Int8>) {
        KernelPrecondition.validRange(range)
        let rest = generatedAdd(p, subtract: subtract, signed: true, range: range, a, b, out)
        let k = AddConstants(p, subtract: subtract)
        run(range: rest, a, b, out, stepA: 1, stepB: 1) { k.apply($0, $1) } scalar: {
            BinaryArithmeticReference.quantizedAddElement($0, $1, p, subtract: subtract)
        }
    }

    /// uint8 ADD (or SUB) of same-shape operands over `range`.
    /// - Precondition: `range.lowerBound ≥ 0`; every pointer holds at least `range.upperBound` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func add(_ p: BinaryArithmeticReference.QuantizedAddParams, subtract: Bool, range: Range<Int>,
                           _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>) {
        KernelPrecondition.validRange(range)
        let rest = generatedAdd(p, subtract: subtract, signed: false, range: range, a, b, out)
        let k = AddConstants(p, subtract: subtract)
        run(range: rest, a, b, out, stepA: 1, stepB: 1) { k.apply($0, $1) } scalar: {
            BinaryArithmeticReference.quantizedAddElement($0, $1, p, subtract: subtract)
        }
    }

    /// Runs the whole 16-element blocks of `range` through the generated `QuantizedAdd16AVX512`
    /// where there is one (AVX-512) and `p` is within what it handles; returns what is left.
    private static func generatedAdd<T: QuantizedByteLane>(
        _ p: BinaryArithmeticReference.QuantizedAddParams, subtract: Bool, signed: Bool, range: Range<Int>,
        _ a: UnsafePointer<T>, _ b: UnsafePointer<T>, _ out: UnsafeMutablePointer<T>
    ) -> Range<Int> {
        let blocks = range.count / 16
        guard blocks > 0, supports(p), let kernels = GeneratedKernels.current?.quantizedAdd else { return range }
        var arguments = GeneratedQuantizedAddArguments(p, a: UnsafeRawPointer(a + range.lowerBound),
                                                       b: UnsafeRawPointer(b + range.lowerBound),
                                                       output: UnsafeMutableRawPointer(out + range.lowerBound), blocks: blocks)
        withUnsafePointer(to: &arguments) { kernels.kernel(signed: signed, subtract: subtract)(UnsafeRawPointer($0)) }
        return (range.lowerBound + 16 * blocks)..<range.upperBound
    }

    /// int8 MUL over the innermost `rows` of a broadcast `layout`.
    /// - Precondition: `rows` lies in `0..<layout.rowCount`; the pointers hold the layout's operand and output elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func mul(_ p: BinaryArithmeticReference.QuantizedMulParams, layout: BroadcastLayout, rows: Range<Int>,
                           _ a: UnsafePointer<Int8>, _ b: UnsafePointer<Int8>, _ out: UnsafeMutablePointer<Int8>) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= layout.rowCount, "rows \(rows) outside 0..<\(layout.rowCount)")
        let k = MulConstants(p)
        broadcast(layout, rows: rows, a, b, out) { k.apply($0, $1) } scalar: { BinaryArithmeticReference.quantizedMulElement($0, $1, p) }
    }

    /// uint8 MUL over the innermost `rows` of a broadcast `layout`.
    /// - Precondition: `rows` lies in `0..<layout.rowCount`; the pointers hold the layout's operand and output elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func mul(_ p: BinaryArithmeticReference.QuantizedMulParams, layout: BroadcastLayout, rows: Range<Int>,
                           _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= layout.rowCount, "rows \(rows) outside 0..<\(layout.rowCount)")
        let k = MulConstants(p)
        broadcast(layout, rows: rows, a, b, out) { k.apply($0, $1) } scalar: { BinaryArithmeticReference.quantizedMulElement($0, $1, p) }
    }

    /// int8 ADD (or SUB) over the innermost `rows` of a broadcast `layout`.
    /// - Precondition: `rows` lies in `0..<layout.rowCount`; the pointers hold the layout's operand and output elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func add(_ p: BinaryArithmeticReference.QuantizedAddParams, subtract: Bool, layout: BroadcastLayout, rows: Range<Int>,
                           _ a: UnsafePointer<Int8>, _ b: UnsafePointer<Int8>, _ out: UnsafeMutablePointer<Int8>) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= layout.rowCount, "rows \(rows) outside 0..<\(layout.rowCount)")
        let k = AddConstants(p, subtract: subtract)
        broadcast(layout, rows: rows, a, b, out) { k.apply($0, $1) } scalar: {
            BinaryArithmeticReference.quantizedAddElement($0, $1, p, subtract: subtract)
        }
    }

    /// uint8 ADD (or SUB) over the innermost `rows` of a broadcast `layout`.
    /// - Precondition: `rows` lies in `0..<layout.rowCount`; the pointers hold the layout's operand and output elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func add(_ p: BinaryArithmeticReference.QuantizedAddParams, subtract: Bool, layout: BroadcastLayout, rows: Range<Int>,
                           _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= layout.rowCount, "rows \(rows) outside 0..<\(layout.rowCount)")
        let k = AddConstants(p, subtract: subtract)
        broadcast(layout, rows: rows, a, b, out) { k.apply($0, $1) } scalar: {
            BinaryArithmeticReference.quantizedAddElement($0, $1, p, subtract: subtract)
        }
    }

    /// Broadcast rows: each innermost row has operands with stride 1 or 0 (a repeated value).
    @inline(__always)
    static func broadcast<T: QuantizedByteLane>(
        _ layout: BroadcastLayout, rows: Range<Int>, _ a: UnsafePointer<T>, _ b: UnsafePointer<T>,
        _ out: UnsafeMutablePointer<T>, _ vector: (SIMD16<Int32>, SIMD16<Int32>) -> SIMD16<Int32>,
        scalar: (Int32, Int32) -> Int32
    ) {
        let inner = layout.innerCount
        let sa = layout.stridesA[BroadcastLayout.maxRank - 1], sb = layout.stridesB[BroadcastLayout.maxRank - 1]
        layout.forEachRow(in: rows) { o, offA, offB in
            run(range: 0..<inner, a + offA, b + offB, out + o, stepA: sa, stepB: sb, vector, scalar: scalar)
        }
    }

    /// The element loop: 16 lanes at a time, the tail with the scalar reference element.
    /// `stepA`/`stepB` are 1 (contiguous) or 0 (one value repeated).
    @inline(__always)
    static func run<T: QuantizedByteLane>(
        range: Range<Int>, _ a: UnsafePointer<T>, _ b: UnsafePointer<T>, _ out: UnsafeMutablePointer<T>,
        stepA: Int, stepB: Int, _ vector: (SIMD16<Int32>, SIMD16<Int32>) -> SIMD16<Int32>,
        scalar: (Int32, Int32) -> Int32
    ) {
        guard !range.isEmpty else { return }
        var i = range.lowerBound
        let end = range.upperBound
        let splatA = SIMD16<Int32>(repeating: Int32(a[0])), splatB = SIMD16<Int32>(repeating: Int32(b[0]))
        while i + 16 <= end {
            let va = stepA == 0 ? splatA : T.widened(a + i)
            let vb = stepB == 0 ? splatB : T.widened(b + i)
            T.storeNarrowed(vector(va, vb), out + i)
            i += 16
        }
        while i < end {
            out[i] = T(truncatingIfNeeded: scalar(Int32(a[i * stepA]), Int32(b[i * stepB])))
            i += 1
        }
    }
}

/// The 8-bit element types of the vector quantized kernels, with their widening loads and
/// narrowing stores written per concrete type (so they lower to single vector conversions).
protocol QuantizedByteLane: FixedWidthInteger, SIMDScalar, Codable {
    /// Sixteen elements at `p` widened to Int32.
    static func widened(_ p: UnsafePointer<Self>) -> SIMD16<Int32>
    /// Stores the low byte of each lane of `v` at `p`.
    static func storeNarrowed(_ v: SIMD16<Int32>, _ p: UnsafeMutablePointer<Self>)
}

extension Int8: QuantizedByteLane {
    @inline(__always)
    static func widened(_ p: UnsafePointer<Int8>) -> SIMD16<Int32> {
        SIMD16<Int32>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD16<Int8>.self))
    }
    @inline(__always)
    static func storeNarrowed(_ v: SIMD16<Int32>, _ p: UnsafeMutablePointer<Int8>) {
        UnsafeMutableRawPointer(p).storeBytes(of: SIMD16<Int8>(truncatingIfNeeded: v), as: SIMD16<Int8>.self)
    }
}

extension UInt8: QuantizedByteLane {
    @inline(__always)
    static func widened(_ p: UnsafePointer<UInt8>) -> SIMD16<Int32> {
        SIMD16<Int32>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self))
    }
    @inline(__always)
    static func storeNarrowed(_ v: SIMD16<Int32>, _ p: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(p).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: v), as: SIMD16<UInt8>.self)
    }
}
