import MachineCode

/// The generated output row of a float RESIZE_BILINEAR upscale (`ResizeOptimized.bilinearFloat`
/// where it weighs each input row first): for each output pixel `x`, every channel `c` is
/// `top[xl + c]·wx0 + bottom[xl + c]·wx0 + top[xu + c]·dx + bottom[xu + c]·dx`, added in that
/// order with separate roundings (`wx0 = 1 − dx`), exactly what the Swift row computes, a vector
/// of channels per step: 16 in zmm at AVX-512, the last partial step masked; 8 in ymm at AVX2,
/// a partial last step done as the pixel's last 8 channels again (the same values rewritten), so
/// the ymm form needs at least 8 channels.
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedResizeRowArguments`.
/// Preconditions: `GeneratedResizeRowArguments.violation(lanes:)`; every `xLower[x]` and
/// `xUpper[x]` (in floats) leaves the pixel's channels inside `top` and `bottom`.
enum ResizeBilinearRowAVX {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Void

    /// Channels per step at `width`.
    static func lanes(_ width: VectorRegister.Width) -> Int { width.bytes / 4 }

    static func emit(width: VectorRegister.Width, into a: inout Assembler) {
        precondition(width == .ymm || width == .zmm, "ymm (AVX2) or zmm (AVX-512) steps")
        typealias Field = GeneratedResizeRowArguments.Field
        let args = GeneralRegister.rdi
        let top = GeneralRegister.rsi, bottom = GeneralRegister.rdx, lower = GeneralRegister.r8, upper = GeneralRegister.r9
        let fractions = GeneralRegister.r10, pixelsLeft = GeneralRegister.r11, output = GeneralRegister.rcx
        let channel = GeneralRegister.r13, blocksLeft = GeneralRegister.r12
        // The pixel's four corner runs: top and bottom row at the lower column, then the upper.
        let corners: [GeneralRegister] = [.r14, .r15, .rbx, .rbp]
        let masked = width == .zmm
        let v = { (i: Int) in VectorRegister(i, width) }
        let (one, dx, wx0) = masked ? (v(31), v(30), v(29)) : (v(15), v(14), v(13))
        a.function(saving: [.rbx, .rbp, .r12, .r13, .r14, .r15]) { a, _ in
            a.mov(top, .mem(args, disp: Field.top))
            a.mov(bottom, .mem(args, disp: Field.bottom))
            a.mov(lower, .mem(args, disp: Field.xLower))
            a.mov(upper, .mem(args, disp: Field.xUpper))
            a.mov(fractions, .mem(args, disp: Field.xFraction))
            a.mov(pixelsLeft, .mem(args, disp: Field.width))
            a.mov(output, .mem(args, disp: Field.output))
            if masked {
                a.mov(.rax, 0xFFFF, width: .dword)
                a.kmovw(k(1), .rax)
                a.mov(.rax, .mem(args, disp: Field.tailMask), width: .dword)
                a.kmovw(k(2), .rax)
            }
            a.vbroadcastss(one, .mem(args, disp: Field.one))
            /// One step at byte `channel` of the pixel, lanes of `mask` (zmm).
            func step(_ mask: OpmaskRegister?) {
                let (sum, product) = (v(0), v(1))
                a.vmulps(sum, wx0, .memory(.mem(corners[0], index: channel, scale: 1)), mask: mask, zeroing: masked)
                a.vmulps(product, wx0, .memory(.mem(corners[1], index: channel, scale: 1)), mask: mask, zeroing: masked)
                a.vaddps(sum, sum, product)
                a.vmulps(product, dx, .memory(.mem(corners[2], index: channel, scale: 1)), mask: mask, zeroing: masked)
                a.vaddps(sum, sum, product)
                a.vmulps(product, dx, .memory(.mem(corners[3], index: channel, scale: 1)), mask: mask, zeroing: masked)
                a.vaddps(sum, sum, product)
                a.vmovups(.mem(output, index: channel, scale: 1), sum, mask: mask)
            }
            let pixel = a.newLabel(), block = a.newLabel(), tail = a.newLabel(), next = a.newLabel()
            a.bind(pixel)
            a.mov(.rax, .mem(lower))
            a.lea(corners[0], .mem(top, index: .rax, scale: 4))
            a.lea(corners[1], .mem(bottom, index: .rax, scale: 4))
            a.mov(.rax, .mem(upper))
            a.lea(corners[2], .mem(top, index: .rax, scale: 4))
            a.lea(corners[3], .mem(bottom, index: .rax, scale: 4))
            a.vbroadcastss(dx, .mem(fractions))
            a.vsubps(wx0, one, dx)
            a.xor(channel, channel, width: .dword)
            a.mov(blocksLeft, .mem(args, disp: Field.fullBlocks))
            a.test(blocksLeft, blocksLeft)
            a.j(.equal, tail)
            a.bind(block)
            step(masked ? k(1) : nil)
            a.add(channel, Int32(width.bytes))
            a.dec(blocksLeft)
            a.j(.notEqual, block)
            a.bind(tail)
            a.mov(.rax, .mem(args, disp: Field.tailMask), width: .dword)
            a.test(.rax, .rax, width: .dword)
            a.j(.equal, next)
            if !masked {
                // The pixel's last whole step of channels, ending at its last channel.
                a.mov(channel, .mem(args, disp: Field.pixelBytes))
                a.sub(channel, Int32(width.bytes))
            }
            step(masked ? k(2) : nil)
            a.bind(next)
            a.add(output, .mem(args, disp: Field.pixelBytes))
            a.add(lower, 8)
            a.add(upper, 8)
            a.add(fractions, 4)
            a.dec(pixelsLeft)
            a.j(.notEqual, pixel)
        }
    }
}

/// The argument block of `ResizeBilinearRowAVX`, laid out as the generated code reads it.
struct GeneratedResizeRowArguments {
    /// The input row below and above the output row, each already multiplied by its vertical weight.
    var top: UnsafeRawPointer
    var bottom: UnsafeRawPointer
    /// Per output pixel: the float offsets of the lower and upper input columns, and the fraction `dx`.
    var xLower: UnsafeRawPointer
    var xUpper: UnsafeRawPointer
    var xFraction: UnsafeRawPointer
    /// Output pixels.
    var width: Int
    /// Whole steps (of 16 or 8 channels) per pixel.
    var fullBlocks: Int
    var output: UnsafeMutableRawPointer
    /// Bytes from one output pixel to the next (the channels' floats).
    var pixelBytes: Int
    /// The lanes of the last, partial step (0: none; the ymm form only tests it for zero).
    var tailMask: UInt32
    /// 1.0, from which the kernel subtracts `dx`.
    var one: Float = 1

    /// The contract of `ResizeBilinearRowAVX` with steps of `lanes` channels (16 or 8), as far
    /// as the block shows it: `width ≥ 1` and at least one channel (`fullBlocks ≥ 1` or a
    /// nonzero `tailMask`: the loops run their body before testing their counters), and for 8
    /// lanes a whole step before any tail (it is redone as the pixel's last 8 channels);
    /// `tailMask` a mask of the low `0 ..< lanes` lanes; each output pixel's bytes hold its
    /// channels (`pixelBytes = 4 · channels`); `one` is 1.
    /// - Returns: nil when the contract holds, else what is broken.
    func violation(lanes: Int = 16) -> String? {
        if width < 1 || fullBlocks < 0 || (fullBlocks == 0 && tailMask == 0) {
            return "generated resize row: width \(width), \(fullBlocks) whole steps and tail mask \(tailMask): no pixel or no channel"
        }
        if tailMask & (tailMask &+ 1) != 0 || tailMask >= 1 << UInt32(lanes - 1) {
            return "generated resize row: tail mask \(tailMask) is not the low lanes of a partial step of \(lanes)"
        }
        if lanes == 8 && tailMask != 0 && fullBlocks == 0 {
            return "generated resize row: a partial step of 8 lanes needs a whole step before it"
        }
        if pixelBytes != 4 * (lanes * fullBlocks + tailMask.nonzeroBitCount) {
            return "generated resize row: \(pixelBytes) bytes per pixel for \(lanes * fullBlocks + tailMask.nonzeroBitCount) channels"
        }
        if one != 1 { return "generated resize row: one is \(one)" }
        return nil
    }

    /// Byte offsets of the fields (checked against `MemoryLayout` by the kernel tests).
    enum Field {
        static let top: Int32 = 0, bottom: Int32 = 8, xLower: Int32 = 16, xUpper: Int32 = 24, xFraction: Int32 = 32
        static let width: Int32 = 40, fullBlocks: Int32 = 48, output: Int32 = 56, pixelBytes: Int32 = 64
        static let tailMask: Int32 = 72, one: Int32 = 76
    }
}
