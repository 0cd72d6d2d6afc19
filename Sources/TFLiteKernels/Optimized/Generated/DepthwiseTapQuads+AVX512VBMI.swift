import MachineCode

/// The generated row builder of the 8-bit depthwise tap quads (`DepthwiseConv2DOptimized.tapQuads`):
/// for each quad pixel `i` and channel `c`, the four bytes `row[i · stride + j · dilation][c]`,
/// j = 0…3, side by side in one 32-bit lane, so one `vpdpbusd` multiplies four horizontal taps of
/// 16 channels by their four weights. Per 16-channel block: one 16-byte load and three
/// `vinserti32x4` put the four taps' bytes in the four 128-bit lanes of a zmm, one `vpermb`
/// interleaves them (byte `4c + j` ← byte `16j + c`), and, in the flipping form, `vpxord` turns
/// int8 into the unsigned bytes `x + 128` the dot products take.
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedTapQuadArguments`.
/// Preconditions: `pixels ≥ 1`, `blocks ≥ 1`; every block reads 16 bytes at each of its four
/// taps and writes 64 bytes, so a last block of fewer than 16 channels reads up to 15 bytes
/// past the pixel's channels and writes past its quads (the caller's buffers hold that much
/// more, and later pixels overwrite what spills into them).
enum DepthwiseTapQuadsAVX512VBMI {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Void

    /// `vpermb`'s indices: byte `4c + j` of the quads is byte `16j + c` of the four rows.
    static let interleave: SIMD64<UInt8> = {
        var indices = SIMD64<UInt8>()
        for i in 0..<64 { indices[i] = UInt8(16 * (i % 4) + i / 4) }
        return indices
    }()

    /// Emits the builder; `flipsSignBits`: the int8 form (each byte `^ 0x80`).
    static func emit(flipsSignBits: Bool, into a: inout Assembler) {
        typealias Field = GeneratedTapQuadArguments.Field
        let args = GeneralRegister.rdi
        let source = GeneralRegister.rsi, destination = GeneralRegister.rdx, pixelsLeft = GeneralRegister.rcx
        let blocks = GeneralRegister.r8, sourceStep = GeneralRegister.r9, tap = GeneralRegister.r10
        let destinationStep = GeneralRegister.r11
        let block = GeneralRegister.rax, quads = GeneralRegister.r12, blocksLeft = GeneralRegister.r13
        let fourth = GeneralRegister.r14
        let indices = zmm(31), signs = zmm(30), x = zmm(0)
        a.function(saving: [.r12, .r13, .r14]) { a, _ in
            a.mov(source, .mem(args, disp: Field.source))
            a.mov(destination, .mem(args, disp: Field.destination))
            a.mov(pixelsLeft, .mem(args, disp: Field.pixels))
            a.mov(blocks, .mem(args, disp: Field.blocks))
            a.mov(sourceStep, .mem(args, disp: Field.sourcePixelBytes))
            a.mov(tap, .mem(args, disp: Field.tapStepBytes))
            a.mov(destinationStep, .mem(args, disp: Field.destinationPixelBytes))
            a.mov(block, .mem(args, disp: Field.indices))
            a.vmovups(indices, .mem(block))
            if flipsSignBits {
                a.mov(block, Int32(bitPattern: 0x8080_8080), width: .dword)
                a.vmovd(xmm(1), block)
                a.vpbroadcastd(signs, xmm(1))
            }
            let pixel = a.newLabel(), step = a.newLabel()
            a.bind(pixel)
            a.mov(block, source)
            a.mov(quads, destination)
            a.mov(blocksLeft, blocks)
            a.bind(step)
            a.vmovups(xmm(0), .mem(block))
            a.vinserti32x4(x, x, .memory(.mem(block, index: tap, scale: 1)), 1)
            a.vinserti32x4(x, x, .memory(.mem(block, index: tap, scale: 2)), 2)
            a.lea(fourth, .mem(block, index: tap, scale: 2))
            a.vinserti32x4(x, x, .memory(.mem(fourth, index: tap, scale: 1)), 3)
            a.vpermb(x, indices, .register(x))
            if flipsSignBits { a.vpxor(x, x, .register(signs)) }
            a.vmovups(.mem(quads), x)
            a.add(block, 16)
            a.add(quads, 64)
            a.dec(blocksLeft)
            a.j(.notEqual, step)
            a.add(source, sourceStep)
            a.add(destination, destinationStep)
            a.dec(pixelsLeft)
            a.j(.notEqual, pixel)
        }
    }
}

/// The argument block of `DepthwiseTapQuadsAVX512VBMI`, laid out as the generated code reads it.
struct GeneratedTapQuadArguments {
    /// The first quad pixel's first tap at channel 0 (bytes).
    var source: UnsafeRawPointer
    /// Where the first quad pixel's quads go.
    var destination: UnsafeMutableRawPointer
    /// Quad pixels to build.
    var pixels: Int
    /// 16-channel blocks per pixel (`⌈channels / 16⌉`).
    var blocks: Int
    /// Source bytes between quad pixels (`stride · channels`).
    var sourcePixelBytes: Int
    /// Source bytes between a quad's taps (`dilation · channels`).
    var tapStepBytes: Int
    /// Destination bytes between quad pixels (`4 · channels`).
    var destinationPixelBytes: Int
    /// `DepthwiseTapQuadsAVX512VBMI.interleave`'s 64 bytes.
    var indices: UnsafeRawPointer

    /// Byte offsets of the fields (checked against `MemoryLayout` by the kernel tests).
    enum Field {
        static let source: Int32 = 0, destination: Int32 = 8, pixels: Int32 = 16, blocks: Int32 = 24
        static let sourcePixelBytes: Int32 = 32, tapStepBytes: Int32 = 40, destinationPixelBytes: Int32 = 48
        static let indices: Int32 = 56
    }

    /// The contract the block shows: `pixels ≥ 1` and `blocks ≥ 1` (the loops run their body
    /// before testing their counters); the steps non-negative, the destination's at least the
    /// blocks' 64 bytes each (pixels written in order never overlap what is still to be read
    /// only when source and destination do not overlap, which is the caller's).
    /// - Returns: nil when the contract holds, else what is broken.
    func violation() -> String? {
        if pixels < 1 || blocks < 1 { return "generated tap quads: \(pixels) pixels of \(blocks) blocks (each must be ≥ 1)" }
        if sourcePixelBytes < 0 || tapStepBytes < 0 {
            return "generated tap quads: source steps \(sourcePixelBytes), \(tapStepBytes) bytes must be non-negative"
        }
        if destinationPixelBytes < 4 * 16 * (blocks - 1) + 4 {
            return "generated tap quads: destination pixel step \(destinationPixelBytes) bytes is below the pixel's quads"
        }
        return nil
    }
}

/// The generated kernels of the 8-bit depthwise rows in tap quads
/// (`DepthwiseConv2DOptimized.tapQuads`): `DepthwiseQuadTiles16AVX512VNNI` with one and with
/// two weight parts, and the quad row builders for uint8 and (flipping) int8 input.
struct DepthwiseQuadKernels {
    let tiles: DepthwiseQuadTiles16AVX512VNNI.Function
    let splitTiles: DepthwiseQuadTiles16AVX512VNNI.Function
    let uint8Rows: DepthwiseTapQuadsAVX512VBMI.Function
    let int8Rows: DepthwiseTapQuadsAVX512VBMI.Function
}
