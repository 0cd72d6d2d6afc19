import MachineCode

/// The generated passes of `HybridInputQuantizer` (a hybrid layer's on-the-fly int8
/// quantization of its float input), where the portable SSE2 loops take about 30 instructions
/// per 4 values:
/// - `bounds`: each lane's least and greatest value, `vminps lo, v, lo` / `vmaxps hi, v, hi`
///   (the first source wins unless it is NaN: `v < lo ? v : lo`, the scalar loop's step);
/// - `quantize`: `clamp(round(offset + v · inverse))`, the product and the sum rounded apart, the
///   clamp before the rounding (`vmaxps low, y` / `vminps high, y` keep a NaN `y`), then a round
///   half away from zero in integers: `t = trunc(y)` and `t + trunc(2 · (y − t))`, since the
///   fraction `y − t` is exact and its double crosses ±1 exactly when it reaches ±0.5. A NaN
///   truncates to 0x8000_0000 twice, whose sum is 0: the scalar loop's result for NaN.
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedHybridQuantizeArguments`.
/// `bounds` runs the first `count / lanes · lanes` values (lanes: 8 for ymm, 16 for zmm) from
/// the bounds in memory and writes them back; `quantize` the first `count / 16 · 16` values.
enum HybridInputQuantizeAVX {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Void

    /// Values per `bounds` step for registers of `width`.
    static func lanes(_ width: VectorRegister.Width) -> Int { width.bytes / 4 }

    /// Emits `bounds` on `width` registers (ymm or zmm).
    static func emitBounds(width: VectorRegister.Width, into a: inout Assembler) {
        precondition(width != .xmm, "ymm or zmm")
        typealias Field = GeneratedHybridQuantizeArguments.Field
        let args = GeneralRegister.rdi, source = GeneralRegister.rsi, bounds = GeneralRegister.rdx
        let steps = GeneralRegister.rcx
        let value = VectorRegister(0, width), low = VectorRegister(1, width), high = VectorRegister(2, width)
        let lanes = lanes(width)
        a.function(saving: []) { a, done in
            a.mov(source, .mem(args, disp: Field.source))
            a.mov(bounds, .mem(args, disp: Field.bounds))
            a.mov(steps, .mem(args, disp: Field.count))
            a.shr(steps, UInt8(lanes.trailingZeroBitCount))
            a.j(.equal, done)
            a.vmovups(low, .mem(bounds))
            a.vmovups(high, .mem(bounds, disp: 64))
            a.countedLoop(steps, advancing: [(source, .bytes(Int32(4 * lanes)))]) { a in
                a.vmovups(value, .mem(source))
                a.vminps(low, value, low)
                a.vmaxps(high, value, high)
            }
            a.vmovups(.mem(bounds), low)
            a.vmovups(.mem(bounds, disp: 64), high)
        }
    }

    /// Emits `quantize` on `width` registers (ymm or zmm), 16 values per step either way.
    static func emitQuantize(width: VectorRegister.Width, into a: inout Assembler) {
        precondition(width != .xmm, "ymm or zmm")
        typealias Field = GeneratedHybridQuantizeArguments.Field
        let args = GeneralRegister.rdi, source = GeneralRegister.rsi, destination = GeneralRegister.rdx
        let steps = GeneralRegister.rcx
        func v(_ index: Int) -> VectorRegister { VectorRegister(index, width) }
        let inverse = v(10), offset = v(11), low = v(12), high = v(13)
        let vectors = 16 / lanes(width)
        a.function(saving: []) { a, done in
            a.mov(source, .mem(args, disp: Field.source))
            a.mov(destination, .mem(args, disp: Field.destination))
            a.mov(steps, .mem(args, disp: Field.count))
            a.shr(steps, 4)
            a.j(.equal, done)
            a.vbroadcastss(inverse, .mem(args, disp: Field.inverse))
            a.vbroadcastss(offset, .mem(args, disp: Field.offset))
            a.vbroadcastss(low, .mem(args, disp: Field.lower))
            a.vbroadcastss(high, .mem(args, disp: Field.upper))
            a.countedLoop(steps, advancing: [(source, .bytes(64)), (destination, .bytes(16))]) { a in
                for k in 0..<vectors {
                    let y = v(4 * k), t = v(4 * k + 1), f = v(4 * k + 2)
                    a.vmovups(y, .mem(source, disp: Int32(k * width.bytes)))
                    a.vmulps(y, y, inverse)
                    a.vaddps(y, y, offset)
                    a.vmaxps(y, low, y)
                    a.vminps(y, high, y)
                    a.vcvttps2dq(t, .register(y))
                    a.vcvtdq2ps(f, t)
                    a.vsubps(f, y, f)
                    a.vaddps(f, f, f)
                    a.vcvttps2dq(f, .register(f))
                    a.vpaddd(y, t, f)
                }
                if width == .zmm {
                    a.vpmovsdb(.mem(destination), v(0))
                } else {
                    a.vpackssdw(ymm(1), ymm(0), ymm(4))              // words 0-3 8-11 | 4-7 12-15
                    a.vpermq(ymm(1), ymm(1), 0xD8)                   // 0-7 | 8-15
                    a.vextracti128(xmm(2), ymm(1), 1)
                    a.vpacksswb(xmm(1), xmm(1), xmm(2))
                    a.vmovups(.mem(destination), xmm(1))
                }
            }
        }
    }
}

/// The argument block of `HybridInputQuantizeAVX`, laid out as the generated code reads it.
struct GeneratedHybridQuantizeArguments {
    var source: UnsafeRawPointer
    /// The int8 output (`quantize`).
    var destination: UnsafeMutableRawPointer?
    var count: Int
    var inverse: Float = 0
    var offset: Float = 0
    var lower: Float = 0
    var upper: Float = 0
    /// 128 bytes: the lanes' least values, then at 64 their greatest (`bounds`).
    var bounds: UnsafeMutableRawPointer?

    /// Byte offsets of the fields (checked against `MemoryLayout` by the kernel tests).
    enum Field {
        static let source: Int32 = 0, destination: Int32 = 8, count: Int32 = 16, inverse: Int32 = 24, offset: Int32 = 28
        static let lower: Int32 = 32, upper: Int32 = 36, bounds: Int32 = 40
    }
}

extension GeneratedHybridQuantizeArguments {
    /// The contract of `HybridInputQuantizeAVX`, as far as the block shows it: `count ≥ 0` (the
    /// kernels shift it right into an unsigned step count); `bounds` set for `bounds`,
    /// `destination` for `quantize`, with `lower ≤ upper` integral floats within Int16 (the
    /// narrowing saturates through Int16). The `count` readable floats, the 128 bytes at
    /// `bounds` and the `count` writable bytes are the caller's.
    /// - Returns: nil when the contract holds, else what is broken.
    func violation(quantizing: Bool) -> String? {
        if count < 0 { return "HybridInputQuantize: count \(count) is negative" }
        if quantizing {
            if destination == nil { return "HybridInputQuantize: quantize needs a destination" }
            if !(lower <= upper) || lower.rounded() != lower || upper.rounded() != upper || lower < -32768 || upper > 32767 {
                return "HybridInputQuantize: clamp \(lower)...\(upper) is not an integral range within Int16"
            }
        } else if bounds == nil {
            return "HybridInputQuantize: bounds needs its 128 bytes"
        }
        return nil
    }
}
