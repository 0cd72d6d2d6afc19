import MachineCode

/// The generated 256-entry byte table lookup (`ByteTableLookup`: quantized LOGISTIC, TANH and
/// YOLO's fused SiLU), 64 bytes per step: the table lives in four zmm registers, two
/// `vpermi2b` look every byte up in the low and the high 128 entries, and the byte's top bit
/// (`vpmovb2m`) picks between them (`vpblendmb`) — six instructions where the portable loop
/// reads the table 64 times. Needs AVX512-VBMI beside AVX512-BW.
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedByteTableArguments`. It maps
/// the first `count / 64 · 64` bytes and leaves the rest.
enum ByteTableLookup64AVX512VBMI {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Void

    /// Bytes mapped per step.
    static let lanes = 64

    static func emit(into a: inout Assembler) {
        typealias Field = GeneratedByteTableArguments.Field
        let args = GeneralRegister.rdi, source = GeneralRegister.rsi, destination = GeneralRegister.rdx
        let steps = GeneralRegister.rcx, table = GeneralRegister.rax
        a.function(saving: []) { a, done in
            a.mov(source, .mem(args, disp: Field.source))
            a.mov(destination, .mem(args, disp: Field.destination))
            a.mov(steps, .mem(args, disp: Field.count))
            a.shr(steps, 6)
            a.j(.equal, done)
            a.mov(table, .mem(args, disp: Field.table))
            for quarter in 0..<4 { a.vmovups(zmm(4 + quarter), .mem(table, disp: Int32(64 * quarter))) }
            let loop = a.newLabel()
            a.bind(loop)
            a.vmovups(zmm(0), .mem(source))
            a.vpmovb2m(k(1), zmm(0))                          // entries 128...255
            a.vmovaps(zmm(1), zmm(0))
            a.vpermi2b(zmm(0), zmm(4), zmm(5))                // entries 0...127
            a.vpermi2b(zmm(1), zmm(6), zmm(7))                // entries 128...255
            a.vpblendmb(zmm(0), zmm(0), zmm(1), mask: k(1))
            a.vmovups(.mem(destination), zmm(0))
            a.add(source, 64)
            a.add(destination, 64)
            a.dec(steps)
            a.j(.notEqual, loop)
        }
    }
}

/// The argument block of `ByteTableLookup64AVX512VBMI`, laid out as the generated code reads it.
struct GeneratedByteTableArguments {
    var source: UnsafeRawPointer
    var destination: UnsafeMutableRawPointer
    var count: Int
    var table: UnsafeRawPointer

    /// Byte offsets of the fields (checked against `MemoryLayout` by the kernel tests).
    enum Field {
        static let source: Int32 = 0, destination: Int32 = 8, count: Int32 = 16, table: Int32 = 24
    }
}
