import MachineCode

/// The generated AVX2 end of a quantized depthwise row: the row's float sums (exact integers,
/// `DepthwiseConv2DOptimized`) converted to Int32, plus the bias, requantized
/// (`Requantization16AVX2`) and stored as bytes, 16 channels at a time — what
/// `DepthwiseRequantizeEpilogue.finish` does in Swift for the channels of whole 16-blocks.
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedDepthwiseRequantizeArguments`.
/// Preconditions: `pixels ≥ 1`, `blocks ≥ 1`; the requantizer has no left shift; every table
/// holds `16 · blocks` entries.
enum DepthwiseRequantize16AVX2 {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Void

    static func emit(signed: Bool, into a: inout Assembler) {
        typealias Field = GeneratedDepthwiseRequantizeArguments.Field
        let fields = GeneratedDepthwiseRequantizeArguments.requantizationFields
        let args = GeneralRegister.rdi
        let sums = GeneralRegister.rsi, output = GeneralRegister.rdx, pixels = GeneralRegister.rcx
        let channel = GeneralRegister.r11, byte = GeneralRegister.rbx, blocksLeft = GeneralRegister.r12
        let terms = GeneralRegister.r13, flag = GeneralRegister.r14, multipliers = GeneralRegister.r10, bias = GeneralRegister.r9
        a.function(saving: [.rbx, .r12, .r13, .r14]) { a, _ in
            a.mov(sums, .mem(args, disp: Field.sums))
            a.mov(output, .mem(args, disp: Field.output))
            a.mov(pixels, .mem(args, disp: Field.pixels))
            a.mov(multipliers, .mem(args, disp: fields.multipliers))
            a.mov(bias, .mem(args, disp: fields.bias))
            Requantization16AVX2.loadConstants(fields, &a)
            let pixel = a.newLabel(), block = a.newLabel()
            a.bind(pixel)
            a.xor(channel, channel, width: .dword)      // 4 · channel: float sums and Int32 tables alike
            a.xor(byte, byte, width: .dword)            // channel: the output bytes
            a.mov(terms, .mem(args, disp: Field.roundingTerms))
            a.mov(blocksLeft, .mem(args, disp: Field.blocks))
            a.bind(block)
            a.mov(flag, .mem(terms, disp: Int32(ConvRequantizer.residualFlagBytes)))
            for h in 0..<2 {
                let x = ymm(h)
                a.vcvttps2dq(x, .memory(.mem(sums, index: channel, scale: 1, disp: Int32(32 * h))))
                a.vpaddd(x, x, .memory(.mem(bias, index: channel, scale: 1, disp: Int32(32 * h))))
                Requantization16AVX2.requantize(x, half: h, multipliers: .mem(multipliers, index: channel, scale: 1, disp: Int32(32 * h)),
                                                terms: terms, flag: flag, &a)
            }
            Requantization16AVX2.store(ymm(0), ymm(1), signed: signed, to: .mem(output, index: byte, scale: 1), &a)
            a.add(channel, 64)
            a.add(byte, 16)
            a.add(terms, Int32(ConvRequantizer.roundingBlockBytes))
            a.dec(blocksLeft)
            a.j(.notEqual, block)
            a.add(sums, .mem(args, disp: Field.sumsPixelBytes))
            a.add(output, .mem(args, disp: Field.outputPixelBytes))
            a.dec(pixels)
            a.j(.notEqual, pixel)
        }
    }
}

/// The argument block of `DepthwiseRequantize16AVX2`, laid out as the generated code reads it.
/// The per-channel tables start at channel 0.
struct GeneratedDepthwiseRequantizeArguments {
    var sums: UnsafeRawPointer
    var output: UnsafeMutableRawPointer
    var pixels: Int
    var blocks: Int
    var sumsPixelBytes: Int
    var outputPixelBytes: Int
    var bias: UnsafeRawPointer
    var multipliers: UnsafeRawPointer
    var activationMin: Int32
    var activationMax: Int32
    /// The lanes of the last 16-channel block (`DepthwiseRequantize16AVX512` only).
    var lastLaneMask: UInt32 = 0xFFFF
    /// `ConvRequantizer.roundingTerms(atChannel: 0)` (in the form of the kernel that reads them).
    var roundingTerms: UnsafeRawPointer?

    /// Where the requantization steps find their tables and scalars in this block.
    static let requantizationFields = RequantizationFields(
        bias: Field.bias, multipliers: Field.multipliers, roundingTerms: Field.roundingTerms,
        activationMin: Field.activationMin, activationMax: Field.activationMax)

    /// Byte offsets of the fields (checked against `MemoryLayout` by the kernel tests).
    enum Field {
        static let sums: Int32 = 0, output: Int32 = 8, pixels: Int32 = 16, blocks: Int32 = 24, sumsPixelBytes: Int32 = 32
        static let outputPixelBytes: Int32 = 40, bias: Int32 = 48, multipliers: Int32 = 56, activationMin: Int32 = 64
        static let activationMax: Int32 = 68, lastLaneMask: Int32 = 72, roundingTerms: Int32 = 80
    }
}

extension GeneratedDepthwiseRequantizeArguments {
    /// The contract of `DepthwiseRequantize16AVX2` (`masksLastBlock` false: whole 16-channel
    /// blocks only) and `DepthwiseRequantize16AVX512` (`masksLastBlock` true: the last block
    /// masked by `lastLaneMask`), as far as the block shows it:
    /// - `pixels ≥ 1`, `blocks ≥ 1` (the loops run their body before testing their counters);
    /// - each pixel's sums (`sumsPixelBytes`) and output bytes (`outputPixelBytes`) hold the
    ///   blocks' channels: `16 · blocks` of them, or more than `16 · (blocks − 1)` when the last
    ///   block is masked, with `lastLaneMask` a non-empty 16-bit mask;
    /// - `activationMin ≤ activationMax`.
    ///
    /// The kernels rely on no alignment. That the requantizer has no left shift, and that
    /// `pixels` rows of sums, output bytes and every table's entries are there, is the caller's.
    /// - Returns: nil when the contract holds, else what is broken.
    func violation(masksLastBlock: Bool) -> String? {
        if pixels < 1 || blocks < 1 { return "generated depthwise requantize: pixels \(pixels), blocks \(blocks): both must be ≥ 1" }
        let leastChannels = masksLastBlock ? 16 * (blocks - 1) + 1 : 16 * blocks
        if sumsPixelBytes < 4 * leastChannels || outputPixelBytes < leastChannels {
            return "generated depthwise requantize: pixel bytes \(sumsPixelBytes) (sums), \(outputPixelBytes) (output) for \(blocks) blocks"
        }
        if roundingTerms == nil {
            return "generated depthwise requantize: the kernels need the requantizer's rounding terms"
        }
        if masksLastBlock && (lastLaneMask < 1 || lastLaneMask > 0xFFFF) {
            return "generated depthwise requantize: last lane mask \(lastLaneMask) is not a non-empty 16-bit mask"
        }
        if activationMin > activationMax {
            return "generated depthwise requantize: activation range \(activationMin)...\(activationMax) is empty"
        }
        return nil
    }
}
