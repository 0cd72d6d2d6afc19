import MachineCode

/// The generated AVX512-VNNI microkernel of `QuantizedGEMM`: 8 pixels × one or two 16-channel
/// panels, sums in 8 or 16 zmm accumulators (`zmm0…15`, pixel `r` panel `k` in `zmm(panels·r + k)`).
/// Each 32-bit word step loads the panels' weight vectors once and adds, per pixel, the products
/// of its broadcast input word, one instruction per pixel and panel:
/// - int16 pairs: `vpdpwssd acc, weights, [pixel]{1to16}`;
/// - int8 quads (unsigned `x + 128` inputs, int8 weights): `vpbroadcastd` then
///   `vpdpbusd acc, input, weights`;
/// - uint8-weight quads (signed `x − 128` inputs): `vpdpbusd acc, weights, [pixel]{1to16}`.
/// All are exact (wrapping Int32 sums of exact products), like the portable kernels.
///
/// Two outputs (`Output`): the Int32 sums for a Swift epilogue, or the requantized bytes (the
/// sums started from the bias, then the window-sum term, the rounding doubling high multiply,
/// rounding right shift, offset, clamp and narrowing, `Requantization16AVX512.store`), bit-exact with
/// `ConvRequantizer.requantizePortable` for requantizers without a left shift. The byte stores
/// and table loads are masked per panel (`laneMasks`), so a partial last panel needs no scalar
/// path; masked-out lanes are neither read nor written.
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedIntegerTileArguments`.
/// Preconditions: `taps ≥ 1`, `words ≥ 1`, `1 ≤ rows ≤ 8`; `table[t·8 + r] + tableBase` is pixel
/// `r`'s input for tap `t` for all 8 rows (rows past `rows` repeat a real pixel); the second panel's weights
/// start `panelStride` bytes after the first's.
enum QuantizedGEMM8x32AVX512VNNI {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Void

    /// What the kernel does with its sums.
    enum Output {
        /// Pixel `r`, panel `k`'s 16 sums to `accumulators + 128·r + 64·k` (Int32).
        case accumulators
        /// Requantized bytes (the clamp bounds choose uint8 or int8), pixel `r` panel `k` at
        /// `output + r · outputStride + 16·k`.
        case bytes
    }

    /// Emits the variant for `layout`, `panels` and `output` that computes the first
    /// `pixelRows` pixels: 8, or 1 for single-pixel tiles (a batch-1 FULLY_CONNECTED, whose
    /// other 7 rows would repeat its one pixel), which then read one broadcast per step.
    static func emit(_ layout: QuantizedGEMMLayout, panels: Int, output: Output, pixelRows: Int = 8, into a: inout Assembler) {
        precondition(panels == 1 || panels == 2, "one or two panels")
        precondition(pixelRows == 1 || pixelRows == 8, "8 pixel rows, or 1")
        precondition(!layout.widensByteWeights, "the VNNI kernels take int16 pairs and quads")
        typealias Field = GeneratedIntegerTileArguments.Field
        let args = GeneralRegister.rdi
        let tapRow = GeneralRegister.r11, tapCount = GeneralRegister.rax, end = GeneralRegister.rdx
        let weights = GeneralRegister.r10, offset = GeneralRegister.r15, secondPanel = GeneralRegister.rcx
        let pixels = Array(([.rbx, .rbp, .r12, .r13, .r14, .rsi, .r8, .r9] as [GeneralRegister]).prefix(pixelRows))
        let saved: [GeneralRegister] = [.rbx, .rbp, .r12, .r13, .r14, .r15]
        func accumulator(_ r: Int, _ k: Int) -> VectorRegister { zmm(panels * r + k) }
        a.function(saving: saved) { a, done in
            if output == .bytes {
                // The sums start from the bias (each panel's lanes, masked), so the
                // requantization needs no add of its own.
                a.mov(.rax, .mem(args, disp: Field.bias))
                for panel in 0..<panels {
                    a.mov(.rdx, .mem(args, disp: Field.laneMasks + Int32(4 * panel)), width: .dword)
                    a.kmovw(k(1), .rdx)
                    a.vmovups(zmm(19), .mem(.rax, disp: Int32(64 * panel)), mask: k(1), zeroing: true)
                    for r in 0..<pixelRows { a.vmovaps(accumulator(r, panel), zmm(19)) }
                }
            }
            a.mov(tapRow, .mem(args, disp: Field.table))
            a.mov(tapCount, .mem(args, disp: Field.taps))
            a.mov(end, .mem(args, disp: Field.words))
            a.shl(end, 2)                                     // words → bytes per pixel run
            a.add(end, .mem(args, disp: Field.tableBase))     // runs are read at entry + base + offset
            a.mov(weights, .mem(args, disp: Field.weights))
            a.mov(secondPanel, .mem(args, disp: Field.panelStride))
            if output == .accumulators { for v in 0..<(pixelRows * panels) { a.vpxor(zmm(v), zmm(v), zmm(v)) } }
            let tap = a.newLabel(), step = a.newLabel()
            a.bind(tap)
            for (r, p) in pixels.enumerated() { a.mov(p, .mem(tapRow, disp: Int32(8 * r))) }
            a.mov(offset, .mem(args, disp: Field.tableBase))
            a.bind(step)
            let panelWeights = [zmm(16), zmm(17)]
            a.vmovups(panelWeights[0], .mem(weights))
            if panels == 2 { a.vmovups(panelWeights[1], .mem(weights, index: secondPanel, scale: 1)) }
            for (r, p) in pixels.enumerated() {
                let input = MemoryOperand(base: p, index: offset, broadcast: true)
                if layout == .uint8Quads { a.vpbroadcastd(zmm(18), .mem(p, index: offset, scale: 1)) }
                for k in 0..<panels {
                    switch layout {
                    case .int16Pairs: a.vpdpwssd(accumulator(r, k), panelWeights[k], .memory(input))
                    case .uint8Quads: a.vpdpbusd(accumulator(r, k), zmm(18), panelWeights[k])
                    case .uint8WeightQuads: a.vpdpbusd(accumulator(r, k), panelWeights[k], .memory(input))
                    case .int8WeightPairs, .uint8WeightPairs: break
                    }
                }
            }
            a.closeTapLoops(weights: weights, weightBytes: 64, offset: offset, end: end, step: step,
                            table: tapRow, tableBytes: 64, taps: tapCount, tap: tap)
            switch output {
            case .accumulators:
                a.mov(.r8, .mem(args, disp: Field.accumulators))
                for r in 0..<pixelRows {
                    for k in 0..<panels { a.vmovups(.mem(.r8, disp: Int32(128 * r + 64 * k)), accumulator(r, k)) }
                }
            case .bytes:
                requantizeAndStore(layout: layout, panels: panels, pixelRows: pixelRows, accumulator: accumulator,
                                   done: done, &a)
            }
        }
    }

    /// The requantizing end (`Requantization16AVX512`): for each panel, its tables but the bias
    /// (masked loads; the sums started from it), then each of the first `rows` pixels
    /// requantized and stored.
    private static func requantizeAndStore(layout: QuantizedGEMMLayout, panels: Int, pixelRows: Int,
                                           accumulator: (Int, Int) -> VectorRegister, done: Assembler.Label,
                                           _ a: inout Assembler) {
        typealias Field = GeneratedIntegerTileArguments.Field
        typealias R = Requantization16AVX512
        let fields = GeneratedIntegerTileArguments.requantizationFields
        let args = GeneralRegister.rdi
        let rows = GeneralRegister.rbp, stride = GeneralRegister.rcx, destination = GeneralRegister.r8
        a.mov(rows, .mem(args, disp: Field.rows))
        a.mov(stride, .mem(args, disp: Field.outputStride))
        R.loadConstants(fields, &a)
        for panel in 0..<panels {
            let panelDone = panel + 1 < panels ? a.newLabel() : done
            a.mov(.rdx, .mem(args, disp: Field.laneMasks + Int32(4 * panel)), width: .dword)
            a.kmovw(k(1), .rdx)
            R.loadTables(fields, channelBytes: nil, block: panel, mask: k(1), flag: .r10, withBias: false, &a)
            a.mov(destination, .mem(args, disp: Field.output))
            if panel > 0 { a.add(destination, 16) }
            if layout == .uint8WeightQuads { a.mov(.r9, .mem(args, disp: Field.rowTerms)) }
            for r in 0..<pixelRows {
                if r > 0 {
                    a.cmp(rows, Int32(r))
                    a.j(.lessOrEqual, panelDone)
                }
                let x = accumulator(r, panel)
                if layout == .uint8WeightQuads { a.vpaddd(x, x, .broadcast(.r9, disp: Int32(4 * r))) }
                R.requantize(x, flag: .r10, &a)
                R.store(x, to: .mem(destination), mask: k(1), flag: .r10, &a)
                a.add(destination, stride)
            }
            if panel + 1 < panels { a.bind(panelDone) }
        }
    }
}

/// The variants of `QuantizedGEMM8x32AVX512VNNI` in one generated block: every layout, one or
/// two panels, sums or requantized bytes.
struct VNNIQuantizedGEMMKernels: @unchecked Sendable {
    private static let layouts: [QuantizedGEMMLayout] = [.int16Pairs, .uint8Quads, .uint8WeightQuads]
    private static let outputs: [QuantizedGEMM8x32AVX512VNNI.Output] = [.accumulators, .bytes]
    private let functions: [QuantizedGEMM8x32AVX512VNNI.Function]

    /// Emits every variant; returns their entry offsets in `kernel(_:panels:output:pixelRows:)`'s
    /// order: the 8-pixel variants, then the single-pixel requantizing ones.
    static func emit(into a: inout Assembler) -> [Int] {
        var entries: [Int] = []
        for layout in layouts {
            for panels in 1...2 {
                for output in outputs {
                    entries.append(a.count)
                    QuantizedGEMM8x32AVX512VNNI.emit(layout, panels: panels, output: output, into: &a)
                }
            }
        }
        for layout in layouts {
            for panels in 1...2 {
                entries.append(a.count)
                QuantizedGEMM8x32AVX512VNNI.emit(layout, panels: panels, output: .bytes, pixelRows: 1, into: &a)
            }
        }
        return entries
    }

    /// The kernels at `entries` (from `emit`) in `code`.
    init(code: ExecutableCode, entries: [Int]) {
        functions = entries.map { unsafeBitCast(code.address(at: $0), to: QuantizedGEMM8x32AVX512VNNI.Function.self) }
    }

    /// The variant for `layout`, `panels` (1 or 2) and `output`, on 8 pixels, or on 1 where
    /// `pixelRows` is 1 and the output is `.bytes` (the single-pixel variants requantize).
    func kernel(_ layout: QuantizedGEMMLayout, panels: Int, output: QuantizedGEMM8x32AVX512VNNI.Output,
                pixelRows: Int = 8) -> QuantizedGEMM8x32AVX512VNNI.Function {
        let l = Self.layouts.firstIndex(of: layout)!, o = output == .accumulators ? 0 : 1
        if pixelRows == 1 && output == .bytes { return functions[Self.layouts.count * 4 + l * 2 + panels - 1] }
        return functions[(l * 2 + panels - 1) * 2 + o]
    }
}
