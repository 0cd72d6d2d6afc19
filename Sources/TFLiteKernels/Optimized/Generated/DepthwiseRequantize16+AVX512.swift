import MachineCode

/// The generated AVX-512 end of a quantized depthwise row: the row's float sums (exact
/// integers, `DepthwiseConv2DOptimized`) converted to Int32, plus the bias, requantized
/// (`Requantization16AVX512`) and stored as bytes — `DepthwiseRequantizeEpilogue.finish` for
/// every channel. Blocks of 16 channels go outer, pixels inner, so each block's tables are
/// loaded once per row; the last block is masked by `lastLaneMask`, so no channel is left to
/// Swift. The clamp keeps results in the output type, whose byte pattern `vpmovdb` stores for
/// uint8 and int8 alike; a whole-range clamp is the saturating store's
/// (`Requantization16AVX512.store`).
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedDepthwiseRequantizeArguments`
/// with `blocks` = ⌈channels / 16⌉. Preconditions: `pixels ≥ 1`, `blocks ≥ 1`; the
/// requantizer has no left shift; every table holds the row's channels.
enum DepthwiseRequantize16AVX512 {
    typealias Function = DepthwiseRequantize16AVX2.Function

    static func emit(into a: inout Assembler) {
        typealias Field = GeneratedDepthwiseRequantizeArguments.Field
        typealias R = Requantization16AVX512
        let fields = GeneratedDepthwiseRequantizeArguments.requantizationFields
        let args = GeneralRegister.rdi
        let sums = GeneralRegister.rsi, output = GeneralRegister.r8, pixelsLeft = GeneralRegister.rcx
        let channelBytes = GeneralRegister.r11, flag = GeneralRegister.r12, blocksLeft = GeneralRegister.r9
        let sumsStride = GeneralRegister.r10, outputStride = GeneralRegister.rbx
        let x = zmm(0)
        a.function(saving: [.rbx, .r12]) { a, _ in
            R.loadConstants(fields, &a)
            a.mov(sumsStride, .mem(args, disp: Field.sumsPixelBytes))
            a.mov(outputStride, .mem(args, disp: Field.outputPixelBytes))
            a.mov(blocksLeft, .mem(args, disp: Field.blocks))
            a.xor(channelBytes, channelBytes, width: .dword)
            let block = a.newLabel(), pixel = a.newLabel(), masked = a.newLabel(), tables = a.newLabel()
            a.bind(block)
            // k1: all 16 lanes, or the last block's.
            a.cmp(blocksLeft, 1)
            a.j(.equal, masked)
            a.mov(.rdx, 0xFFFF, width: .dword)
            a.jmp(tables)
            a.bind(masked)
            a.mov(.rdx, .mem(args, disp: Field.lastLaneMask), width: .dword)
            a.bind(tables)
            a.kmovw(k(1), .rdx)
            R.loadTables(fields, channelBytes: channelBytes, block: 0, mask: k(1), flag: flag, &a)
            a.mov(sums, .mem(args, disp: Field.sums))
            a.add(sums, channelBytes)
            a.mov(output, channelBytes)
            a.shr(output, 2)                                 // channel index = byte offset of the bytes
            a.add(output, .mem(args, disp: Field.output))
            a.mov(pixelsLeft, .mem(args, disp: Field.pixels))
            a.bind(pixel)
            a.vmovups(x, .mem(sums), mask: k(1), zeroing: true)
            a.vcvttps2dq(x, .register(x))
            a.vpaddd(x, x, .register(R.bias))
            R.requantize(x, flag: flag, &a)
            R.store(x, to: .mem(output), mask: k(1), flag: flag, &a)
            a.add(sums, sumsStride)
            a.add(output, outputStride)
            a.dec(pixelsLeft)
            a.j(.notEqual, pixel)
            a.add(channelBytes, 64)
            a.dec(blocksLeft)
            a.j(.notEqual, block)
        }
    }
}
