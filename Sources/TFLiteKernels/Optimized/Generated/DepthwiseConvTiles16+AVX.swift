import MachineCode

/// The generated AVX depthwise microkernel: the sums of a run of interior output pixels (whole
/// window inside the input) for one 16-channel block, several pixels per pass (4 in 8 ymm
/// accumulators with AVX; 4, or 8 for exact sums, in zmm with AVX-512), then the remaining
/// pixels in one pass of their own width (a 7-pixel row is one pass, not 4 + 1 + 1 + 1),
/// each weight load feeding all of them and the inputs read straight from memory as
/// multiply operands. Float layers round products and sums separately (no FMA), in the
/// reference's tap order, as the default build's Swift kernel does. Quantized layers sum exact
/// integers as floats (`DepthwiseConv2DOptimized`), where a fused multiply-add gives the same
/// sums with half the arithmetic: their form (`exactSums`) uses `vfmadd231ps`. The contract is
/// `DepthwiseInteriorKernel.tile`'s. The 16-channel forms that do not requantize run `blocks`
/// consecutive blocks per call, the same pixels in each (a row's run of pixels is one call, not
/// one per block). The AVX-512 forms read and write only the channels selected
/// by `laneMask` (opmask k1; masked-off lanes are never loaded, so a last block of fewer than 16
/// channels runs in place); the AVX forms ignore `laneMask` and always do their block's 16 channels (or 8, the
/// `channels: 8` form for a remainder).
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedDepthwiseArguments`.
/// The window may be a clipped part of the filter (a border pixel's taps inside the input):
/// after each of its `kh` rows of `kw` taps the weight pointer also skips `filterRowSkipBytes`
/// (the clipped taps of that filter row), so `filter` points at the first kept tap.
///
/// Preconditions: `pixels ≥ 0`, `kh ≥ 1`, `kw ≥ 1`; every window read lies inside the input;
/// for `exactSums`, every partial sum is an integer of magnitude below 2^24.
enum DepthwiseConvTiles16AVX {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Void

    /// Emits the kernel on `width` registers: two ymm per pixel (AVX), or one zmm (AVX-512);
    /// with `exactSums`, products are accumulated by fused multiply-adds. With `finish`, each
    /// pixel's sums are finished as `DepthwiseFloatEpilogue` finishes them (`+ bias` when
    /// `bias` is not nil, then the clamp to `activationMin…activationMax`, the same instructions
    /// as `DepthwiseFloatFinish16AVX`) before they are stored: float rows need no second pass.
    ///
    /// With `requantize` (AVX-512, exact sums only), each pixel's exact integer sums are
    /// converted, the Int32 bias added and requantized (`Requantization16AVX512`, the
    /// `DepthwiseRequantize16AVX512` steps, tables in zmm16–29, the residual-offset flag on the
    /// stack) and stored as bytes, `outputPixelBytes` apart: 8-bit rows need no float sums row
    /// and no second pass.
    ///
    /// With `channels: 8` (ymm) or `channels: 4` (xmm), the block is that many channels, one
    /// register per pixel, and a pass takes up to 8 pixels for exact sums: the AVX forms'
    /// kernels for a remainder of 4 to 15 channels (a layer of 8, 12 or 24 channels), which
    /// would otherwise run in portable Swift.
    static func emit(width: VectorRegister.Width = .ymm, channels: Int = 16, exactSums: Bool = false, finish: Bool = false,
                     requantize: Bool = false, into a: inout Assembler) {
        precondition(!requantize || (width == .zmm && exactSums && !finish), "requantizing tiles are zmm exact-sum tiles")
        precondition([16: [VectorRegister.Width.ymm, .zmm], 8: [.ymm], 4: [.xmm]][channels]?.contains(width) == true,
                     "16-channel blocks in ymm or zmm, 8-channel ones in ymm, 4-channel ones in xmm")
        let halves = channels / (width.rawValue / 32)
        /// Vector register `n` of the kernel's width.
        func v(_ n: Int) -> VectorRegister { VectorRegister(n, width) }
        typealias Field = GeneratedDepthwiseArguments.Field
        let args = GeneralRegister.rdi
        let input = GeneralRegister.rsi, filter = GeneralRegister.rdx, sums = GeneralRegister.rcx
        let pixels = GeneralRegister.r8
        let rowStride = GeneralRegister.r11, tapStep = GeneralRegister.r12, pixelStep = GeneralRegister.r13
        let channelBytes = GeneralRegister.r14
        let row = GeneralRegister.rax, weights = GeneralRegister.rbx, rowsLeft = GeneralRegister.r15
        let tapPointer = GeneralRegister.rbp, columnsLeft = GeneralRegister.rdi
        // Pixel bases: pixel p of a pass is at bases[p / 2] + (p odd ? step : 0).
        let far2 = GeneralRegister.rdx, far4 = GeneralRegister.r9, far6 = GeneralRegister.r10
        let saved: [GeneralRegister] = [.rbx, .rbp, .r12, .r13, .r14, .r15]
        let masked = width == .zmm
        let laneMask: OpmaskRegister? = masked ? k(1) : nil
        let widest = halves == 1 && exactSums ? 8 : 4
        // The 16-channel sums and finishing forms run `blocks` blocks per call (the loop at the end).
        let loopsBlocks = channels == 16 && !requantize
        a.function(saving: saved) { a, _ in
            let blockStart = a.newLabel()
            if loopsBlocks {
                a.push(args)                                  // the block, whose fields step per block
                a.bind(blockStart)
            }
            a.mov(input, .mem(args, disp: Field.input))
            a.mov(sums, .mem(args, disp: Field.sums))
            a.mov(pixels, .mem(args, disp: Field.pixels))
            a.mov(rowStride, .mem(args, disp: Field.rowStrideBytes))
            a.mov(tapStep, .mem(args, disp: Field.tapStepBytes))
            a.mov(pixelStep, .mem(args, disp: Field.pixelStepBytes))
            a.mov(channelBytes, .mem(args, disp: Field.channelBytes))
            if masked {
                a.mov(row, .mem(args, disp: Field.laneMask))
                a.kmovw(k(1), row)
            }
            if finish {
                a.vbroadcastss(v(14), .mem(args, disp: Field.activationMin))
                a.vbroadcastss(v(15), .mem(args, disp: Field.activationMax))
            }
            if requantize {
                Requantization16AVX512.loadConstants(GeneratedDepthwiseArguments.requantizationFields, &a)
                Requantization16AVX512.loadTables(GeneratedDepthwiseArguments.requantizationFields, channelBytes: nil,
                                                  block: 0, mask: k(1), flag: row, &a)
                a.push(row)                                   // the residual-offset flag, at [rsp + 48]
            }
            // The filter row skip, the output pixel step, the bias, kh, kw and the filter pointer
            // live on the stack ([rsp + 40], [rsp + 32], [rsp + 24], [rsp + 16], [rsp + 8], [rsp]),
            // so their registers serve as pixel bases.
            for field in [Field.filterRowSkipBytes, Field.outputPixelBytes, Field.bias, Field.kh, Field.kw, Field.filter] {
                a.mov(row, .mem(args, disp: field))
                a.push(row)
            }

            /// Loads `bases` for a pass of `count` pixels from `first`, `step` bytes apart.
            func setBases(_ count: Int, first: GeneralRegister, step: GeneralRegister) {
                if count > 2 { a.lea(far2, .mem(first, index: step, scale: 2)) }
                if count > 4 {
                    a.lea(far4, .mem(first, index: step, scale: 4))
                    a.lea(far6, .mem(far4, index: step, scale: 2))
                }
            }
            /// Pixel `p`'s half `h` (32 bytes each with ymm) from `first`, `step` bytes apart.
            func pixelOperand(_ p: Int, half h: Int, first: GeneralRegister, step: GeneralRegister) -> MemoryOperand {
                let base = [first, far2, far4, far6][p / 2]
                var operand: MemoryOperand = p % 2 == 0 ? .mem(base) : .mem(base, index: step, scale: 1)
                operand.displacement = Int32(32 * h)
                return operand
            }

            /// One pass over the window for `count` pixels starting at `input`.
            func windowPass(count: Int) {
                for n in 0..<(halves * count) { a.vxorps(v(n), v(n), v(n)) }
                a.mov(row, input)
                a.mov(weights, .mem(.rsp))
                a.mov(rowsLeft, .mem(.rsp, disp: 16))
                let fyLoop = a.newLabel(), fxLoop = a.newLabel()
                a.bind(fyLoop)
                a.mov(tapPointer, row)
                a.mov(columnsLeft, .mem(.rsp, disp: 8))
                a.bind(fxLoop)
                for h in 0..<halves { a.vmovups(v(8 + h), .mem(weights, disp: Int32(32 * h)), mask: laneMask, zeroing: masked) }
                setBases(count, first: tapPointer, step: pixelStep)
                for p in 0..<count {
                    for h in 0..<halves {
                        let x = Assembler.VectorSource.memory(pixelOperand(p, half: h, first: tapPointer, step: pixelStep))
                        let accumulator = v(halves * p + h)
                        if exactSums {
                            a.vfmadd231ps(accumulator, v(8 + h), x, mask: laneMask)
                        } else {
                            a.vmulps(v(10), v(8 + h), x, mask: laneMask, zeroing: masked)
                            a.vaddps(accumulator, accumulator, v(10))
                        }
                    }
                }
                a.add(tapPointer, tapStep)
                a.add(weights, channelBytes)
                a.dec(columnsLeft)
                a.j(.notEqual, fxLoop)
                a.add(weights, .mem(.rsp, disp: 40))
                a.add(row, rowStride)
                a.dec(rowsLeft)
                a.j(.notEqual, fyLoop)
                if finish {
                    let clamp = a.newLabel()
                    a.mov(row, .mem(.rsp, disp: 24))
                    a.test(row, row)
                    a.j(.equal, clamp)
                    for h in 0..<halves { a.vmovups(v(11 + h), .mem(row, disp: Int32(32 * h)), mask: laneMask, zeroing: masked) }
                    for n in 0..<(halves * count) { a.vaddps(v(n), v(n), v(11 + n % halves)) }
                    a.bind(clamp)
                    for n in 0..<(halves * count) {
                        a.vmaxps(v(n), v(14), v(n))               // x < min ? min : x
                        a.vminps(v(n), v(15), v(n))               // x > max ? max : x
                    }
                }
                if requantize {
                    typealias R = Requantization16AVX512
                    // Pixel p's bytes go to sums + p · outputPixelBytes.
                    a.mov(tapPointer, .mem(.rsp, disp: 32))
                    a.mov(row, .mem(.rsp, disp: 48))
                    setBases(count, first: sums, step: tapPointer)
                    for p in 0..<count {
                        a.vcvttps2dq(v(p), .register(v(p)))
                        a.vpaddd(v(p), v(p), .register(R.bias))
                        R.requantize(v(p), flag: row, &a)
                        R.store(v(p), to: pixelOperand(p, half: 0, first: sums, step: tapPointer), mask: k(1), flag: row, &a)
                    }
                    return
                }
                // Pixel p's sums go to sums + p · channelBytes.
                setBases(count, first: sums, step: channelBytes)
                for p in 0..<count {
                    for h in 0..<halves {
                        a.vmovups(pixelOperand(p, half: h, first: sums, step: channelBytes), v(halves * p + h), mask: laneMask)
                    }
                }
            }

            // Full passes while `widest` pixels remain, then one pass of exactly the rest.
            let loop = a.newLabel(), rest = a.newLabel(), end = a.newLabel()
            a.bind(loop)
            a.cmp(pixels, Int32(widest))
            a.j(.less, rest)
            windowPass(count: widest)
            for _ in 0..<widest {
                a.add(input, pixelStep)
                if requantize { a.add(sums, .mem(.rsp, disp: 32)) } else { a.add(sums, channelBytes) }
            }
            a.sub(pixels, Int32(widest))
            a.jmp(loop)
            a.bind(rest)
            for count in stride(from: widest - 1, through: 1, by: -1) {
                let next = a.newLabel()
                a.cmp(pixels, Int32(count))
                a.j(.notEqual, next)
                windowPass(count: count)
                a.jmp(end)
                a.bind(next)
            }
            a.bind(end)
            for register in [filter, far6, far4, row, row, row] { a.pop(register) }
            if requantize { a.pop(row) }
            guard loopsBlocks else { return }
            // The next block: count down, then step the input, filter, sums and bias (when
            // there is one) 16 channels on in the argument block, which the body reads afresh.
            let finished = a.newLabel()
            a.mov(args, .mem(.rsp))
            a.mov(row, .mem(args, disp: Field.blocks))
            a.dec(row)
            a.j(.equal, finished)
            a.mov(.mem(args, disp: Field.blocks), row)
            for field in [Field.input, Field.filter, Field.sums, Field.bias] {
                let absent = a.newLabel()
                a.mov(row, .mem(args, disp: field))
                if field == Field.bias {
                    a.test(row, row)
                    a.j(.equal, absent)
                }
                a.add(row, Int32(GeneratedDepthwiseArguments.blockBytes))
                a.mov(.mem(args, disp: field), row)
                a.bind(absent)
            }
            a.jmp(blockStart)
            a.bind(finished)
            a.pop(args)
        }
    }
}

/// The AVX depthwise tiles of a remainder of 4 to 15 channels (`DepthwiseConvTiles16AVX` with
/// `channels: 8` in ymm and `channels: 4` in xmm), in one form (separate roundings or exact sums,
/// finishing rows or not).
struct DepthwiseRemainderTiles {
    let eight: DepthwiseConvTiles16AVX.Function
    let four: DepthwiseConvTiles16AVX.Function
}

/// The argument block of `DepthwiseConvTiles16AVX`, laid out as the generated code reads it.
/// Strides are in bytes; `input` is the first pixel's window origin at the block's first channel.
struct GeneratedDepthwiseArguments {
    var input: UnsafeRawPointer
    var filter: UnsafeRawPointer
    var sums: UnsafeMutableRawPointer
    var pixels: Int
    var kh: Int
    var kw: Int
    var rowStrideBytes: Int
    var tapStepBytes: Int
    var pixelStepBytes: Int
    var channelBytes: Int
    /// The channels of the block to compute (bit i: channel i), read by the AVX-512 form only.
    var laneMask: Int = 0xFFFF
    /// The finishing forms' bias at the block's first channel (nil: none) and clamp bounds; the
    /// requantizing form's Int32 bias (required) at the block's first channel.
    var bias: UnsafeRawPointer? = nil
    var activationMin: Float = -.infinity
    var activationMax: Float = .infinity
    /// The requantizing form: output bytes between pixels, the requantizer's tables at the
    /// block's first channel, its scalars (output offset, clamp bounds).
    var outputPixelBytes: Int = 0
    var multipliers: UnsafeRawPointer? = nil
    var outputMin: Int32 = 0
    var outputMax: Int32 = 0
    /// Bytes of filter taps skipped after each window row: `(filter width − kw) · channelBytes`
    /// for a clipped window, 0 for a whole one.
    var filterRowSkipBytes: Int = 0
    /// The requantizing form: `ConvRequantizer.roundingTerms(atChannel:)` of the block.
    var roundingTerms: UnsafeRawPointer? = nil
    /// 16-channel blocks this call computes, one after the other (the 16-channel sums and
    /// finishing forms; the others read 1): after each, the kernel steps `input`, `filter`,
    /// `sums` and a non-nil `bias` by `blockBytes` and counts this field down to 1, so the block
    /// is spent when the call returns.
    var blocks = 1

    /// Bytes of 16 float channels: a block's step in the input, filter, sums and bias.
    static let blockBytes = 64

    /// Where the requantizing form finds its tables and scalars.
    static let requantizationFields = RequantizationFields(
        bias: Field.bias, multipliers: Field.multipliers, roundingTerms: Field.roundingTerms,
        activationMin: Field.outputMin, activationMax: Field.outputMax)

    /// Byte offsets of the fields (checked against `MemoryLayout` by the kernel tests).
    enum Field {
        static let input: Int32 = 0, filter: Int32 = 8, sums: Int32 = 16, pixels: Int32 = 24, kh: Int32 = 32
        static let kw: Int32 = 40, rowStrideBytes: Int32 = 48, tapStepBytes: Int32 = 56, pixelStepBytes: Int32 = 64
        static let channelBytes: Int32 = 72, laneMask: Int32 = 80, bias: Int32 = 88, activationMin: Int32 = 96
        static let activationMax: Int32 = 100, outputPixelBytes: Int32 = 104, multipliers: Int32 = 112
        static let outputMin: Int32 = 120, outputMax: Int32 = 124, filterRowSkipBytes: Int32 = 128
        static let roundingTerms: Int32 = 136, blocks: Int32 = 144
    }
}

extension GeneratedDepthwiseArguments {
    /// The contract of `DepthwiseConvTiles16AVX` for one call, as far as the block shows it:
    /// - `pixels ≥ 0`; `kh ≥ 1`, `kw ≥ 1` (the window loops run their body before testing
    ///   their counters, so 0 would not end them);
    /// - `channelBytes` a positive multiple of 4; the strides (`rowStrideBytes`, `tapStepBytes`,
    ///   `pixelStepBytes`) and `filterRowSkipBytes` non-negative multiples of 4;
    /// - `laneMask` a non-empty 16-bit mask, and all 16 lanes (`0xFFFF`) for the forms that do
    ///   not mask channels (`masksChannels` false: the AVX forms always do all of their block's
    ///   16 or 8 channels);
    /// - `activationMin ≤ activationMax`;
    /// - requantizing form (`requantizing`): the bias and the requantizer's tables set,
    ///   `outputPixelBytes ≥ 1`, `outputMin ≤ outputMax`;
    /// - `blocks ≥ 1`, and several only of whole 16-channel blocks (`laneMask` 0xFFFF) without
    ///   requantizing.
    ///
    /// The kernels rely on no alignment (unaligned and masked loads and stores). What the block
    /// cannot show — every window read inside the input, the block's filter taps, 16 (8, or the
    /// masked) writable channels per pixel, exact sums below 2^24 for the exact-sum forms — is
    /// the caller's (`DepthwiseGeneratedRow.row` clips the windows).
    /// - Returns: nil when the contract holds, else what is broken.
    func violation(masksChannels: Bool, requantizing: Bool) -> String? {
        if pixels < 0 { return "generated depthwise tiles: pixels \(pixels) < 0" }
        if kh < 1 || kw < 1 { return "generated depthwise tiles: window \(kh)×\(kw) is empty" }
        if channelBytes < 4 || channelBytes % 4 != 0 {
            return "generated depthwise tiles: channel bytes \(channelBytes) is not a positive multiple of 4"
        }
        let steps = (rowStrideBytes, tapStepBytes, pixelStepBytes, filterRowSkipBytes)
        let badStep = { (bytes: Int) in bytes < 0 || bytes % 4 != 0 }
        if badStep(steps.0) || badStep(steps.1) || badStep(steps.2) || badStep(steps.3) {
            return "generated depthwise tiles: row stride, tap step, pixel step, filter row skip \(steps) bytes: "
                + "each must be a non-negative multiple of 4"
        }
        if laneMask < 1 || laneMask > 0xFFFF || (!masksChannels && laneMask != 0xFFFF) {
            return "generated depthwise tiles: lane mask \(laneMask) for a form that \(masksChannels ? "masks" : "does not mask") channels"
        }
        if activationMin > activationMax {
            return "generated depthwise tiles: activation range \(activationMin)...\(activationMax) is empty"
        }
        if blocks < 1 || (blocks > 1 && (requantizing || laneMask != 0xFFFF)) {
            return "generated depthwise tiles: \(blocks) blocks (several need whole 16-channel blocks, not requantized)"
        }
        if requantizing {
            if bias == nil || multipliers == nil || roundingTerms == nil {
                return "generated depthwise tiles: the requantizing form needs the bias and every requantizer table"
            }
            if outputPixelBytes < 1 { return "generated depthwise tiles: output pixel bytes \(outputPixelBytes) < 1" }
            if outputMin > outputMax { return "generated depthwise tiles: output range \(outputMin)...\(outputMax) is empty" }
        }
        return nil
    }
}
