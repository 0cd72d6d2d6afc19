import MachineCode

/// The generated ymm microkernel of `QuantizedGEMM`: up to 8 pixels × one 16-channel panel, as
/// two passes of 4 pixels whose sums stay in 8 ymm accumulators. Each 32-bit word step loads the
/// panel's two weight vectors once, broadcasts each pixel's input word (`vpbroadcastd`) and adds
/// its products, all exact (`Products`):
/// - AVX2, int16 pairs: `vpmaddwd` then `vpaddd`; the byte-weight pair layouts load their
///   weights widened (`vpmovsxbw` for int8, `vpmovzxbw` then the filter offset `vpaddw` for
///   uint8), half the bytes per step;
/// - AVX-VNNI (the VEX forms, on CPUs without AVX-512 such as recent desktop cores), one
///   instruction per half panel: int16 pairs with `vpdpwssd`; int8 quads (unsigned `x + 128` ×
///   int8 weights) and uint8-weight quads (uint8 weights × signed `x − 128`) with `vpdpbusd`.
///
/// Three variants share the loop and differ in the end of a pass (`Output`): the Int32 sums
/// stored for a Swift epilogue, or requantized in registers and stored as uint8 / int8
/// (`Requantization16AVX2`, no left shift; the uint8-weight quads add each pixel's window-sum
/// term from `rowTerms` first). The requantizing variants store channels 0–7 only when the
/// first lane mask is `0xFF` (a last panel of 8 channels), else all 16.
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedIntegerTileArguments`.
/// Preconditions: `taps ≥ 1`, `words ≥ 1`, `1 ≤ rows ≤ 8`; `table[t·8 + r] + tableBase` is
/// pixel `r`'s input for tap `t`; requantizing variants need 16 readable entries in every per-channel table
/// (and 8 `rowTerms` for the uint8-weight quads).
enum QuantizedGEMM8x16AVX2 {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Void

    /// What a pass does with its sums.
    enum Output: String, CaseIterable {
        /// Pixel `r`'s 16 sums to `accumulators + 128·r` (Int32).
        case accumulators
        /// Requantized bytes, saturated unsigned / signed, row `r` at `output + r · outputStride`.
        case uint8, int8
    }

    /// The instructions of a word step.
    enum Products: Equatable {
        /// `layout` (`int16Pairs` or a byte-weight pair layout) with AVX2 `vpmaddwd` + `vpaddd`.
        case avx2(QuantizedGEMMLayout)
        /// `layout` with AVX-VNNI.
        case avxVNNI(QuantizedGEMMLayout)
    }

    static func emit(_ output: Output, products: Products = .avx2(.int16Pairs), into a: inout Assembler) {
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
            a.add(end, .mem(args, disp: Field.tableBase))     // runs are read at entry + base + offset
            a.mov(weights, .mem(args, disp: Field.weights))
            a.mov(destination, .mem(args, disp: output == .accumulators ? Field.accumulators : Field.output))
            a.mov(rows, .mem(args, disp: Field.rows))
            let half = a.newLabel(), tap = a.newLabel(), step = a.newLabel()
            let widened: QuantizedGEMMLayout? = if case .avx2(let layout) = products, layout.widensByteWeights { layout } else { nil }
            let filterOffsets = ymm(13)
            a.bind(half)
            if widened == .uint8WeightPairs { a.vpbroadcastd(filterOffsets, .mem(args, disp: Field.filterOffsets)) }
            for v in 0..<8 { a.vpxor(ymm(v), ymm(v), ymm(v)) }
            a.mov(w, weights)
            a.mov(tapRow, table)
            a.mov(tapCount, taps)
            a.bind(tap)
            for (r, p) in pixels.enumerated() { a.mov(p, .mem(tapRow, disp: Int32(8 * r))) }
            a.mov(offset, .mem(args, disp: Field.tableBase))
            a.bind(step)
            switch widened {
            case .int8WeightPairs?:
                a.vpmovsxbw(ymm(8), .mem(w))
                a.vpmovsxbw(ymm(9), .mem(w, disp: 16))
            case .uint8WeightPairs?:
                a.vpmovzxbw(ymm(8), .mem(w))
                a.vpmovzxbw(ymm(9), .mem(w, disp: 16))
                a.vpaddw(ymm(8), ymm(8), filterOffsets)
                a.vpaddw(ymm(9), ymm(9), filterOffsets)
            default:
                a.vmovups(ymm(8), .mem(w))
                a.vmovups(ymm(9), .mem(w, disp: 32))
            }
            for (r, p) in pixels.enumerated() {
                a.vpbroadcastd(ymm(10), .mem(p, index: offset, scale: 1))
                for h in 0..<2 {
                    let acc = ymm(2 * r + h), weights = ymm(8 + h)
                    switch products {
                    case .avx2:
                        a.vpmaddwd(ymm(11 + h), ymm(10), weights)
                        a.vpaddd(acc, acc, ymm(11 + h))
                    case .avxVNNI(.int16Pairs): a.vpdpwssd(acc, ymm(10), weights)
                    case .avxVNNI(.uint8Quads): a.vpdpbusd(acc, ymm(10), weights)
                    case .avxVNNI(.uint8WeightQuads): a.vpdpbusd(acc, weights, ymm(10))
                    case .avxVNNI(.int8WeightPairs), .avxVNNI(.uint8WeightPairs):
                        preconditionFailure("the AVX-VNNI kernels take int16 pairs and quads")
                    }
                }
            }
            a.closeTapLoops(weights: w, weightBytes: widened == nil ? 64 : 32, offset: offset, end: end, step: step,
                            table: tapRow, tableBytes: 64, taps: tapCount, tap: tap)
            if output == .accumulators {
                for r in 0..<4 {
                    a.vmovups(.mem(destination, disp: Int32(128 * r)), ymm(2 * r))
                    a.vmovups(.mem(destination, disp: Int32(128 * r + 32)), ymm(2 * r + 1))
                }
                a.add(destination, 512)
            } else {
                a.mov(.r10, .mem(args, disp: Field.outputStride))
                let addsRowTerms = products == .avxVNNI(.uint8WeightQuads)
                if addsRowTerms {
                    // r15 = this pass's first row term: the table has moved 32 bytes (4 pixels)
                    // per pass, the terms 16.
                    a.mov(offset, table)
                    a.mov(.r11, .mem(args, disp: Field.table))
                    a.sub(offset, .r11)
                    a.shr(offset, 1)
                    a.add(offset, .mem(args, disp: Field.rowTerms))
                }
                a.mov(.r11, .mem(args, disp: Field.laneMasks))    // low 32 bits: the panel's lanes
                // The pixel registers are free until the next pass reloads them: the panel's
                // rounding terms, its flag, its multipliers.
                let terms = GeneralRegister.rbx, flag = GeneralRegister.r12, multipliers = GeneralRegister.r13
                let bias = GeneralRegister.r14
                a.mov(terms, .mem(args, disp: fields.roundingTerms))
                a.mov(flag, .mem(terms, disp: Int32(ConvRequantizer.residualFlagBytes)))
                a.mov(multipliers, .mem(args, disp: fields.multipliers))
                a.mov(bias, .mem(args, disp: fields.bias))
                Requantization16AVX2.loadConstants(fields, &a)
                for r in 0..<4 {
                    if r > 0 {
                        a.cmp(rows, Int32(r))
                        a.j(.lessOrEqual, done)
                    }
                    if addsRowTerms {
                        a.vpbroadcastd(ymm(8), .mem(offset, disp: Int32(4 * r)))
                        a.vpaddd(ymm(2 * r), ymm(2 * r), ymm(8))
                        a.vpaddd(ymm(2 * r + 1), ymm(2 * r + 1), ymm(8))
                    }
                    for h in 0..<2 {
                        a.vpaddd(ymm(2 * r + h), ymm(2 * r + h), .memory(.mem(bias, disp: Int32(32 * h))))
                        Requantization16AVX2.requantize(ymm(2 * r + h), half: h, multipliers: .mem(multipliers, disp: Int32(32 * h)),
                                                        terms: terms, flag: flag, &a)
                    }
                    Requantization16AVX2.store(ymm(2 * r), ymm(2 * r + 1), signed: output == .int8, to: .mem(destination),
                                               lowHalfOnly: .r11, &a)
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

/// The variants of `QuantizedGEMM8x16AVX2` in one generated block: every output of the pair
/// layouts (int16 and byte weights) with AVX2, or of the int16 pairs and quads with AVX-VNNI.
struct GEMM8x16Kernels: @unchecked Sendable {
    private static let vnniLayouts: [QuantizedGEMMLayout] = [.int16Pairs, .uint8Quads, .uint8WeightQuads]
    private static let avx2Layouts: [QuantizedGEMMLayout] = [.int16Pairs, .int8WeightPairs, .uint8WeightPairs]
    /// Whether the kernels use AVX-VNNI (and so cover the quad layouts).
    let avxVNNI: Bool
    private let functions: [QuantizedGEMM8x16AVX2.Function]

    /// Emits the variants; returns their names and entry offsets in `kernel(_:_:)`'s order.
    static func emit(avxVNNI: Bool, into a: inout Assembler) -> [(name: String, offset: Int)] {
        var entries: [(name: String, offset: Int)] = []
        for layout in avxVNNI ? vnniLayouts : avx2Layouts {
            for output in QuantizedGEMM8x16AVX2.Output.allCases {
                // Raw values, not `"\(layout)"`: interpolating an enum reflects on it, whose first use
                // scanned the process's conformance records (0.3 ms of code generation).
                entries.append((layout.rawValue + "." + output.rawValue, a.count))
                QuantizedGEMM8x16AVX2.emit(output, products: avxVNNI ? .avxVNNI(layout) : .avx2(layout), into: &a)
            }
        }
        return entries
    }

    /// The kernels at `entries` (from `emit`) in `code`.
    init(code: ExecutableCode, entries: [Int], avxVNNI: Bool) {
        self.avxVNNI = avxVNNI
        functions = entries.map { unsafeBitCast(code.address(at: $0), to: QuantizedGEMM8x16AVX2.Function.self) }
    }

    /// The variant for `layout` and `output`, or nil for the quad layouts without AVX-VNNI and
    /// the byte-weight pairs with it.
    func kernel(_ layout: QuantizedGEMMLayout, _ output: QuantizedGEMM8x16AVX2.Output) -> QuantizedGEMM8x16AVX2.Function? {
        guard let l = (avxVNNI ? Self.vnniLayouts : Self.avx2Layouts).firstIndex(of: layout),
              let o = QuantizedGEMM8x16AVX2.Output.allCases.firstIndex(of: output) else { return nil }
        return functions[l * QuantizedGEMM8x16AVX2.Output.allCases.count + o]
    }
}

/// The argument block of `QuantizedGEMM8x16AVX2` and `QuantizedGEMM8x32AVX512VNNI`, laid out as the generated code reads it.
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
    var activationMin: Int32 = 0
    var activationMax: Int32 = 0
    /// Bytes from the first panel's weights to the second's (`QuantizedGEMM8x32AVX512VNNI`).
    var panelStride = 0
    /// Per-pixel Int32 terms added before requantizing (uint8-weight quads' window sums).
    var rowTerms: UnsafeRawPointer?
    /// The lanes of each panel that exist (16-bit opmasks: `0xFFFF` for a full panel). The
    /// requantizing `QuantizedGEMM8x16AVX2` reads the first: `0xFF` stores 8 channels, other
    /// values 16.
    var laneMasks: (Int32, Int32) = (0xFFFF, 0xFFFF)
    /// `ConvRequantizer.roundingTerms(atChannel:)` of the first panel (the AVX-512 requantizing tiles').
    var roundingTerms: UnsafeRawPointer?
    /// Added to every `table` entry before it is read through: 0 for a table of input pointers,
    /// a tile's window origin address for the shared table of byte offsets (`GEMMOffsetTable`).
    var tableBase = 0
    /// The filter offset of the `uint8WeightPairs` layout, added to each widened weight
    /// (`QuantizedGEMM8x16AVX2`, which reads it as `filterOffsets`: the value in both 16-bit halves).
    var filterOffset: Int32 {
        get { Int32(Int16(truncatingIfNeeded: filterOffsets)) }
        set { filterOffsets = UInt32(UInt16(truncatingIfNeeded: newValue)) &* 0x1_0001 }
    }
    /// `filterOffset` as two 16-bit lanes.
    var filterOffsets: UInt32 = 0

    init(table: UnsafeRawPointer, taps: Int, words: Int, weights: UnsafeRawPointer, rows: Int) {
        self.table = table; self.taps = taps; self.words = words; self.weights = weights; self.rows = rows
        outputStride = 0
    }

    /// Where the requantization steps find their tables and scalars in this block.
    static let requantizationFields = RequantizationFields(
        bias: Field.bias, multipliers: Field.multipliers, roundingTerms: Field.roundingTerms,
        activationMin: Field.activationMin, activationMax: Field.activationMax)

    /// Byte offsets of the fields (checked against `MemoryLayout` by the kernel tests).
    enum Field {
        static let table: Int32 = 0, taps: Int32 = 8, words: Int32 = 16, weights: Int32 = 24, accumulators: Int32 = 32
        static let rows: Int32 = 40, output: Int32 = 48, outputStride: Int32 = 56, bias: Int32 = 64
        static let multipliers: Int32 = 72, activationMin: Int32 = 80, activationMax: Int32 = 84
        static let panelStride: Int32 = 88, rowTerms: Int32 = 96, laneMasks: Int32 = 104, roundingTerms: Int32 = 112
        static let tableBase: Int32 = 120, filterOffsets: Int32 = 128
    }
}

extension GeneratedIntegerTileArguments {
    /// The contract of the generated integer tiles (`QuantizedGEMM8x16AVX2`,
    /// `QuantizedGEMM8x32AVX512VNNI`) for a call on `panels` 16-channel panels that stores the
    /// sums (`requantizing` false) or the requantized bytes, as far as the block shows it:
    /// - `taps ≥ 1`, `words ≥ 1`: the tap and word loops run their body before testing their
    ///   counters, so 0 taps would not end and 0 words would read a step;
    /// - `1 ≤ rows ≤ 8` (`QuantizedGEMM.tilePixels`);
    /// - sums: `accumulators` set; requantizing: `output` and the per-channel tables (`bias`,
    ///   `multipliers`) and `roundingTerms` set, `outputStride ≥ 1`,
    ///   `activationMin ≤ activationMax`;
    /// - `panels` 1 or 2; with 2, the second panel's weights start at least one panel
    ///   (`64 · taps · words` bytes) after the first's (`panelStride`);
    /// - the lane masks of the panels called are non-empty 16-bit masks.
    ///
    /// The kernels rely on no alignment (unaligned and broadcast loads). What the block cannot
    /// show — the `taps · 8` input pointers of `table` (rows past `rows` repeating a real pixel),
    /// the panels' weights, 16 entries per panel in every table, 8 `rowTerms` where the layout
    /// needs them, the written accumulators or output rows — is the caller's.
    /// - Returns: nil when the contract holds, else what is broken.
    func violation(requantizing: Bool, panels: Int) -> String? {
        if taps < 1 || words < 1 { return "generated integer tile: taps \(taps), words \(words): both must be ≥ 1" }
        if rows < 1 || rows > 8 { return "generated integer tile: rows \(rows) outside 1...8" }
        if requantizing {
            if output == nil || bias == nil || multipliers == nil || roundingTerms == nil {
                return "generated integer tile: a requantizing call needs the output, every per-channel table and the rounding terms"
            }
            if outputStride < 1 { return "generated integer tile: output stride \(outputStride) < 1" }
            if activationMin > activationMax {
                return "generated integer tile: activation range \(activationMin)...\(activationMax) is empty"
            }
        } else if accumulators == nil {
            return "generated integer tile: a sums call needs the accumulators"
        }
        if panels != 1 && panels != 2 { return "generated integer tile: \(panels) panels (1 or 2)" }
        if panels == 2 && panelStride < 64 * taps * words {
            return "generated integer tile: panel stride \(panelStride) bytes is shorter than a panel (\(64 * taps * words))"
        }
        let validMask = { (mask: Int32) in mask >= 1 && mask <= 0xFFFF }
        if !validMask(laneMasks.0) || (panels == 2 && !validMask(laneMasks.1)) {
            return "generated integer tile: lane masks \(laneMasks) for \(panels) panel(s)"
        }
        return nil
    }
}
