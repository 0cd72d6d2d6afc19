import MachineCode

/// The generated float PRELU of `ActivationOptimized.preluFloat32`: `x ≥ 0 ? x : α · x` over
/// rows whose α is one row (a layer's channels, or its repeated pattern), 8 (ymm) or 16 (zmm)
/// values per step: one load of each, one product, one comparison, and a blend (AVX:
/// `vblendvps` of x where `x ≥ 0`) or a product merged under a mask (AVX-512: where
/// `!(x ≥ 0)`), where the portable SSE2 loop takes about a dozen instructions per 8 values.
/// The comparison is false for NaN, so a NaN takes the product, as in the portable loop's
/// `v >= 0 ? v : v * a`: the values are bit for bit the same.
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedPreluArguments`. Each of the
/// `rows` rows (`rowStride` bytes apart in x and the output) has its first `stepsPerRow · lanes`
/// values computed against α's; the rest of a row is left to the caller.
enum PreluFloatAVX {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Void

    /// Values per step for registers of `width`.
    static func lanes(_ width: VectorRegister.Width) -> Int { width.bytes / 4 }

    /// Emits the kernel on `width` registers (ymm or zmm).
    static func emit(width: VectorRegister.Width, into a: inout Assembler) {
        precondition(width != .xmm, "ymm or zmm")
        typealias Field = GeneratedPreluArguments.Field
        let args = GeneralRegister.rdi, x = GeneralRegister.rsi, alpha = GeneralRegister.rdx
        let output = GeneralRegister.rcx, rows = GeneralRegister.r8, stride = GeneralRegister.r9
        let offset = GeneralRegister.r10, steps = GeneralRegister.r11, stepsPerRow = GeneralRegister.rax
        let value = VectorRegister(0, width), product = VectorRegister(1, width), zero = VectorRegister(2, width)
        let keepsValue = VectorRegister(3, width)
        let stepBytes = Int32(width.bytes)
        a.function(saving: []) { a, done in
            a.mov(rows, .mem(args, disp: Field.rows))
            a.test(rows, rows)
            a.j(.equal, done)
            a.mov(stepsPerRow, .mem(args, disp: Field.stepsPerRow))
            a.test(stepsPerRow, stepsPerRow)
            a.j(.equal, done)
            a.mov(x, .mem(args, disp: Field.x))
            a.mov(alpha, .mem(args, disp: Field.alpha))
            a.mov(output, .mem(args, disp: Field.output))
            a.mov(stride, .mem(args, disp: Field.rowStride))
            a.vxorps(zero, zero, zero)
            a.countedLoop(rows, advancing: [(x, .register(stride)), (output, .register(stride))]) { a in
                a.xor(offset, offset)
                a.mov(steps, stepsPerRow)
                a.countedLoop(steps, advancing: [(offset, .bytes(stepBytes))]) { a in
                    a.vmovups(value, .mem(x, index: offset, scale: 1))
                    if width == .zmm {
                        a.vcmpps(k(1), value, .register(zero), .notGreaterOrEqual)
                        a.vmulps(value, value, .memory(.mem(alpha, index: offset, scale: 1)), mask: k(1))
                        a.vmovups(.mem(output, index: offset, scale: 1), value)
                    } else {
                        a.vmulps(product, value, .memory(.mem(alpha, index: offset, scale: 1)))
                        a.vcmpps(keepsValue, value, .register(zero), .greaterOrEqual)
                        a.vblendvps(product, product, value, keepsValue)
                        a.vmovups(.mem(output, index: offset, scale: 1), product)
                    }
                }
            }
        }
    }
}

/// The argument block of `PreluFloatAVX`, laid out as the generated code reads it.
struct GeneratedPreluArguments {
    var x: UnsafeRawPointer
    var alpha: UnsafeRawPointer
    var output: UnsafeMutableRawPointer
    var rows: Int
    var stepsPerRow: Int
    var rowStride: Int

    /// Byte offsets of the fields (checked against `MemoryLayout` by the kernel tests).
    enum Field {
        static let x: Int32 = 0, alpha: Int32 = 8, output: Int32 = 16, rows: Int32 = 24, stepsPerRow: Int32 = 32, rowStride: Int32 = 40
    }
}
