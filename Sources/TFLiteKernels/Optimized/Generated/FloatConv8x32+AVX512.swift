import MachineCode

/// The generated AVX-512 float convolution microkernel: 8 output pixels × 32 channels in 16 zmm
/// accumulators (pixel `r` in zmm(2r), zmm(2r+1)), or × 16 channels in 8 (`panels: 1`, for
/// layers of 16 or fewer channels, or a multiple of 16 that 32 would pad: the 32-wide tile
/// wastes half or more there), the `FloatConvTileKernel` contract of
/// `FloatConvKernel8x32` with the epilogue fused (bias, clamp as `FloatConvEpilogue.clamp`, NaN
/// passing through, rows `0 ..< count` stored). Each step loads the panel's two weight vectors
/// and multiplies them by each pixel's input, broadcast once into zmm(18 + r), then adds:
/// products and sums rounded separately (`vmulps`, `vaddps`; no FMA) in the reference kernel's
/// order, as `FloatConv6x16AVX` and for the same reason (bit-exact float, which hybrid models need);
/// with `fused`, one `vfmadd231ps` per product instead (see `FloatConv6x16AVX`). With a
/// residual (an ADD fused into the layer, `FloatConvResidual`), each clamped row then adds the
/// residual's row (rows `residualStrideBytes` apart) and clamps to the ADD's range. Lanes past the
/// panel's `laneMask` (opmask k1, k2) are neither loaded from the bias and the residual nor
/// stored, so a last partial panel runs in place.
///
/// With `pointwiseTiles > 0` the call runs that many whole tiles of a 1 × 1 layer whose pixel
/// `p` reads `runs + p · depthBytes` (no pointer table): the tile loop lives in the generated
/// code, which advances the input, output and residual cursors in the argument block.
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedFloatTileArguments` (written
/// to in pointwise mode). Preconditions: `taps ≥ 1`, `inputDepth ≥ 1`, `1 ≤ count ≤ 8`; the
/// lanes of `laneMask` readable in the bias and the residual and writable in each stored row.
enum FloatConv8x32AVX512 {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Void

    static func emit(fused: Bool, panels: Int = 2, into a: inout Assembler) {
        precondition(panels == 1 || panels == 2, "one or two 16-channel panels")
        /// Pixel `r`'s accumulator for panel `h`.
        func accumulator(_ r: Int, _ h: Int) -> VectorRegister { zmm(panels * r + h) }
        let args = GeneralRegister.rdi
        let runs = GeneralRegister.r11, taps = GeneralRegister.rsi, end = GeneralRegister.rdx
        let w = GeneralRegister.rcx, offset = GeneralRegister.r15
        // After the loop: the pixel registers r9, r10 and r11 become the output cursor, its
        // stride and the row count; rbx the residual cursor.
        let output = GeneralRegister.r9, stride = GeneralRegister.r10, count = GeneralRegister.r11
        let residual = GeneralRegister.rbx
        let pixels: [GeneralRegister] = [.rax, .rbx, .rbp, .r12, .r13, .r14, .r8, .r9]
        let saved: [GeneralRegister] = [.rbx, .rbp, .r12, .r13, .r14, .r15]
        let masks = [k(1), k(2)]
        typealias Field = GeneratedFloatTileArguments.Field

        /// One multiply step of every pixel (input offset `offset`), weights at `w`.
        func step(_ a: inout Assembler) {
            a.vmovups(zmm(16), .mem(w))
            if panels == 2 { a.vmovups(zmm(17), .mem(w, disp: 64)) }
            for (r, p) in pixels.enumerated() {
                if panels == 1 {
                    // One panel: the input as a broadcast memory operand of its one instruction.
                    // A separate `vbroadcastss` costs a vector pipe on AMD Zen 4, where this took
                    // an 8 × 16 layer (deeplabv3's 33 × 33 × 288 → 48) from 0.36 to 0.26 ms.
                    let input = Assembler.VectorSource.memory(MemoryOperand(base: p, index: offset, broadcast: true))
                    if fused {
                        a.vfmadd231ps(accumulator(r, 0), zmm(16), input)
                    } else {
                        let product = zmm(26 + r % 6)
                        a.vmulps(product, zmm(16), input)
                        a.vaddps(accumulator(r, 0), accumulator(r, 0), product)
                    }
                    continue
                }
                // Two panels: one broadcast load per pixel feeds both (a broadcast memory operand
                // per instruction would load it twice: 18 loads per step, not 10).
                let input = zmm(18 + r)
                a.vbroadcastss(input, .mem(p, index: offset, scale: 1))
                for h in 0..<panels {
                    if fused {
                        a.vfmadd231ps(accumulator(r, h), zmm(16 + h), input)
                    } else {
                        let product = zmm(26 + (2 * r + h) % 6)
                        a.vmulps(product, zmm(16 + h), input)
                        a.vaddps(accumulator(r, h), accumulator(r, h), product)
                    }
                }
            }
        }

        /// Bias, clamp, residual and its clamp, then the masked stores of rows `0 ..< count`
        /// (all 8 without `checksCount`); leaves `output` and `residual` one row past the last
        /// stored one, or jumps to `exit` after a partial tile.
        func epilogue(_ a: inout Assembler, checksCount: Bool, exit: Assembler.Label) {
            a.mov(output, .mem(args, disp: Field.output))
            a.mov(stride, .mem(args, disp: Field.rowStrideBytes))
            if checksCount { a.mov(count, .mem(args, disp: Field.count)) }
            a.mov(.rax, .mem(args, disp: Field.bias))
            for h in 0..<panels { a.vmovups(zmm(16 + h), .mem(.rax, disp: Int32(64 * h)), mask: masks[h], zeroing: true) }
            a.vbroadcastss(zmm(18), .mem(args, disp: Field.activationMin))
            a.vbroadcastss(zmm(19), .mem(args, disp: Field.activationMax))
            a.vbroadcastss(zmm(20), .mem(args, disp: Field.residualMin))
            a.vbroadcastss(zmm(21), .mem(args, disp: Field.residualMax))
            let plain = a.newLabel(), stored = a.newLabel()
            a.mov(residual, .mem(args, disp: Field.residual))
            a.test(residual, residual)
            a.j(.equal, plain)
            for withResidual in [true, false] {
                if !withResidual { a.bind(plain) }
                for r in 0..<8 {
                    if checksCount && r > 0 {
                        a.cmp(count, Int32(r))
                        a.j(.lessOrEqual, exit)
                    }
                    for h in 0..<panels {
                        let v = accumulator(r, h)
                        a.vaddps(v, v, zmm(16 + h))
                        a.vmaxps(v, zmm(18), v)                   // x < min ? min : x
                        a.vminps(v, zmm(19), v)                   // x > max ? max : x
                        if withResidual {
                            a.vmovups(zmm(22), .mem(residual, disp: Int32(64 * h)), mask: masks[h], zeroing: true)
                            a.vaddps(v, v, zmm(22))
                            a.vmaxps(v, zmm(20), v)
                            a.vminps(v, zmm(21), v)
                        }
                        a.vmovups(.mem(output, disp: Int32(64 * h)), v, mask: masks[h])
                    }
                    a.add(output, stride)
                    if withResidual { a.add(residual, .mem(args, disp: Field.residualStrideBytes)) }
                }
                if withResidual { a.jmp(stored) }
            }
            a.bind(stored)
        }

        a.function(saving: saved) { a, done in
            a.mov(.rax, .mem(args, disp: Field.laneMask), width: .dword)
            a.kmovw(masks[0], .rax)
            if panels == 2 {
                a.shr(.rax, 16)
                a.kmovw(masks[1], .rax)
            }
            let registers = GeneratedFloatTileBody.Registers(runs: runs, taps: taps, end: end, weights: w, offset: offset,
                                                             output: output, residual: residual, pixels: pixels)
            GeneratedFloatTileBody.emit(&a, registers, weightBytes: Int32(64 * panels), done: done,
                                        zero: { a in for v in 0..<(8 * panels) { a.vxorps(zmm(v), zmm(v), zmm(v)) } },
                                        step: step, epilogue: epilogue)
        }
    }
}
