import MachineCode

/// The generated float LOGISTIC of `ExactFloatExp.logistic`, bit for bit, 8 values per step: the
/// C library's `expf` method in double precision (`z = x·32/ln2`, `k` and `r = z − k` through
/// the `1.5·2^52` shift, `2^(k/32)` from the 32-entry table plus `k << 47`, the cubic, one
/// rounding to float), then `1 / (1 + e)` in float, `e` itself below −9 and 1 above 16.619047.
/// Where the C library reduces in one rounding (`ExactFloatExp.reducesInOneRounding`), `r` is
/// one `vfmsub213pd` and the cubic three fused multiply-adds (`c0·r + c1`, `c2·r + 1`, then
/// `p·r² + q`), which gives glibc's FMA variant for every float of the table range
/// (exhaustively); otherwise every product and sum is rounded apart.
/// - AVX-512: the eight doubles in one zmm; the table lookup is two `vpermi2q` over the table in
///   four registers, chosen by index bit 4; the float comparisons are opmasks; two steps per
///   iteration, their instructions side by side (−8% of yolov8n_dynamic_range_640's LOGISTIC
///   time on the AMD Zen 4, EPYC family 25 model 17), then single steps.
/// - AVX2: two ymm halves of four doubles; the table lookup is `vpgatherqq`; the comparisons
///   are vector masks for `vblendvps`.
///
/// With `timesInput`, each result is multiplied by its input after that (`σ(x) · x`, the SiLU
/// that converters write as LOGISTIC then MUL, fused by the interpreter).
///
/// Below `ExactFloatExp.lowestTableArgument` (−103.97: `expf` leaves the table method and returns
/// 0) a value's result is 0; down to it, subnormal results included, the method is the C
/// library's, so segmentation logits far below −88 stay in the generated loop. A step whose values
/// hold a NaN ends the call before it is written: the caller runs that step in Swift and calls again.
///
/// C signature (System V): `(arguments) -> Int`, a pointer to `GeneratedLogisticArguments`;
/// returns how many values were written: `count / 8 · 8` unless a step stopped the call.
enum ExactLogisticAVX {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Int

    /// Values per step.
    static let lanes = 8

    /// Emits the kernel for `width` (ymm: AVX2; zmm: AVX-512).
    static func emit(width: VectorRegister.Width, timesInput: Bool = false,
                     fused: Bool = ExactFloatExp.reducesInOneRounding, into a: inout Assembler) {
        precondition(width == .ymm || width == .zmm, "ymm (AVX2) or zmm (AVX-512)")
        typealias Field = GeneratedLogisticArguments.Field
        let args = GeneralRegister.rdi, source = GeneralRegister.rsi, destination = GeneralRegister.rdx
        let steps = GeneralRegister.rcx, total = GeneralRegister.r8
        a.function(saving: []) { a, _ in
            let stop = a.newLabel()
            a.mov(source, .mem(args, disp: Field.source))
            a.mov(destination, .mem(args, disp: Field.destination))
            a.mov(steps, .mem(args, disp: Field.count))
            a.shr(steps, 3)
            a.mov(total, steps)
            a.j(.equal, stop)
            if width == .zmm {
                emitAVX512Loop(source: source, destination: destination, steps: steps, stop: stop, timesInput: timesInput,
                               fused: fused, into: &a)
            } else {
                emitAVX2Loop(source: source, destination: destination, steps: steps, stop: stop, timesInput: timesInput,
                             fused: fused, into: &a)
            }
            a.bind(stop)
            a.mov(.rax, total)
            a.sub(.rax, steps)
            a.shl(.rax, 3)
        }
    }

    /// The double-precision constants in registers (`vpbroadcastq` of each field).
    private struct DoubleConstants {
        let inverseLn2N, shift, c0, c1, c2, one: VectorRegister

        func load(into a: inout Assembler) {
            typealias Field = GeneratedLogisticArguments.Field
            for (register, field) in [(inverseLn2N, Field.inverseLn2N), (shift, Field.shift), (c0, Field.c0), (c1, Field.c1),
                                      (c2, Field.c2), (one, Field.oneDouble)] {
                a.vpbroadcastq(register, .mem(.rdi, disp: field))
            }
        }
    }

    /// `r` and `shifted` of the doubles `x` in each chain's `z`: `z = invLn2N·x`, `shifted = z +
    /// shift` (k in its low bits), `r = z − (shifted − shift)`, or `invLn2N·x − (shifted − shift)`
    /// in one rounding when `fused`, written over `z`; `scratch` is clobbered. Each instruction
    /// is emitted for every chain before the next (independent work side by side).
    private static func emitReduction(_ d: DoubleConstants, _ chains: [(z: VectorRegister, shifted: VectorRegister, scratch: VectorRegister)],
                                      fused: Bool, into a: inout Assembler) {
        if fused {
            for c in chains { a.vmulpd(c.scratch, c.z, d.inverseLn2N) }
            for c in chains { a.vaddpd(c.shifted, c.scratch, d.shift) }
            for c in chains { a.vsubpd(c.scratch, c.shifted, d.shift) }
            for c in chains { a.vfmsub213pd(c.z, d.inverseLn2N, c.scratch) }
            return
        }
        for c in chains { a.vmulpd(c.z, c.z, d.inverseLn2N) }
        for c in chains { a.vaddpd(c.shifted, c.z, d.shift) }
        for c in chains { a.vsubpd(c.scratch, c.shifted, d.shift) }
        for c in chains { a.vsubpd(c.z, c.z, c.scratch) }
    }

    /// `(c0·r + c1)·(r·r) + (c2·r + 1)` times `scale`, into each chain's `result` (the three sums
    /// fused with their products when `fused`); `r` and `scratch` are clobbered. Interleaved as
    /// `emitReduction`.
    private static func emitPolynomial(
        _ d: DoubleConstants,
        _ chains: [(r: VectorRegister, scale: VectorRegister, result: VectorRegister, scratch: VectorRegister)],
        fused: Bool, into a: inout Assembler
    ) {
        if fused {
            for c in chains { a.vmovaps(c.result, c.r) }
            for c in chains { a.vfmadd213pd(c.result, d.c0, d.c1) }
            for c in chains { a.vmovaps(c.scratch, c.r) }
            for c in chains { a.vfmadd213pd(c.scratch, d.c2, d.one) }
            for c in chains { a.vmulpd(c.r, c.r, c.r) }
            for c in chains { a.vfmadd213pd(c.result, c.r, c.scratch) }
            for c in chains { a.vmulpd(c.result, c.result, c.scale) }
            return
        }
        for c in chains { a.vmulpd(c.result, d.c0, c.r) }
        for c in chains { a.vaddpd(c.result, c.result, d.c1) }
        for c in chains { a.vmulpd(c.scratch, c.r, c.r) }
        for c in chains { a.vmulpd(c.result, c.result, c.scratch) }
        for c in chains { a.vmulpd(c.scratch, d.c2, c.r) }
        for c in chains { a.vaddpd(c.scratch, c.scratch, d.one) }
        for c in chains { a.vaddpd(c.result, c.result, c.scratch) }
        for c in chains { a.vmulpd(c.result, c.result, c.scale) }
    }

    /// The registers of one step of eight values in the AVX-512 loop: the input `v` and the
    /// argument of `exp` (ymm), the doubles (zmm; `upper` also holds the cubic's result, `bits`
    /// the float result), the masks of the lanes below −9 and above 16.6 (live for the whole step),
    /// and `spare`, a mask for the table's half and then the lanes whose result is 0.
    private struct Chain {
        let v, argument: VectorRegister
        let r, shifted, scale, upper, bits: VectorRegister
        let low, high, spare: OpmaskRegister

        /// Chain `i` of two: registers 0–7 / 9–15 (ymm8 is the shared zero), masks k1–k3 / k5–k7.
        init(_ i: Int) {
            let base = 9 * i
            (v, argument) = (ymm(base), ymm(base + 1))
            (r, shifted, scale, upper, bits) = (zmm(base + 2), zmm(base + 3), zmm(base + 4), zmm(base + 5), zmm(base + 6))
            (low, high, spare) = i == 0 ? (k(2), k(3), k(1)) : (k(5), k(6), k(7))
        }
    }

    /// The AVX-512 loop: two steps (16 values) per iteration, their instructions side by side,
    /// while two whole steps remain and neither holds a NaN; then one step at a time, stopping
    /// before a step with a NaN. Each step's arithmetic is the one-step form's, so the results
    /// are the same whatever the pairing.
    private static func emitAVX512Loop(source: GeneralRegister, destination: GeneralRegister, steps: GeneralRegister,
                                       stop: Assembler.Label, timesInput: Bool, fused: Bool, into a: inout Assembler) {
        typealias Field = GeneratedLogisticArguments.Field
        let d = DoubleConstants(inverseLn2N: zmm(16), shift: zmm(17), c0: zmm(18), c1: zmm(19), c2: zmm(20), one: zmm(21))
        d.load(into: &a)
        let table = (0..<4).map { zmm(22 + $0) }
        a.mov(.rax, .mem(.rdi, disp: Field.table))
        for (i, t) in table.enumerated() { a.vmovups(t, .mem(.rax, disp: Int32(64 * i))) }
        let low = ymm(26), high = ymm(27), zeroBelow = ymm(28), one = ymm(29), sign = ymm(30), zero = ymm(8)
        for (register, field) in [(low, Field.lowerBound), (high, Field.upperBound), (zeroBelow, Field.zeroBound),
                                  (one, Field.oneFloat), (sign, Field.signBit)] {
            a.vbroadcastss(register, .mem(.rdi, disp: field))
        }
        a.vpxor(zero, zero, zero)
        /// The steps of `chains` after their loads and NaN checks: chain `i` reads and writes
        /// 32 bytes `32 · i` after `source` and `destination`.
        func emitSteps(_ chains: [Chain], into a: inout Assembler) {
            for c in chains {
                a.vcmpps(c.low, c.v, .register(low), .less)
                a.vcmpps(c.high, c.v, .register(high), .greater)
            }
            for c in chains { a.vpxor(c.argument, c.v, sign) }
            for c in chains { a.vpblendmd(c.argument, c.argument, c.v, mask: c.low) }
            for c in chains { a.vcvtps2pd(c.r, c.argument) }
            emitReduction(d, chains.map { ($0.r, $0.shifted, $0.bits) }, fused: fused, into: &a)
            // 2^(k/32) for k mod 32: entries 0–15 and 16–31, chosen by bit 4 of the index.
            for c in chains { a.vmovaps(c.scale, c.shifted) }
            for c in chains { a.vpermi2q(c.scale, table[0], table[1]) }
            for c in chains { a.vmovaps(c.upper, c.shifted) }
            for c in chains { a.vpermi2q(c.upper, table[2], table[3]) }
            for c in chains { a.vpsllq(c.bits, c.shifted, 59) }
            for c in chains { a.vpmovq2m(c.spare, c.bits) }
            for c in chains { a.vpblendmq(c.scale, c.scale, c.upper, mask: c.spare) }
            for c in chains { a.vpsllq(c.bits, c.shifted, 47) }
            for c in chains { a.vpaddq(c.scale, c.scale, c.bits) }
            emitPolynomial(d, chains.map { ($0.r, $0.scale, $0.upper, $0.bits) }, fused: fused, into: &a)
            // e in the upper register's low half, the float result in the bits register's.
            let floats = chains.map { (c: $0, e: ymm(Int($0.upper.index)), result: ymm(Int($0.bits.index))) }
            for f in floats { a.vcvtpd2ps(f.e, f.c.upper) }
            for f in floats { a.vaddps(f.result, f.e, one) }
            for f in floats { a.vdivps(f.result, one, f.result) }
            for f in floats { a.vpblendmd(f.result, f.result, f.e, mask: f.c.low) }
            for f in floats { a.vpblendmd(f.result, f.result, one, mask: f.c.high) }
            for f in floats { a.vcmpps(f.c.spare, f.c.v, .register(zeroBelow), .less) }
            for f in floats { a.vpblendmd(f.result, f.result, zero, mask: f.c.spare) }
            if timesInput { for f in floats { a.vmulps(f.result, f.result, f.c.v) } }
            for (i, f) in floats.enumerated() { a.vmovups(.mem(destination, disp: Int32(32 * i)), f.result) }
        }
        let pair = [Chain(0), Chain(1)]
        let pairs = a.newLabel(), singles = a.newLabel()
        a.bind(pairs)
        a.cmp(steps, 2)
        a.j(.below, singles)
        for (i, c) in pair.enumerated() { a.vmovups(c.v, .mem(source, disp: Int32(32 * i))) }
        for c in pair { a.vcmpps(c.spare, c.v, .register(c.v), .unordered) }
        a.kortestw(pair[0].spare, pair[1].spare)
        a.j(.notEqual, singles)                           // a NaN: the single steps stop before it
        emitSteps(pair, into: &a)
        a.add(source, 64)
        a.add(destination, 64)
        a.sub(steps, 2)
        a.jmp(pairs)
        a.bind(singles)
        a.test(steps, steps)
        a.j(.equal, stop)
        a.countedLoop(steps, advancing: [(source, .bytes(32)), (destination, .bytes(32))]) { a in
            let c = pair[0]
            a.vmovups(c.v, .mem(source))
            a.vcmpps(c.spare, c.v, .register(c.v), .unordered)
            a.kortestw(c.spare, c.spare)
            a.j(.notEqual, stop)
            emitSteps([c], into: &a)
        }
    }

    private static func emitAVX2Loop(source: GeneralRegister, destination: GeneralRegister, steps: GeneralRegister,
                                     stop: Assembler.Label, timesInput: Bool, fused: Bool, into a: inout Assembler) {
        typealias Field = GeneratedLogisticArguments.Field
        let d = DoubleConstants(inverseLn2N: ymm(15), shift: ymm(14), c0: ymm(13), c1: ymm(12), c2: ymm(11), one: ymm(10))
        d.load(into: &a)
        let one = ymm(9), table = GeneralRegister.r9
        a.vbroadcastss(one, .mem(.rdi, disp: Field.oneFloat))
        a.mov(table, .mem(.rdi, disp: Field.table))
        a.countedLoop(steps, advancing: [(source, .bytes(32)), (destination, .bytes(32))]) { a in
            let v = ymm(0), mask = ymm(1), bound = ymm(2), argument = ymm(3)
            a.vmovups(v, .mem(source))
            a.vcmpps(mask, v, .register(v), .unordered)
            a.vmovmskps(.rax, mask)
            a.test(.rax, .rax, width: .dword)
            a.j(.notEqual, stop)
            a.vbroadcastss(bound, .mem(.rdi, disp: Field.signBit))
            a.vxorps(bound, v, bound)
            a.vbroadcastss(mask, .mem(.rdi, disp: Field.lowerBound))
            a.vcmpps(mask, v, .register(mask), .less)
            a.vblendvps(argument, bound, v, mask)
            // Two halves of four doubles; their floats go to xmm1 and xmm2.
            for half in 0..<2 {
                let r = ymm(4), shifted = ymm(5), index = ymm(6), gatherMask = ymm(7), scale = ymm(8)
                if half == 0 {
                    a.vcvtps2pd(r, xmm(3))
                } else {
                    a.vextracti128(xmm(4), argument, 1)
                    a.vcvtps2pd(r, xmm(4))
                }
                emitReduction(d, [(r, shifted, index)], fused: fused, into: &a)
                a.vpsllq(index, shifted, 59)
                a.vpsrlq(index, index, 59)
                a.vpcmpeqd(gatherMask, gatherMask, gatherMask)
                a.vpgatherqq(scale, .mem(table, index: index, scale: 8), gatherMask)
                a.vpsllq(index, shifted, 47)
                a.vpaddq(scale, scale, index)
                emitPolynomial(d, [(r, scale, shifted, index)], fused: fused, into: &a)
                a.vcvtpd2ps(xmm(1 + half), shifted)
            }
            let e = ymm(1), result = ymm(2), selector = ymm(3)
            a.vinserti128(e, e, xmm(2), 1)
            a.vaddps(result, e, one)
            a.vdivps(result, one, result)
            a.vbroadcastss(selector, .mem(.rdi, disp: Field.lowerBound))
            a.vcmpps(selector, v, .register(selector), .less)
            a.vblendvps(result, result, e, selector)
            a.vbroadcastss(selector, .mem(.rdi, disp: Field.upperBound))
            a.vcmpps(selector, v, .register(selector), .greater)
            a.vblendvps(result, result, one, selector)
            a.vbroadcastss(selector, .mem(.rdi, disp: Field.zeroBound))
            a.vcmpps(selector, v, .register(selector), .less)
            let zero = ymm(4)
            a.vpxor(zero, zero, zero)
            a.vblendvps(result, result, zero, selector)
            if timesInput { a.vmulps(result, result, v) }
            a.vmovups(.mem(destination), result)
        }
    }
}

/// The argument block of `ExactLogisticAVX`, laid out as the generated code reads it; the
/// constants are `ExactFloatExp`'s.
struct GeneratedLogisticArguments {
    var source: UnsafeRawPointer
    var destination: UnsafeMutableRawPointer
    var count: Int
    /// `ExactFloatExp.table`: 32 UInt64s.
    var table: UnsafeRawPointer
    var inverseLn2N = ExactFloatExp.invLn2N, shift = ExactFloatExp.shift
    var c0 = ExactFloatExp.c0, c1 = ExactFloatExp.c1, c2 = ExactFloatExp.c2, oneDouble = 1.0
    var lowerBound: Float = -9, upperBound = ExactFloatExp.logisticOne, zeroBound: Float = ExactFloatExp.lowestTableArgument, oneFloat: Float = 1
    var signBit: Float = -0.0

    /// Byte offsets of the fields (checked against `MemoryLayout` by the kernel tests).
    enum Field {
        static let source: Int32 = 0, destination: Int32 = 8, count: Int32 = 16, table: Int32 = 24
        static let inverseLn2N: Int32 = 32, shift: Int32 = 40, c0: Int32 = 48, c1: Int32 = 56, c2: Int32 = 64, oneDouble: Int32 = 72
        static let lowerBound: Int32 = 80, upperBound: Int32 = 84, zeroBound: Int32 = 88, oneFloat: Int32 = 92, signBit: Int32 = 96
    }
}

extension GeneratedLogisticArguments {
    /// The contract of `ExactLogisticAVX`, as far as the block shows it: `count ≥ 0` (the kernel
    /// shifts it right into an unsigned step count) and the table is `ExactFloatExp.table`'s 32
    /// entries. The `count` readable and writable floats are the caller's.
    /// - Returns: nil when the contract holds, else what is broken.
    func violation() -> String? {
        if count < 0 { return "ExactLogistic: count \(count) is negative" }
        if table.load(fromByteOffset: 8, as: UInt64.self) != ExactFloatExp.table[1] {
            return "ExactLogistic: the table is not ExactFloatExp.table"
        }
        return nil
    }
}
