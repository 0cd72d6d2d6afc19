import MachineCode

/// The generated AVX-512 rows of the same-type 8-bit softmax (`QuantizedSoftmaxTable`), 16
/// elements per step with the last partial step masked, in two passes over a group of rows
/// whose reciprocals the Swift side computes in between (`FixedPointReciprocalSIMD`):
/// - `exponentials`: each row's maximum (a masked `vpmaxsd` sweep and a horizontal reduction),
///   then per step the differences `max − x`, one `vpgatherdd` of their exponentials from the
///   256-entry table (stored to the row's buffer), each rescaled to the sum's integer bits and
///   added up, and the row's sum stored to `sums[row]`. The rescale of a non-negative Q0.31
///   value to `accumulationIntegerBits` is a rounding right shift, `(e + 2^(bits−1)) >>> bits`
///   in unsigned 32-bit arithmetic (`QuantizedSoftmaxTable.sumTerms`, checked by the tests);
///   a second gather from that table measured slower (Zen 4 gathers cost about 10 cycles);
/// - `scaling`: each row's exponentials times its reciprocal in one rounding, from unsigned
///   64-bit products of the even and odd lanes (`QuantizedSoftmaxTable.Rounding`), plus the
///   output zero point, clamped and narrowed to bytes (`vpmovdb`).
/// Both are exact integer arithmetic, bit-exact with the Swift rows and so with
/// `SoftmaxReference.int8/uint8`. Masked-out lanes are neither read nor written.
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedSoftmaxArguments`.
/// Preconditions: `rows ≥ 1`, `depth ≥ 1`; the exponentials buffer holds `rows · depth` Int32;
/// the table holds 256 non-negative entries; every difference `max − x` of a row lies in 0…255 (true of any
/// 8-bit row, `lowest` being the input type's minimum).
enum QuantizedSoftmax16AVX512 {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Void

    typealias Field = GeneratedSoftmaxArguments.Field
    /// Registers both passes use alike: the argument block, the exponentials, the rows left, the
    /// step offset (elements), the depth, its whole steps' elements and the tail's lane mask
    /// (also in opmask `tail`).
    private static let args = GeneralRegister.rdi, e = GeneralRegister.rdx, rows = GeneralRegister.r9
    private static let c = GeneralRegister.rcx, depth = GeneralRegister.r13, fullBytes = GeneralRegister.r12
    private static let tailMask = GeneralRegister.rbx, tail = k(2)
    private static let saved: [GeneralRegister] = [.rbx, .r12, .r13]

    /// Loads the registers both passes share from the argument block.
    private static func loadRowShape(_ a: inout Assembler) {
        a.mov(e, .mem(args, disp: Field.exponentials))
        a.mov(rows, .mem(args, disp: Field.rows))
        a.mov(depth, .mem(args, disp: Field.depth))
        a.mov(fullBytes, depth)
        a.shr(fullBytes, 4)
        a.shl(fullBytes, 4)
        a.mov(tailMask, .mem(args, disp: Field.tailMask))
        a.kmovw(tail, tailMask)
    }

    /// Emits `step(masked: false)` for each whole step of 16 elements of a row (offset `c`), then
    /// `step(masked: true)` for its partial last step, if any.
    private static func forEachStep(_ a: inout Assembler, _ step: (inout Assembler, _ masked: Bool) -> Void) {
        let whole = a.newLabel(), partial = a.newLabel(), end = a.newLabel()
        a.mov(c, 0)
        a.bind(whole)
        a.cmp(c, fullBytes)
        a.j(.greaterOrEqual, partial)
        step(&a, false)
        a.add(c, 16)
        a.jmp(whole)
        a.bind(partial)
        a.test(tailMask, tailMask)
        a.j(.equal, end)
        step(&a, true)
        a.bind(end)
    }

    /// Emits the first pass for signed (`int8`) or unsigned (`uint8`) input bytes.
    static func emitExponentials(signed: Bool, into a: inout Assembler) {
        let x = GeneralRegister.rsi, table = GeneralRegister.r10, sums = GeneralRegister.rax, fullMask = GeneralRegister.r8
        let lowest = zmm(0), values = zmm(1), exps = zmm(2), sumTerms = zmm(3), maximum = zmm(4)
        let sum = zmm(5), other = 6, termRounding = zmm(7)
        let accumulationBits = UInt8(SoftmaxReference.QuantizedParams.accumulationIntegerBits)
        let gatherMask = k(1), firstLane = k(3)
        func load(_ a: inout Assembler, _ dst: VectorRegister, masked: Bool, zeroing: Bool = false) {
            let src = MemoryOperand.mem(x, index: c, scale: 1), mask = masked ? tail : nil
            if signed { a.vpmovsxbd(dst, src, mask: mask, zeroing: zeroing) } else { a.vpmovzxbd(dst, src, mask: mask, zeroing: zeroing) }
        }
        a.function(saving: saved) { a, done in
            a.mov(x, .mem(args, disp: Field.input))
            a.mov(table, .mem(args, disp: Field.table))
            a.mov(sums, .mem(args, disp: Field.sums))
            loadRowShape(&a)
            a.mov(fullMask, 1, width: .dword)
            a.kmovw(firstLane, fullMask)
            a.mov(fullMask, 0xFFFF, width: .dword)
            a.vpbroadcastd(lowest, .mem(args, disp: Field.lowest))
            a.vpbroadcastd(termRounding, .mem(args, disp: Field.termRounding))
            let row = a.newLabel()
            a.bind(row)
            // The row's maximum, lanes past the row holding the type's lowest value.
            a.vmovaps(maximum, lowest)
            forEachStep(&a) { a, masked in
                if masked { a.vmovaps(values, lowest) }
                load(&a, values, masked: masked)
                a.vpmaxsd(maximum, maximum, .register(values))
            }
            reduce(maximum, scratch: other, into: &a) { a, d, s, t in a.vpmaxsd(d, s, .register(t)) }
            a.vpbroadcastd(maximum, xmm(Int(maximum.index)))
            // The exponentials and the sum of their terms, one step of 16 (or the tail) at a time.
            a.vpxor(sum, sum, sum)
            forEachStep(&a) { a, masked in
                load(&a, values, masked: masked, zeroing: masked)
                a.vpsubd(values, maximum, values)
                a.vpxor(exps, exps, exps)
                a.kmovw(gatherMask, masked ? tailMask : fullMask)
                a.vpgatherdd(exps, .mem(table, index: values, scale: 4), mask: gatherMask)
                a.vmovups(.mem(e, index: c, scale: 4), exps, mask: masked ? tail : nil)
                a.vpaddd(sumTerms, exps, termRounding)
                a.vpsrld(sumTerms, sumTerms, accumulationBits)
                a.vpaddd(sum, sum, sumTerms)
            }
            reduce(sum, scratch: other, into: &a) { a, d, s, t in a.vpaddd(d, s, t) }
            a.vmovups(.mem(sums), sum, mask: firstLane)
            // The next row.
            a.add(x, depth)
            a.lea(e, .mem(e, index: depth, scale: 4))
            a.add(sums, 4)
            a.dec(rows)
            a.j(.notEqual, row)
        }
    }

    /// Emits the second pass (any 8-bit output: the clamp bounds choose the type).
    static func emitScaling(into a: inout Assembler) {
        let out = GeneralRegister.rsi, scales = GeneralRegister.r10, addends = GeneralRegister.r11, shifts = GeneralRegister.rax
        let values = zmm(1), even = zmm(2), odd = zmm(3), scale = zmm(8), addend = zmm(9), shift = zmm(10)
        let outMin = zmm(11), outMax = zmm(12)
        a.function(saving: saved) { a, done in
            a.mov(out, .mem(args, disp: Field.output))
            a.mov(scales, .mem(args, disp: Field.scales))
            a.mov(addends, .mem(args, disp: Field.addends))
            a.mov(shifts, .mem(args, disp: Field.shifts))
            loadRowShape(&a)
            a.vpbroadcastd(outMin, .mem(args, disp: Field.outputMin))
            a.vpbroadcastd(outMax, .mem(args, disp: Field.outputMax))
            a.countedLoop(rows, advancing: [(scales, .bytes(8)), (addends, .bytes(8)), (shifts, .bytes(8))]) { a in
                a.vpbroadcastq(scale, .mem(scales))
                a.vpbroadcastq(addend, .mem(addends))
                a.vpbroadcastq(shift, .mem(shifts))
                forEachStep(&a) { a, masked in
                    a.vmovups(values, .mem(e, index: c, scale: 4), mask: masked ? tail : nil, zeroing: masked)
                    a.vpmuludq(even, values, scale)
                    a.vpsrlq(odd, values, 32)
                    a.vpmuludq(odd, odd, scale)
                    a.vpaddq(even, even, addend)
                    a.vpaddq(odd, odd, addend)
                    a.vpsrlvq(even, even, .register(shift))
                    a.vpsrlvq(odd, odd, .register(shift))
                    // Both halves are below 2^31: the odd results go to the high words.
                    a.vpsllq(odd, odd, 32)
                    a.vpaddq(even, even, odd)
                    a.vpaddd(even, even, outMin)
                    a.vpmaxsd(even, even, .register(outMin))
                    a.vpminsd(even, even, .register(outMax))
                    a.vpmovdb(.mem(out, index: c, scale: 1), even, mask: masked ? tail : nil)
                }
                a.add(out, depth)
                a.lea(e, .mem(e, index: depth, scale: 4))
            }
        }
    }

    /// Reduces the 16 lanes of `v` with `combine(dst, a, b)` (dst = a ∘ b), into every lane of
    /// `v`'s low 128 bits, through register `scratch` (ymm then xmm halves).
    private static func reduce(_ v: VectorRegister, scratch: Int, into a: inout Assembler,
                               _ combine: (inout Assembler, VectorRegister, VectorRegister, VectorRegister) -> Void) {
        let lane = Int(v.index)
        a.vextracti64x4(ymm(scratch), v, 1)
        combine(&a, ymm(lane), ymm(lane), ymm(scratch))
        a.vextracti128(xmm(scratch), ymm(lane), 1)
        combine(&a, xmm(lane), xmm(lane), xmm(scratch))
        a.vpshufd(xmm(scratch), xmm(lane), 0x4E)
        combine(&a, xmm(lane), xmm(lane), xmm(scratch))
        a.vpshufd(xmm(scratch), xmm(lane), 0xB1)
        combine(&a, xmm(lane), xmm(lane), xmm(scratch))
    }
}

/// The argument block of `QuantizedSoftmax16AVX512` (one for both passes).
struct GeneratedSoftmaxArguments {
    /// The group's first input row (`exponentials` pass).
    var input: UnsafeRawPointer
    /// The group's first output row (`scaling` pass).
    var output: UnsafeMutableRawPointer
    /// `rows · depth` Int32: row `r`'s exponentials at `r · depth` (written by the first pass,
    /// read by the second).
    var exponentials: UnsafeMutableRawPointer
    var rows: Int
    var depth: Int
    /// The last partial step's lane mask (`depth % 16` low bits), 0 when `depth` is a multiple of 16.
    var tailMask: Int
    /// `QuantizedSoftmaxTable.exps`, 256 Int32.
    var table: UnsafeRawPointer
    /// Row `r`'s sum (Int32) is written at `sums + 4r`.
    var sums: UnsafeMutableRawPointer
    /// Row `r`'s `Rounding` terms, UInt64 at `8r` of each.
    var scales: UnsafeRawPointer
    var addends: UnsafeRawPointer
    var shifts: UnsafeRawPointer
    /// The input type's minimum (−128 or 0), and the output's bounds.
    var lowest: Int32
    var outputMin: Int32
    var outputMax: Int32
    /// `2^(accumulationIntegerBits − 1)`, the rounding of the sum terms.
    var termRounding: Int32 = 1 << (SoftmaxReference.QuantizedParams.accumulationIntegerBits - 1)

    /// The contract of both passes as far as the block shows it: `1 ≤ rows ≤ 16` (the Swift
    /// side's 16-row groups), `depth ≥ 1` (the row loops run their body before testing their
    /// counter), the tail mask of `depth`, and a non-empty output range. That the rows, the
    /// exponentials buffer and the tables are there is the caller's.
    /// - Returns: nil when the contract holds, else what is broken.
    func violation() -> String? {
        if rows < 1 || rows > 16 || depth < 1 { return "generated softmax: \(rows) rows of depth \(depth)" }
        if tailMask != (1 << (depth % 16)) - 1 { return "generated softmax: tail mask \(tailMask) for depth \(depth)" }
        if outputMin > outputMax { return "generated softmax: output range \(outputMin)...\(outputMax) is empty" }
        return nil
    }

    /// Byte offsets of the fields (checked against `MemoryLayout` by the kernel tests).
    enum Field {
        static let input: Int32 = 0, output: Int32 = 8, exponentials: Int32 = 16, rows: Int32 = 24, depth: Int32 = 32
        static let tailMask: Int32 = 40, table: Int32 = 48, sums: Int32 = 56
        static let scales: Int32 = 64, addends: Int32 = 72, shifts: Int32 = 80
        static let lowest: Int32 = 88, outputMin: Int32 = 92, outputMax: Int32 = 96, termRounding: Int32 = 100
    }
}
