import MachineCode

/// The generated AVX2 microkernel of `QuantizedGEMM` for the int16-pair layout: up to 8 pixels ×
/// one 16-channel panel, as two passes of 4 pixels whose sums stay in 8 ymm accumulators.
/// Each 32-bit word step loads the panel's two weight vectors once, broadcasts each pixel's
/// input pair (`vpbroadcastd`) and adds `vpmaddwd` products — exact, like `pmaddwd`.
///
/// Three variants share the loop and differ in the end of a pass (`Output`): the Int32 sums
/// stored for a Swift epilogue, or requantized in registers and stored as uint8 / int8
/// (`Requantization16AVX2`, no left shift).
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedIntegerTileArguments`.
/// Preconditions: `taps ≥ 1`, `words ≥ 1`, `1 ≤ rows ≤ 8`; `table[t·8 + r]` is pixel `r`'s
/// input for tap `t`; requantizing variants need 16 readable entries in every per-channel table.
enum QuantizedPairGEMM8x16AVX2 {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Void

    /// What a pass does with its sums.
    enum Output {
        /// Pixel `r`'s 16 sums to `accumulators + 128·r` (Int32).
        case accumulators
        /// Requantized bytes, saturated unsigned / signed, row `r` at `output + r · outputStride`.
        case uint8, int8
    }

    static func emit(_ output: Output, into a: inout Assembler) {
        typealias Field = GeneratedIntegerTileArguments.Field
        let fields = GeneratedIntegerTileArguments.requantizationFields
        let args = GeneralRegister.rdi
        let table = GeneralRegister.rsi, taps = GeneralRegister.r9, end = GeneralRegister.rdx
        let weights = GeneralRegister.rcx, destination = GeneralRegister.r8, rows = GeneralRegister.rbp
        let w = GeneralRegister.r10, tapRow = GeneralRegister.r11, tapCount = GeneralRegister.rax
        let offset = GeneralRegister.r15
        let pixels: [GeneralRegister] = [.rbx, .r12, .r13, .r14]
        let saved: [GeneralRegister] = [.rbx, .rbp, .r12, .r13, .r14, .r15]
        a.function(saving: saved) { a, done in
            a.mov(table, .mem(args, disp: Field.table))
            a.mov(taps, .mem(args, disp: Field.taps))
            a.mov(end, .mem(args, disp: Field.words))
            a.shl(end, 2)                                     // words → bytes per pixel run
            a.mov(weights, .mem(args, disp: Field.weights))
            a.mov(destination, .mem(args, disp: output == .accumulators ? Field.accumulators : Field.output))
            a.mov(rows, .mem(args, disp: Field.rows))
            let half = a.newLabel(), tap = a.newLabel(), step = a.newLabel()
            a.bind(half)
            for v in 0..<8 { a.vpxor(ymm(v), ymm(v), ymm(v)) }
            a.mov(w, weights)
            a.mov(tapRow, table)
            a.mov(tapCount, taps)
            a.bind(tap)
            for (r, p) in pixels.enumerated() { a.mov(p, .mem(tapRow, disp: Int32(8 * r))) }
            a.xor(offset, offset, width: .dword)
            a.bind(step)
            a.vmovups(ymm(8), .mem(w))
            a.vmovups(ymm(9), .mem(w, disp: 32))
            for (r, p) in pixels.enumerated() {
                a.vpbroadcastd(ymm(10), .mem(p, index: offset, scale: 1))
                a.vpmaddwd(ymm(11), ymm(10), ymm(8))
                a.vpmaddwd(ymm(12), ymm(10), ymm(9))
                a.vpaddd(ymm(2 * r), ymm(2 * r), ymm(11))
                a.vpaddd(ymm(2 * r + 1), ymm(2 * r + 1), ymm(12))
            }
            a.closeTapLoops(weights: w, weightBytes: 64, offset: offset, end: end, step: step,
                            table: tapRow, tableBytes: 64, taps: tapCount, tap: tap)
            if output == .accumulators {
                for r in 0..<4 {
                    a.vmovups(.mem(destination, disp: Int32(128 * r)), ymm(2 * r))
                    a.vmovups(.mem(destination, disp: Int32(128 * r + 32)), ymm(2 * r + 1))
                }
                a.add(destination, 512)
            } else {
                a.mov(.r10, .mem(args, disp: Field.outputStride))
                for r in 0..<4 {
                    if r > 0 {
                        a.cmp(rows, Int32(r))
                        a.j(.lessOrEqual, done)
                    }
                    for h in 0..<2 {
                        Requantization16AVX2.requantize(ymm(2 * r + h), half: h, fields: fields, channelOffset: nil, &a)
                    }
                    Requantization16AVX2.store(ymm(2 * r), ymm(2 * r + 1), signed: output == .int8, to: .mem(destination), &a)
                    a.add(destination, .r10)
                }
            }
            a.sub(rows, 4)
            a.j(.lessOrEqual, done)
            a.add(table, 32)                                  // pixels 4 ..< 8
            a.jmp(half)
        }
    }
}

/// The argument block of `QuantizedPairGEMM8x16AVX2` and `QuantizedGEMM8x32AVX512VNNI`, laid out as the generated code reads it.
/// The per-channel tables point at the panel's first channel.
struct GeneratedIntegerTileArguments {
    var table: UnsafeRawPointer
    var taps: Int
    var words: Int
    var weights: UnsafeRawPointer
    var accumulators: UnsafeMutableRawPointer?
    var rows: Int
    var output: UnsafeMutableRawPointer?
    var outputStride: Int
    var bias: UnsafeRawPointer?
    var multipliers: UnsafeRawPointer?
    var rightShifts: UnsafeRawPointer?
    var remainderMasks: UnsafeRawPointer?
    var nudge: UInt64 = 1 << 30
    var outputOffset: Int32 = 0
    var activationMin: Int32 = 0
    var activationMax: Int32 = 0
    /// Bytes from the first panel's weights to the second's (`QuantizedGEMM8x32AVX512VNNI`).
    var panelStride = 0
    /// Per-pixel Int32 terms added before requantizing (uint8-weight quads' window sums).
    var rowTerms: UnsafeRawPointer?
    /// The lanes of each panel that exist (16-bit opmasks: `0xFFFF` for a full panel).
    var laneMasks: (Int32, Int32) = (0xFFFF, 0xFFFF)

    init(table: UnsafeRawPointer, taps: Int, words: Int, weights: UnsafeRawPointer, rows: Int) {
        self.table = table; self.taps = taps; self.words = words; self.weights = weights; self.rows = rows
        outputStride = 0
    }

    /// Where the requantization steps find their tables and scalars in this block.
    static let requantizationFields = RequantizationFields(
        bias: Field.bias, multipliers: Field.multipliers, rightShifts: Field.rightShifts,
        remainderMasks: Field.remainderMasks, nudge: Field.nudge, outputOffset: Field.outputOffset,
        activationMin: Field.activationMin, activationMax: Field.activationMax)

    /// Byte offsets of the fields (checked against `MemoryLayout` by the kernel tests).
    enum Field {
        static let table: Int32 = 0, taps: Int32 = 8, words: Int32 = 16, weights: Int32 = 24, accumulators: Int32 = 32
        static let rows: Int32 = 40, output: Int32 = 48, outputStride: Int32 = 56, bias: Int32 = 64
        static let multipliers: Int32 = 72, rightShifts: Int32 = 80, remainderMasks: Int32 = 88, nudge: Int32 = 96
        static let outputOffset: Int32 = 104, activationMin: Int32 = 108, activationMax: Int32 = 112
        static let panelStride: Int32 = 120, rowTerms: Int32 = 128, laneMasks: Int32 = 136
    }
}
