import MachineCode

/// The generated AVX512-VNNI depthwise microkernel of 8-bit rows in tap quads
/// (`DepthwiseConv2DOptimized.tapQuads`): one output row, every channel, requantized to bytes.
/// The window rows hold tap quads (four horizontal taps' unsigned bytes per 32-bit lane) and
/// the filter their four signed weights, so each quad is one `vpdpbusd` per pixel and 16
/// channels, into Int32 sums that start from the bias plus the bias correction (the input
/// offset's share, `DepthwiseQuadFilter`): no float conversion, a quarter of the multiply-adds
/// of a 3×3 or 5×5 row of taps. With `weightParts: 2` each quad has two sets of weights
/// (`channelBytes` apart), both multiplied by the same input lane into the same sums: weights
/// in −255…254 as two signed bytes.
///
/// Blocks of 16 channels go outer (each block's requantization tables loaded once per row; the
/// last block masked by `lastLaneMask`), pixels inner, 8 per pass (8 zmm sums; the weights
/// loaded once per quad and pass), then one pass of the rest; the sums are requantized as
/// `Requantization16AVX512` requantizes (tables in zmm16–29) and stored as bytes. The window's
/// rows need not be evenly spaced: filter row `ky` reads from `rowTable[ky]` (so a thread's
/// rows can live in a ring, `DepthwiseConv2DOptimized.tapQuads`).
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedQuadTileArguments`.
/// Preconditions (`GeneratedQuadTileArguments.violation` checks what the block shows): every
/// quad read lies inside its row; the requantizer has no left shift.
enum DepthwiseQuadTiles16AVX512VNNI {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Void

    /// Pixels per full pass.
    static let widest = 8

    static func emit(weightParts: Int, into a: inout Assembler) {
        precondition(weightParts == 1 || weightParts == 2, "one or two weight parts")
        typealias Field = GeneratedQuadTileArguments.Field
        typealias R = Requantization16AVX512
        let fields = GeneratedQuadTileArguments.requantizationFields
        let args = GeneralRegister.rdi
        let channelOffset = GeneralRegister.r8, pixelsLeft = GeneralRegister.rdx
        let pixelOffset = GeneralRegister.rsi, output = GeneralRegister.rcx
        let pixelStep = GeneralRegister.r12, quadStep = GeneralRegister.r13
        let rows = GeneralRegister.rax, weights = GeneralRegister.rbx, rowsLeft = GeneralRegister.r15
        let quadsLeft = GeneralRegister.r14, tapPointer = GeneralRegister.rbp
        let far2 = GeneralRegister.r9, far4 = GeneralRegister.r10, far6 = GeneralRegister.r11
        let flag = GeneralRegister.rax, outputStep = GeneralRegister.r14
        let firstWeights = zmm(8), secondWeights = zmm(11)
        a.function(saving: [.rbx, .rbp, .r12, .r13, .r14, .r15]) { a, _ in
            a.push(.rax)                                         // the block's requantization flag, at [rsp]
            R.loadConstants(fields, &a)
            a.mov(pixelStep, .mem(args, disp: Field.pixelStepBytes))
            a.mov(quadStep, .mem(args, disp: Field.quadStepBytes))
            a.xor(channelOffset, channelOffset, width: .dword)

            /// Loads the bases of a pass of `count` pixels from `first`, `step` bytes apart.
            func setBases(_ count: Int, first: GeneralRegister, step: GeneralRegister) {
                if count > 2 { a.lea(far2, .mem(first, index: step, scale: 2)) }
                if count > 4 {
                    a.lea(far4, .mem(first, index: step, scale: 4))
                    a.lea(far6, .mem(far4, index: step, scale: 2))
                }
            }
            /// Pixel `p` of a pass from `first`, `step` bytes apart (`setBases` loaded).
            func pixel(_ p: Int, first: GeneralRegister, step: GeneralRegister) -> MemoryOperand {
                let base = [first, far2, far4, far6][p / 2]
                return p % 2 == 0 ? .mem(base) : .mem(base, index: step, scale: 1)
            }

            /// One pass of `count` pixels from `pixelOffset` (in the rows) and `output`.
            func pass(count: Int) {
                for p in 0..<count { a.vmovaps(zmm(p), R.bias) }
                a.mov(rows, .mem(args, disp: Field.rowTable))
                a.mov(weights, .mem(args, disp: Field.filter))
                a.add(weights, channelOffset)
                a.mov(rowsLeft, .mem(args, disp: Field.kh))
                let rowLoop = a.newLabel(), quadLoop = a.newLabel()
                a.bind(rowLoop)
                a.mov(tapPointer, .mem(rows))
                a.add(tapPointer, pixelOffset)
                a.add(rows, 8)
                a.mov(quadsLeft, .mem(args, disp: Field.quads))
                a.bind(quadLoop)
                a.vmovups(firstWeights, .mem(weights), mask: k(1), zeroing: true)
                if weightParts == 2 {
                    a.vmovups(secondWeights, .mem(weights, index: pixelStep, scale: 1), mask: k(1), zeroing: true)
                }
                setBases(count, first: tapPointer, step: pixelStep)
                for p in 0..<count {
                    let taps = zmm(9 + p % 2)
                    a.vmovups(taps, pixel(p, first: tapPointer, step: pixelStep), mask: k(1), zeroing: true)
                    a.vpdpbusd(zmm(p), taps, .register(firstWeights))
                    if weightParts == 2 { a.vpdpbusd(zmm(p), taps, .register(secondWeights)) }
                }
                a.add(tapPointer, quadStep)
                for _ in 0..<weightParts { a.add(weights, pixelStep) }   // a quad's words: one channel row per part
                a.dec(quadsLeft)
                a.j(.notEqual, quadLoop)
                a.dec(rowsLeft)
                a.j(.notEqual, rowLoop)
                a.mov(flag, .mem(.rsp))
                a.mov(outputStep, .mem(args, disp: Field.outputPixelBytes))
                setBases(count, first: output, step: outputStep)
                for p in 0..<count {
                    R.requantize(zmm(p), flag: flag, &a)
                    R.store(zmm(p), to: pixel(p, first: output, step: outputStep), mask: k(1), flag: flag, &a)
                }
            }

            let block = a.newLabel(), full = a.newLabel(), tables = a.newLabel()
            a.bind(block)
            // k1: all 16 lanes, or the last block's.
            a.lea(.rax, .mem(channelOffset, disp: 64))
            a.mov(pixelsLeft, .mem(args, disp: Field.blockBytes))
            a.cmp(.rax, pixelsLeft)
            a.j(.less, full)
            a.mov(pixelsLeft, .mem(args, disp: Field.lastLaneMask), width: .dword)
            a.jmp(tables)
            a.bind(full)
            a.mov(pixelsLeft, 0xFFFF, width: .dword)
            a.bind(tables)
            a.kmovw(k(1), pixelsLeft)
            R.loadTables(fields, channelBytes: channelOffset, block: 0, mask: k(1), flag: .rax, &a)
            a.mov(.mem(.rsp), .rax)
            a.mov(.rax, .mem(args, disp: Field.biasCorrection))
            a.vmovups(R.t0, .mem(.rax, index: channelOffset, scale: 1), mask: k(1), zeroing: true)
            a.vpaddd(R.bias, R.bias, .register(R.t0))
            a.mov(pixelOffset, channelOffset)
            a.mov(output, channelOffset)
            a.shr(output, 2)                                     // the block's first output byte
            a.add(output, .mem(args, disp: Field.output))
            a.mov(pixelsLeft, .mem(args, disp: Field.pixels))

            // Full passes while `widest` pixels remain, then one pass of exactly the rest.
            let loop = a.newLabel(), rest = a.newLabel(), next = a.newLabel()
            a.bind(loop)
            a.cmp(pixelsLeft, Int32(widest))
            a.j(.less, rest)
            pass(count: widest)
            for _ in 0..<widest {
                a.add(pixelOffset, pixelStep)
                a.add(output, outputStep)
            }
            a.sub(pixelsLeft, Int32(widest))
            a.jmp(loop)
            a.bind(rest)
            for count in stride(from: widest - 1, through: 1, by: -1) {
                let other = a.newLabel()
                a.cmp(pixelsLeft, Int32(count))
                a.j(.notEqual, other)
                pass(count: count)
                a.jmp(next)
                a.bind(other)
            }
            a.bind(next)
            a.add(channelOffset, 64)
            a.mov(.rax, .mem(args, disp: Field.blockBytes))
            a.cmp(channelOffset, .rax)
            a.j(.less, block)
            a.pop(.rax)
        }
    }
}

/// The argument block of `DepthwiseQuadTiles16AVX512VNNI`, laid out as the generated code reads
/// it. Pointers are at channel 0; strides in bytes.
struct GeneratedQuadTileArguments {
    /// `kh` pointers: the first quad pixel of each filter row's window row.
    var rowTable: UnsafeRawPointer
    /// `DepthwiseQuadFilter.pack`'s words.
    var filter: UnsafeRawPointer
    /// The output row's first byte.
    var output: UnsafeMutableRawPointer
    var pixels: Int
    /// Filter rows.
    var kh: Int
    /// Quads per filter row.
    var quads: Int
    /// Bytes between a filter row's quads in a window row (`4 · dilation / stride` quad pixels).
    var quadStepBytes: Int
    /// Bytes between quad pixels, and between a quad's weight parts: `4 · channels`.
    var pixelStepBytes: Int
    /// Output bytes between pixels: `channels`.
    var outputPixelBytes: Int
    /// `64 · ⌈channels / 16⌉`.
    var blockBytes: Int
    /// The channels of the last block (bit i: channel i).
    var lastLaneMask: Int
    /// The Int32 bias, its correction, and the requantizer's tables, at channel 0.
    var bias: UnsafeRawPointer
    var biasCorrection: UnsafeRawPointer
    var multipliers: UnsafeRawPointer
    var roundingTerms: UnsafeRawPointer
    var outputMin: Int32
    var outputMax: Int32

    /// Where the kernel finds its requantizer's tables and scalars.
    static let requantizationFields = RequantizationFields(
        bias: Field.bias, multipliers: Field.multipliers, roundingTerms: Field.roundingTerms,
        activationMin: Field.outputMin, activationMax: Field.outputMax)

    /// Byte offsets of the fields (checked against `MemoryLayout` by the kernel tests).
    enum Field {
        static let rowTable: Int32 = 0, filter: Int32 = 8, output: Int32 = 16, pixels: Int32 = 24, kh: Int32 = 32
        static let quads: Int32 = 40, quadStepBytes: Int32 = 48, pixelStepBytes: Int32 = 56, outputPixelBytes: Int32 = 64
        static let blockBytes: Int32 = 72, lastLaneMask: Int32 = 80, bias: Int32 = 88, biasCorrection: Int32 = 96
        static let multipliers: Int32 = 104, roundingTerms: Int32 = 112, outputMin: Int32 = 120, outputMax: Int32 = 124
    }

    /// The contract the block shows: `pixels ≥ 1`, `kh ≥ 1`, `quads ≥ 1` (the loops run their
    /// body before testing their counters); `pixelStepBytes` a positive multiple of 4 of which
    /// `blockBytes` is the 16-channel blocks (`outputPixelBytes` its channels); the last block's
    /// lane mask those channels; `quadStepBytes` a non-negative multiple of `pixelStepBytes`;
    /// `outputMin ≤ outputMax`.
    /// - Returns: nil when the contract holds, else what is broken.
    func violation() -> String? {
        if pixels < 1 || kh < 1 || quads < 1 {
            return "generated quad tiles: \(pixels) pixels, \(kh) filter rows, \(quads) quads (each must be ≥ 1)"
        }
        let channels = outputPixelBytes
        if channels < 1 || pixelStepBytes != 4 * channels || blockBytes != 64 * ((channels + 15) / 16) {
            return "generated quad tiles: pixel step \(pixelStepBytes), block bytes \(blockBytes) for \(channels) channels"
        }
        if lastLaneMask != (1 << (channels - 16 * ((channels - 1) / 16))) - 1 {
            return "generated quad tiles: last lane mask \(lastLaneMask) for \(channels) channels"
        }
        if quadStepBytes < 0 || quadStepBytes % pixelStepBytes != 0 {
            return "generated quad tiles: quad step \(quadStepBytes) bytes is not whole pixels"
        }
        if outputMin > outputMax { return "generated quad tiles: output range \(outputMin)...\(outputMax) is empty" }
        return nil
    }
}
