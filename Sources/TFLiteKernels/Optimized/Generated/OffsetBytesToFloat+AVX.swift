import MachineCode

/// The generated conversion of 8-bit quantized values to the exact floats `x + offset` that the
/// quantized depthwise and convolution kernels sum (`Conv2DOptimized.offsetInput`): one
/// sign- or zero-extending load (`vpmovsxbd` / `vpmovzxbd`), one conversion and one add per
/// 8 (ymm) or 16 (zmm) values, where the portable SSE2 loop needs about a dozen instructions
/// per 8. Every result is an integer of magnitude below 2^10, so each step is exact and the
/// floats are the portable loop's bit for bit.
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedOffsetArguments`. It converts
/// the first `count / lanes · lanes` values (lanes: 8 for ymm, 16 for zmm) and leaves the rest.
enum OffsetBytesToFloatAVX {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Void

    /// Values converted per step for registers of `width`.
    static func lanes(_ width: VectorRegister.Width) -> Int { width.bytes / 4 }

    /// Emits the kernel for signed (int8) or unsigned (uint8) bytes on `width` registers.
    static func emit(signed: Bool, width: VectorRegister.Width, into a: inout Assembler) {
        precondition(width != .xmm, "ymm or zmm")
        typealias Field = GeneratedOffsetArguments.Field
        let args = GeneralRegister.rdi, source = GeneralRegister.rsi, destination = GeneralRegister.rdx
        let steps = GeneralRegister.rcx
        let value = VectorRegister(0, width), offset = VectorRegister(1, width)
        let lanes = lanes(width)
        a.function(saving: []) { a, done in
            a.mov(source, .mem(args, disp: Field.source))
            a.mov(destination, .mem(args, disp: Field.destination))
            a.mov(steps, .mem(args, disp: Field.count))
            a.shr(steps, UInt8(lanes.trailingZeroBitCount))
            a.j(.equal, done)
            a.vbroadcastss(offset, .mem(args, disp: Field.offset))
            a.countedLoop(steps, advancing: [(source, .bytes(Int32(lanes))), (destination, .bytes(Int32(4 * lanes)))]) { a in
                if signed { a.vpmovsxbd(value, .mem(source)) } else { a.vpmovzxbd(value, .mem(source)) }
                a.vcvtdq2ps(value, value)
                a.vaddps(value, value, offset)
                a.vmovups(.mem(destination), value)
            }
        }
    }
}

/// The argument block of `OffsetBytesToFloatAVX`, laid out as the generated code reads it.
struct GeneratedOffsetArguments {
    var source: UnsafeRawPointer
    var destination: UnsafeMutableRawPointer
    var count: Int
    var offset: Float

    /// Byte offsets of the fields (checked against `MemoryLayout` by the kernel tests).
    enum Field {
        static let source: Int32 = 0, destination: Int32 = 8, count: Int32 = 16, offset: Int32 = 24
    }
}

extension GeneratedOffsetArguments {
    /// The contract of `OffsetBytesToFloatAVX`, as far as the block shows it:
    /// - `count ≥ 0`: the kernel shifts it right into an unsigned step count;
    /// - the `count` source bytes and the `4 · count` destination bytes do not overlap (the
    ///   floats are wider than the bytes, so even in place a store would overwrite bytes not yet
    ///   read).
    ///
    /// The kernel relies on no alignment (unaligned loads and stores). `count` bytes readable
    /// and `count` floats writable are the caller's.
    /// - Returns: nil when the contract holds, else what is broken.
    func violation() -> String? {
        if count < 0 { return "OffsetBytesToFloat: count \(count) is negative" }
        if KernelPrecondition.overlap(source, count, UnsafeRawPointer(destination), 4 * count) {
            return "OffsetBytesToFloat: the \(count) source bytes overlap the destination floats"
        }
        return nil
    }
}
