import MachineCode

/// The generated AVX depthwise microkernel: the sums of a run of interior output pixels (whole
/// window inside the input) for one 16-channel block, 4 pixels at a time in 8 ymm accumulators
/// (AVX; 4 zmm with AVX-512) (then one at a time), each weight load feeding all of them and the inputs read straight from
/// memory as multiply operands. Products and sums are rounded separately (no FMA), in the
/// reference's tap order, as the default build's Swift kernel does. It serves float and quantized layers alike (the quantized ones sum
/// exact integers as floats, `DepthwiseConv2DOptimized`), with the same contract as
/// `DepthwiseInteriorKernel.tile`. The AVX-512 form reads and writes only the channels selected
/// by `laneMask` (opmask k1; masked-off lanes are never loaded, so a last block of fewer than 16
/// channels runs in place); the AVX form ignores `laneMask` and always does 16 channels.
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedDepthwiseArguments`.
/// Preconditions: `pixels ≥ 0`, `kh ≥ 1`, `kw ≥ 1`; every window read lies inside the input.
enum DepthwiseConvTiles16AVX {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Void

    /// Emits the kernel on `width` registers: two ymm per pixel (AVX), or one zmm (AVX-512).
    static func emit(width: VectorRegister.Width = .ymm, into a: inout Assembler) {
        precondition(width != .xmm, "ymm or zmm")
        let halves = width == .zmm ? 1 : 2
        /// Vector register `n` of the kernel's width.
        func v(_ n: Int) -> VectorRegister { VectorRegister(n, width) }
        typealias Field = GeneratedDepthwiseArguments.Field
        let args = GeneralRegister.rdi
        let input = GeneralRegister.rsi, filter = GeneralRegister.rdx, sums = GeneralRegister.rcx
        let pixels = GeneralRegister.r8, kh = GeneralRegister.r9, kw = GeneralRegister.r10
        let rowStride = GeneralRegister.r11, tapStep = GeneralRegister.r12, pixelStep = GeneralRegister.r13
        let channelBytes = GeneralRegister.r14
        let row = GeneralRegister.rax, weights = GeneralRegister.rbx, rowsLeft = GeneralRegister.r15
        let tapPointer = GeneralRegister.rbp, columnsLeft = GeneralRegister.rdi, far = GeneralRegister.rdx
        let saved: [GeneralRegister] = [.rbx, .rbp, .r12, .r13, .r14, .r15]
        a.function(saving: saved) { a, _ in
            a.mov(input, .mem(args, disp: Field.input))
            a.mov(sums, .mem(args, disp: Field.sums))
            a.mov(pixels, .mem(args, disp: Field.pixels))
            a.mov(kh, .mem(args, disp: Field.kh))
            a.mov(kw, .mem(args, disp: Field.kw))
            a.mov(rowStride, .mem(args, disp: Field.rowStrideBytes))
            a.mov(tapStep, .mem(args, disp: Field.tapStepBytes))
            a.mov(pixelStep, .mem(args, disp: Field.pixelStepBytes))
            a.mov(channelBytes, .mem(args, disp: Field.channelBytes))
            a.mov(filter, .mem(args, disp: Field.filter))
            let masked = width == .zmm
            if masked {
                a.mov(row, .mem(args, disp: Field.laneMask))
                a.kmovw(k(1), row)
            }
            let laneMask: OpmaskRegister? = masked ? k(1) : nil
            // The filter pointer lives on the stack: rdx doubles as the far-pixel pointer.
            a.push(filter)

            /// One pass over the window for `count` pixels (4 or 1) starting at `input`.
            func windowPass(count: Int) {
                for n in 0..<(halves * count) { a.vxorps(v(n), v(n), v(n)) }
                a.mov(row, input)
                a.mov(weights, .mem(.rsp))
                a.mov(rowsLeft, kh)
                let fyLoop = a.newLabel(), fxLoop = a.newLabel()
                a.bind(fyLoop)
                a.mov(tapPointer, row)
                a.mov(columnsLeft, kw)
                a.bind(fxLoop)
                for h in 0..<halves { a.vmovups(v(8 + h), .mem(weights, disp: Int32(32 * h)), mask: laneMask, zeroing: masked) }
                if count == 4 { a.lea(far, .mem(tapPointer, index: pixelStep, scale: 2)) }
                for p in 0..<count {
                    let halfOperands = pixelOperands(p, first: tapPointer, step: pixelStep, third: far)
                    for h in 0..<halves {
                        a.vmulps(v(10), v(8 + h), .memory(h == 0 ? halfOperands.0 : halfOperands.1),
                                 mask: laneMask, zeroing: masked)
                        a.vaddps(v(halves * p + h), v(halves * p + h), v(10))
                    }
                }
                a.add(tapPointer, tapStep)
                a.add(weights, channelBytes)
                a.dec(columnsLeft)
                a.j(.notEqual, fxLoop)
                a.add(row, rowStride)
                a.dec(rowsLeft)
                a.j(.notEqual, fyLoop)
                // Pixel p's sums go to sums + p · channelBytes.
                if count == 4 { a.lea(far, .mem(sums, index: channelBytes, scale: 2)) }
                for p in 0..<count {
                    let halfOperands = pixelOperands(p, first: sums, step: channelBytes, third: far)
                    for h in 0..<halves { a.vmovups(h == 0 ? halfOperands.0 : halfOperands.1, v(halves * p + h), mask: laneMask) }
                }
            }

            let quadLoop = a.newLabel(), singles = a.newLabel(), singleLoop = a.newLabel(), done = a.newLabel()
            a.bind(quadLoop)
            a.cmp(pixels, 4)
            a.j(.less, singles)
            windowPass(count: 4)
            for _ in 0..<4 {
                a.add(input, pixelStep)
                a.add(sums, channelBytes)
            }
            a.sub(pixels, 4)
            a.jmp(quadLoop)
            a.bind(singles)
            a.bind(singleLoop)
            a.test(pixels, pixels)
            a.j(.equal, done)
            windowPass(count: 1)
            a.add(input, pixelStep)
            a.add(sums, channelBytes)
            a.dec(pixels)
            a.jmp(singleLoop)
            a.bind(done)
            a.pop(filter)
        }
    }
}

extension DepthwiseConvTiles16AVX {
    /// The two 32-byte halves of pixel `p`'s 16 floats at `first + p · step`, where `third` holds
    /// `first + 2 · step` (x86 addressing scales an index by 1, 2, 4 or 8 only).
    static func pixelOperands(_ p: Int, first: GeneralRegister, step: GeneralRegister,
                              third: GeneralRegister) -> (MemoryOperand, MemoryOperand) {
        let low: MemoryOperand
        switch p {
        case 0: low = .mem(first)
        case 1: low = .mem(first, index: step, scale: 1)
        case 2: low = .mem(third)
        default: low = .mem(third, index: step, scale: 1)
        }
        var high = low
        high.displacement = 32
        return (low, high)
    }
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

    /// Byte offsets of the fields (checked against `MemoryLayout` by the kernel tests).
    enum Field {
        static let input: Int32 = 0, filter: Int32 = 8, sums: Int32 = 16, pixels: Int32 = 24, kh: Int32 = 32
        static let kw: Int32 = 40, rowStrideBytes: Int32 = 48, tapStepBytes: Int32 = 56, pixelStepBytes: Int32 = 64
        static let channelBytes: Int32 = 72, laneMask: Int32 = 80
    }
}
