import MachineCode

/// The generated AVX float convolution microkernel: 6 output pixels × 16 channels in 12 ymm
/// accumulators, the same contract as `FloatConvTileKernel` (input runs per pixel and tap,
/// a panel of 16-float weight steps), with the epilogue fused: `acc + bias`, clamped to the
/// activation range as `FloatConvEpilogue.clamp` does (NaN passes through), stored for the
/// first `count` rows; with a residual (an ADD fused into the layer, `FloatConvResidual`), each
/// clamped row then adds the residual's row and clamps to the ADD's range. Products and sums
/// are rounded separately (`vmulps`, `vaddps`; no FMA) in the reference kernel's order — taps, then input channels, bias last — so results are the
/// reference's bit for bit, which hybrid models need: their on-the-fly input quantization
/// turns one-ulp differences into whole quantization steps. (On Zen both run two per cycle.)
/// With `fused`, each product is added with one rounding (`vfmadd231ps`), in the same order:
/// half the instructions, results within an ulp per step of the reference's (models that do
/// not quantize float activations; see `FloatArithmetic`).
/// With `pointwiseTiles > 0` the call runs that many whole tiles of a 1 × 1 layer whose pixel
/// `p` is at `runs + p · depthBytes` (no pointer table), as the AVX-512 tile does: one call per
/// block of tiles instead of one per tile. A half panel (`laneMask` 0xFF: a last panel of 8
/// channels) is computed whole and its first 8 lanes stored, with 8 bias and residual floats
/// read: such layers (24, 40, 56 … channels) need no whole-panel buffers.
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedFloatTileArguments`.
/// Preconditions: `taps ≥ 1`, `inputDepth ≥ 1`, `1 ≤ count ≤ 6`; 16 bias floats readable and
/// the 16 lanes of each stored row writable (8 of each for a half panel).
enum FloatConv6x16AVX {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Void

    static func emit(fused: Bool, into a: inout Assembler) {
        let args = GeneralRegister.rdi
        let runs = GeneralRegister.r8, taps = GeneralRegister.rsi, end = GeneralRegister.rdx
        let w = GeneralRegister.rcx, output = GeneralRegister.r9, stride = GeneralRegister.r10
        let count = GeneralRegister.r11, offset = GeneralRegister.r15
        let pixels: [GeneralRegister] = [.rax, .rbx, .rbp, .r12, .r13, .r14]
        let saved: [GeneralRegister] = [.rbx, .rbp, .r12, .r13, .r14, .r15]
        typealias Field = GeneratedFloatTileArguments.Field

        /// One 32-bit step of every pixel's run: the panel's 16 weights, each pixel's input
        /// broadcast and its products added.
        func step(_ a: inout Assembler) {
            a.vmovups(ymm(12), .mem(w))
            a.vmovups(ymm(13), .mem(w, disp: 32))
            for (r, p) in pixels.enumerated() {
                a.vbroadcastss(ymm(14), .mem(p, index: offset, scale: 1))
                for h in 0..<2 {
                    if fused {
                        a.vfmadd231ps(ymm(2 * r + h), ymm(14), ymm(12 + h))
                    } else {
                        a.vmulps(ymm(15), ymm(14), ymm(12 + h))
                        a.vaddps(ymm(2 * r + h), ymm(2 * r + h), ymm(15))
                    }
                }
            }
        }

        /// Bias, clamp, (residual, its clamp,) store rows 0 ..< count (`checksCount`; else all 6),
        /// going to `exit` after the last row when it checks; `output` and the residual pointer
        /// (rbx) end 6 rows on when it does not. A half panel (`laneMask` 0xFF) reads the first
        /// 8 floats of the bias and of each residual row and stores each row's first 8 lanes.
        func epilogue(_ a: inout Assembler, checksCount: Bool, exit: Assembler.Label) {
            a.mov(output, .mem(args, disp: Field.output))
            a.mov(stride, .mem(args, disp: Field.rowStrideBytes))
            a.mov(count, .mem(args, disp: Field.count))
            a.mov(.rax, .mem(args, disp: Field.bias))
            a.vbroadcastss(ymm(14), .mem(args, disp: Field.activationMin))
            a.vbroadcastss(ymm(15), .mem(args, disp: Field.activationMax))
            let residual = GeneralRegister.rbx, halfPanel = a.newLabel(), stored = a.newLabel()
            a.mov(residual, .mem(args, disp: Field.residual))
            a.mov(w, .mem(args, disp: Field.laneMask), width: .dword)    // the weights are done with
            a.cmp(w, 0xFF)
            a.j(.equal, halfPanel)
            for halves in [2, 1] {
                if halves == 1 { a.bind(halfPanel) }
                for h in 0..<halves { a.vmovups(ymm(12 + h), .mem(.rax, disp: Int32(32 * h))) }
                let plain = a.newLabel()
                a.test(residual, residual)
                a.j(.equal, plain)
                for withResidual in [true, false] {
                    if !withResidual { a.bind(plain) }
                    for r in 0..<6 {
                        if r > 0 && checksCount {
                            a.cmp(count, Int32(r))
                            a.j(.lessOrEqual, exit)
                        }
                        for h in 0..<halves {
                            let v = 2 * r + h
                            a.vaddps(ymm(v), ymm(v), ymm(12 + h))
                            a.vmaxps(ymm(v), ymm(14), ymm(v))         // x < min ? min : x
                            a.vminps(ymm(v), ymm(15), ymm(v))         // x > max ? max : x
                        }
                        if withResidual {
                            // All 16 ymm are taken: the ADD's bounds replace the layer's for this row.
                            for h in 0..<halves { a.vaddps(ymm(2 * r + h), ymm(2 * r + h), .mem(residual, disp: Int32(32 * h))) }
                            a.vbroadcastss(ymm(14), .mem(args, disp: Field.residualMin))
                            a.vbroadcastss(ymm(15), .mem(args, disp: Field.residualMax))
                            for h in 0..<halves {
                                a.vmaxps(ymm(2 * r + h), ymm(14), ymm(2 * r + h))
                                a.vminps(ymm(2 * r + h), ymm(15), ymm(2 * r + h))
                            }
                            a.vbroadcastss(ymm(14), .mem(args, disp: Field.activationMin))
                            a.vbroadcastss(ymm(15), .mem(args, disp: Field.activationMax))
                        }
                        for h in 0..<halves { a.vmovups(.mem(output, disp: Int32(32 * h)), ymm(2 * r + h)) }
                        a.add(output, stride)
                        if withResidual { a.add(residual, .mem(args, disp: Field.residualStrideBytes)) }
                    }
                    a.jmp(stored)
                }
            }
            a.bind(stored)
        }

        let registers = GeneratedFloatTileBody.Registers(runs: runs, taps: taps, end: end, weights: w, offset: offset,
                                                         output: output, residual: .rbx, pixels: pixels)
        a.function(saving: saved) { a, done in
            GeneratedFloatTileBody.emit(&a, registers, weightBytes: 64, done: done,
                                        zero: { a in for v in 0..<12 { a.vxorps(ymm(v), ymm(v), ymm(v)) } },
                                        step: step, epilogue: epilogue)
        }
    }
}

/// The argument block of the generated float tile (`FloatConv6x16AVX`), laid out as the
/// generated code reads it.
struct GeneratedFloatTileArguments {
    var runs: UnsafeRawPointer
    var taps: Int
    var depthBytes: Int
    var weights: UnsafeRawPointer
    var bias: UnsafeRawPointer
    var output: UnsafeMutableRawPointer
    var rowStrideBytes: Int
    var count: Int
    var activationMin: Float
    var activationMax: Float
    /// The fused ADD's other operand at the tile's first output element (rows
    /// `residualStrideBytes` apart), or nil (no fused ADD).
    var residual: UnsafeRawPointer?
    /// The fused ADD's activation range.
    var residualMin: Float = -.infinity
    var residualMax: Float = .infinity
    /// The panel's valid lanes, bit `i` for channel `i` (the AVX-512 tiles; the AVX2 tile
    /// writes 8 lanes for `0xFF`, a half panel, else 16).
    var laneMask: UInt32 = .max
    /// With a nonzero count, the tiles run that many whole 1 × 1 tiles, pixel `p` at
    /// `runs + p · depthBytes`, advancing `runs`, `output` and `residual` (whole or half panels
    /// only for the AVX2 tile, which does not mask lanes).
    var pointwiseTiles: Int = 0
    /// Bytes from one row of the residual to the next (0: the same row for every pixel, a row
    /// of zeros for channels a channel PAD would have added).
    var residualStrideBytes: Int = 0

    /// Byte offsets of the fields (checked against `MemoryLayout` by the kernel tests).
    enum Field {
        static let runs: Int32 = 0, taps: Int32 = 8, depthBytes: Int32 = 16, weights: Int32 = 24, bias: Int32 = 32
        static let output: Int32 = 40, rowStrideBytes: Int32 = 48, count: Int32 = 56
        static let activationMin: Int32 = 64, activationMax: Int32 = 68
        static let residual: Int32 = 72, residualMin: Int32 = 80, residualMax: Int32 = 84
        static let laneMask: Int32 = 88, pointwiseTiles: Int32 = 96, residualStrideBytes: Int32 = 104
    }
}

extension GeneratedFloatTileArguments {
    /// The contract of the generated float tiles (`FloatConv6x16AVX`, `FloatConv8x32AVX512`) for a
    /// tile of `rows` pixels × `panelWidth` channels (the lanes stored per row; `masksLanes`: the
    /// AVX-512 tiles, which read `laneMask`; `halfPanels`: the AVX2 tile, which stores half its
    /// panel for the `laneMask` of the low half), as far as the block shows it:
    /// - `taps ≥ 1` and `depthBytes` a positive multiple of 4 (`inputDepth ≥ 1`): the tap and
    ///   channel loops test their counters at the bottom, so 0 would not end them;
    /// - `1 ≤ count ≤ rows`;
    /// - `rowStrideBytes` a multiple of 4, and when more than one row is stored at least the
    ///   bytes of the lanes stored per row (`panelWidth`, or for the masking tiles the lanes of
    ///   `laneMask`), so rows of the tile do not overwrite each other;
    /// - `activationMin ≤ activationMax` (either may be infinite), and with a `residual`,
    ///   `residualMin ≤ residualMax` and `residualStrideBytes` a non-negative multiple of 4 (the
    ///   kernel reads a residual row before it stores the output row, so the two may be the same);
    /// - for the masking tiles, `laneMask` non-empty and within the panel's `panelWidth` lanes;
    /// - `pointwiseTiles ≥ 0`, and a pointwise call (`> 0`) only on a masking tile or a whole or
    ///   half panel, with one tap and whole tiles (`count = rows`): `runs` is then the first
    ///   pixel, not a pointer table.
    ///
    /// The kernels rely on no alignment (unaligned loads and stores). What the block cannot show
    /// — `taps · rows` input runs of `inputDepth` floats at `runs`, the panel's
    /// `taps · inputDepth · panelWidth` weights, `panelWidth` bias floats, `panelWidth` writable
    /// floats per stored row and as many residual floats — is the caller's
    /// (`runGeneratedFloatTile` pads partial panels).
    /// - Returns: nil when the contract holds, else what is broken.
    func violation(rows: Int, panelWidth: Int, masksLanes: Bool, halfPanels: Bool = false) -> String? {
        if taps < 1 { return "generated float tile: taps \(taps) < 1" }
        if depthBytes < 4 || depthBytes % 4 != 0 { return "generated float tile: input depth bytes \(depthBytes) is not a positive multiple of 4" }
        if count < 1 || count > rows { return "generated float tile: count \(count) outside 1...\(rows)" }
        // The lanes each row stores: the whole panel, or the masked ones (contiguous from lane 0).
        let halfPanel = halfPanels && laneMask == (1 << UInt32(panelWidth / 2)) - 1
        let storedLanes = masksLanes ? min(panelWidth, laneMask.nonzeroBitCount) : halfPanel ? panelWidth / 2 : panelWidth
        if rowStrideBytes % 4 != 0 || (count > 1 && rowStrideBytes < 4 * storedLanes) {
            return "generated float tile: row stride \(rowStrideBytes) bytes for \(count) rows of \(storedLanes) floats"
        }
        if activationMin > activationMax { return "generated float tile: activation range \(activationMin)...\(activationMax) is empty" }
        if residual != nil && residualMin > residualMax {
            return "generated float tile: residual range \(residualMin)...\(residualMax) is empty"
        }
        if residual != nil && (residualStrideBytes < 0 || residualStrideBytes % 4 != 0) {
            return "generated float tile: residual row stride \(residualStrideBytes) bytes is not a non-negative multiple of 4"
        }
        if masksLanes && (laneMask == 0 || (panelWidth < 32 && laneMask >= 1 << UInt32(panelWidth))) {
            return "generated float tile: lane mask \(laneMask) for a panel of \(panelWidth) lanes"
        }
        let wholePanel = masksLanes || halfPanel || laneMask.nonzeroBitCount >= panelWidth
        if pointwiseTiles < 0 || (pointwiseTiles > 0 && (!wholePanel || taps != 1 || count != rows)) {
            return "generated float tile: \(pointwiseTiles) pointwise tiles need a masking tile or a whole or half panel, "
                + "one tap and whole tiles"
        }
        return nil
    }
}
