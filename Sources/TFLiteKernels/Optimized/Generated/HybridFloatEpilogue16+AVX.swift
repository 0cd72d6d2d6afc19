import MachineCode

/// The generated float epilogue of a hybrid GEMM tile (`ConvHybridEpilogue`): for each of `rows`
/// pixels and each of `panels` (1 or 2) panels of 16 channels, `v = Float(sums + correction) ·
/// multiplier · inputScale`, plus the bias when there is one, then `low` where `v ≤ low` and
/// `high` where `v > high` (so a NaN stays NaN and a zero equal to a bound becomes the bound:
/// the Swift epilogue's `replace` steps). Every product and sum is rounded apart, as there.
/// zmm: one register per panel, the clamps through opmasks; ymm: two per panel, through vector
/// masks and `vblendvps`.
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedHybridEpilogueArguments`.
enum HybridFloatEpilogueAVX {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Void

    static func emit(width: VectorRegister.Width, into a: inout Assembler) {
        precondition(width == .ymm || width == .zmm, "ymm (AVX2) or zmm (AVX-512)")
        typealias Field = GeneratedHybridEpilogueArguments.Field
        let args = GeneralRegister.rdi, sums = GeneralRegister.rsi, output = GeneralRegister.rdx
        let stride = GeneralRegister.r8, rows = GeneralRegister.rcx
        let correction = GeneralRegister.r9, multipliers = GeneralRegister.r10, bias = GeneralRegister.r11
        let v = VectorRegister(0, width), mask = VectorRegister(1, width)
        let inputScale = VectorRegister(13, width), low = VectorRegister(14, width), high = VectorRegister(15, width)
        a.function(saving: []) { a, done in
            a.mov(sums, .mem(args, disp: Field.accumulators))
            a.mov(output, .mem(args, disp: Field.output))
            a.mov(stride, .mem(args, disp: Field.outputStride))
            a.mov(rows, .mem(args, disp: Field.rows))
            a.mov(correction, .mem(args, disp: Field.correction))
            a.mov(multipliers, .mem(args, disp: Field.multipliers))
            a.mov(bias, .mem(args, disp: Field.bias))
            a.vbroadcastss(inputScale, .mem(args, disp: Field.inputScale))
            a.vbroadcastss(low, .mem(args, disp: Field.lower))
            a.vbroadcastss(high, .mem(args, disp: Field.upper))
            a.test(rows, rows)
            a.j(.equal, done)
            /// One loop over the rows for `panels` panels, with or without the bias.
            func rowLoop(panels: Int, withBias: Bool) {
                a.countedLoop(rows, advancing: [(sums, .bytes(Int32(QuantizedGEMM.accumulatorRowBytes))), (output, .register(stride))]) { a in
                    for j in 0..<(64 * panels / width.bytes) {
                        let offset = Int32(j * width.bytes)
                        a.vmovups(v, .mem(sums, disp: offset))
                        a.vpaddd(v, v, .mem(correction, disp: offset))
                        a.vcvtdq2ps(v, v)
                        a.vmulps(v, v, .mem(multipliers, disp: offset))
                        a.vmulps(v, v, inputScale)
                        if withBias { a.vaddps(v, v, .mem(bias, disp: offset)) }
                        if width == .zmm {
                            a.vcmpps(k(1), v, .register(low), .lessOrEqual)
                            a.vpblendmd(v, v, low, mask: k(1))
                            a.vcmpps(k(2), v, .register(high), .greater)
                            a.vpblendmd(v, v, high, mask: k(2))
                        } else {
                            a.vcmpps(mask, v, .register(low), .lessOrEqual)
                            a.vblendvps(v, v, low, mask)
                            a.vcmpps(mask, v, .register(high), .greater)
                            a.vblendvps(v, v, high, mask)
                        }
                        a.vmovups(.mem(output, disp: offset), v)
                    }
                }
                a.jmp(done)
            }
            let twoPanels = a.newLabel()
            a.mov(.rax, .mem(args, disp: Field.panels))
            a.cmp(.rax, 2)
            a.j(.equal, twoPanels)
            for panels in [1, 2] {
                if panels == 2 { a.bind(twoPanels) }
                let noBias = a.newLabel()
                a.test(bias, bias)
                a.j(.equal, noBias)
                rowLoop(panels: panels, withBias: true)
                a.bind(noBias)
                rowLoop(panels: panels, withBias: false)
            }
        }
    }
}

/// The argument block of `HybridFloatEpilogueAVX`, laid out as the generated code reads it.
struct GeneratedHybridEpilogueArguments {
    /// The tile's Int32 sums: pixel `r`, panel `p` at byte `r · QuantizedGEMM.accumulatorRowBytes + 64p`.
    var accumulators: UnsafeRawPointer
    /// The first pixel's first channel; pixels `outputStride` bytes apart.
    var output: UnsafeMutableRawPointer
    var outputStride: Int
    var rows: Int
    /// 1 or 2.
    var panels: Int
    /// `16 · panels` Int32 added to the sums, the float multipliers and (optional) float biases.
    var correction: UnsafeRawPointer
    var multipliers: UnsafeRawPointer
    var bias: UnsafeRawPointer?
    var inputScale: Float
    var lower: Float
    var upper: Float

    /// Byte offsets of the fields (checked against `MemoryLayout` by the kernel tests).
    enum Field {
        static let accumulators: Int32 = 0, output: Int32 = 8, outputStride: Int32 = 16, rows: Int32 = 24, panels: Int32 = 32
        static let correction: Int32 = 40, multipliers: Int32 = 48, bias: Int32 = 56, inputScale: Int32 = 64
        static let lower: Int32 = 68, upper: Int32 = 72
    }
}

extension GeneratedHybridEpilogueArguments {
    /// The contract of `HybridFloatEpilogueAVX`, as far as the block shows it: `rows ≥ 0`,
    /// `panels` 1 or 2, and output pixels far enough apart not to overlap (`outputStride` at
    /// least the panels' 64 bytes each). The `rows` accumulator rows, the `16 · panels`
    /// correction terms, multipliers and biases, and the `rows` output pixels are the caller's.
    /// - Returns: nil when the contract holds, else what is broken.
    func violation() -> String? {
        if rows < 0 { return "HybridFloatEpilogue: rows \(rows) is negative" }
        if panels != 1 && panels != 2 { return "HybridFloatEpilogue: \(panels) panels (1 or 2)" }
        if rows > 1 && outputStride < 64 * panels {
            return "HybridFloatEpilogue: output pixels \(outputStride) bytes apart overlap \(panels) panels"
        }
        return nil
    }
}
