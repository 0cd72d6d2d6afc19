#if LITEVISION_AVX512
import _Builtin_intrinsics.intel
#endif

// A 256-entry byte table (quantized LOGISTIC / TANH / EXP, 8-bit requantization) applied to
// 8-bit data. AVX-512 builds look up 64 bytes at a time with 16-entry byte shuffles: the table
// is cut into 16 rows of 16 entries; for row k, `(x ^ 16k) +sat 0x70` keeps the low nibble as
// the shuffle index where x's high nibble is k and sets bit 7 (shuffle writes zero) elsewhere,
// so OR-ing the 16 shuffles gives `table[x]`. Default builds run generated code: on a CPU with
// AVX512-VBMI `ByteTableLookup64AVX512VBMI` (two 128-entry byte permutes per 64 bytes), on
// other AVX2 CPUs `ByteTableLookup32AVX2` (the 16 shuffles, 32 bytes per step); without
// generated code the table is read per byte. All produce exactly `table[x]`.

/// A byte-to-byte table prepared for vector lookups.
public struct ByteTableLookup: Sendable {
    /// The 256 entries, indexed by the input byte (`UInt8(bitPattern:)` for int8).
    public let entries: [UInt8]

    /// Prepares `entries` (exactly 256).
    public init(_ entries: [UInt8]) {
        precondition(entries.count == 256, "a byte table has 256 entries")
        self.entries = entries
    }

    /// Maps `x[i]` to `out[i]` through the table for `i` in `range`.
    /// - Precondition: `range.lowerBound ≥ 0`; every pointer holds at least `range.upperBound` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public func apply(range: Range<Int>, _ x: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>) {
        KernelPrecondition.validRange(range)
        guard !range.isEmpty else { return }
        #if LITEVISION_AVX512
        applyVector(range: range, x, out)
        #else
        var done = range.lowerBound
        if let (kernel, lanes) = Self.generatedKernel(GeneratedKernels.current), range.count >= lanes {
            applyGenerated(kernel, range: range, x, out)
            done += range.count / lanes * lanes
        }
        applyScalar(range: done..<range.upperBound, x, out)
        #endif
    }

    /// The generated lookup of `kernels` and the bytes it maps per step: 64-byte `vpermi2b`
    /// steps where the CPU has AVX512-VBMI, else 32-byte AVX2 shuffles; nil without generated code.
    static func generatedKernel(_ kernels: GeneratedKernels?) -> (function: @convention(c) (UnsafeRawPointer) -> Void, lanes: Int)? {
        if let kernel = kernels?.byteTableLookup64 { return (kernel, ByteTableLookup64AVX512VBMI.lanes) }
        if let kernel = kernels?.byteTableLookup32 { return (kernel, ByteTableLookup32AVX2.lanes) }
        return nil
    }

    /// Runs generated `kernel` on `range`: it maps the whole steps and leaves the rest.
    /// - Precondition: as `apply`'s (checked as far as `GeneratedByteTableArguments.violation` shows).
    func applyGenerated(_ kernel: @convention(c) (UnsafeRawPointer) -> Void, range: Range<Int>, _ x: UnsafePointer<UInt8>,
                        _ out: UnsafeMutablePointer<UInt8>) {
        entries.withUnsafeBufferPointer { table in
            var arguments = GeneratedByteTableArguments(
                source: UnsafeRawPointer(x + range.lowerBound), destination: UnsafeMutableRawPointer(out + range.lowerBound),
                count: range.count, table: UnsafeRawPointer(table.baseAddress!))
            KernelPrecondition.holds(arguments.violation())
            withUnsafePointer(to: &arguments) { kernel(UnsafeRawPointer($0)) }
        }
    }

    /// One table read per byte (the portable path; also the vector path's tail).
    func applyScalar(range: Range<Int>, _ x: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>) {
        entries.withUnsafeBufferPointer { t in
            let t = t.baseAddress!
            for i in range { out[i] = t[Int(x[i])] }
        }
    }

    #if LITEVISION_AVX512
    /// 64 bytes per step with 16 masked byte shuffles (row k, entries 16k ..< 16k + 16, in each
    /// 16-byte lane of `t[k]`), then the scalar tail.
    func applyVector(range: Range<Int>, _ x: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>) {
        entries.withUnsafeBufferPointer { entries in
            let r = UnsafeRawPointer(entries.baseAddress!)
            var t = [__m512i](repeating: _mm512_setzero_si512(), count: 16)
            for k in 0..<16 { t[k] = _mm512_broadcast_i32x4(r.loadUnaligned(fromByteOffset: k * 16, as: __m128i.self)) }
            let bias = _mm512_set1_epi8(0x70)
            var i = range.lowerBound
            t.withUnsafeBufferPointer { tables in
                let tables = tables.baseAddress!
                while i + 64 <= range.upperBound {
                    let v = UnsafeRawPointer(x + i).loadUnaligned(as: __m512i.self)
                    var acc = _mm512_setzero_si512()
                    for k in 0..<16 {
                        let key = _mm512_set1_epi8(CChar(truncatingIfNeeded: k << 4))
                        let index = _mm512_adds_epu8(_mm512_xor_si512(v, key), bias)
                        acc = _mm512_or_si512(acc, _mm512_shuffle_epi8(tables[k], index))
                    }
                    UnsafeMutableRawPointer(out + i).storeBytes(of: acc, as: __m512i.self)
                    i += 64
                }
            }
            applyScalar(range: i..<range.upperBound, x, out)
        }
    }
    #endif
}
