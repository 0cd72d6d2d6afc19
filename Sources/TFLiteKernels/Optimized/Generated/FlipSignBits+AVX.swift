import MachineCode

/// The generated sign-bit flip of the int8-quad activation copy (`Int8QuadPacking.convert`:
/// int8 `x` stored as the unsigned `x + 128`, which is `x ^ 0x80`), four vectors per step: ymm
/// at AVX2, zmm at AVX-512 — 128 or 256 bytes where the default build's Swift loop does 16.
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedByteTableArguments` whose
/// `table` points at the 32-bit pattern `0x8080_8080`. It converts the first
/// `count / bytesPerStep · bytesPerStep` bytes and leaves the rest; source and destination
/// must not overlap.
enum FlipSignBitsAVX {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Void

    /// Bytes converted per step at `width`.
    static func bytesPerStep(_ width: VectorRegister.Width) -> Int { 4 * width.bytes }

    static func emit(width: VectorRegister.Width, into a: inout Assembler) {
        typealias Block = GeneratedByteTableArguments
        let (source, destination, steps, pattern) = (Block.source, Block.destination, Block.steps, Block.table)
        let vector = { (i: Int) in VectorRegister(i, width) }
        let step = bytesPerStep(width)
        a.function(saving: []) { a, done in
            Block.emitLoad(stepBytes: step, done: done, into: &a)
            a.vpbroadcastd(vector(4), .mem(pattern))
            a.countedLoop(steps, advancing: [(source, .bytes(Int32(step))), (destination, .bytes(Int32(step)))]) { a in
                for i in 0..<4 { a.vmovups(vector(i), .mem(source, disp: Int32(i * width.bytes))) }
                for i in 0..<4 { a.vpxor(vector(i), vector(i), vector(4)) }
                for i in 0..<4 { a.vmovups(.mem(destination, disp: Int32(i * width.bytes)), vector(i)) }
            }
        }
    }
}
