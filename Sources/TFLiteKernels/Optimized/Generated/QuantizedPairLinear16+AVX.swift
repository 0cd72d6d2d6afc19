import MachineCode

/// The generated linear form of an 8-bit ADD (`QuantizedPairLinearForm`), 16 elements per
/// step: each code widened to a 32-bit lane (`vpmovsxbd` / `vpmovzxbd`), `a·A + b·B + C`
/// (`vpmulld`, `vpaddd`), the arithmetic shift (`vpsravd`), the clamp, and the low bytes stored
/// (`vpmovdb` at AVX-512; two ymm halves packed at AVX2, where the values are in range already).
/// About 10 instructions per 16 elements where the pair table takes a dependent load per element.
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedPairLinearArguments`. It
/// converts `blocks · 16` elements; the caller does any rest.
enum QuantizedPairLinear16AVX {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Void

    /// Emits the kernel for codes that are int8 (`signed`) or uint8, at `width` (ymm or zmm).
    static func emit(signed: Bool, width: VectorRegister.Width, into a: inout Assembler) {
        typealias Field = GeneratedPairLinearArguments.Field
        let args = GeneralRegister.rdi, first = GeneralRegister.rsi, second = GeneralRegister.rdx
        let output = GeneralRegister.r8, blocks = GeneralRegister.rcx
        let v = { (i: Int) in VectorRegister(i, width) }
        let halves = width == .zmm ? 1 : 2                  // 16 lanes: one zmm or two ymm
        let (multiplierA, multiplierB, addend, shift, minimum, maximum) = (v(10), v(11), v(12), v(13), v(14), v(15))
        a.function(saving: []) { a, done in
            a.mov(blocks, .mem(args, disp: Field.blocks))
            a.test(blocks, blocks)
            a.j(.equal, done)
            a.mov(first, .mem(args, disp: Field.a))
            a.mov(second, .mem(args, disp: Field.b))
            a.mov(output, .mem(args, disp: Field.output))
            for (register, field) in [(multiplierA, Field.multiplierA), (multiplierB, Field.multiplierB), (addend, Field.addend),
                                      (shift, Field.shift), (minimum, Field.minimum), (maximum, Field.maximum)] {
                a.vpbroadcastd(register, .mem(args, disp: field))
            }
            a.countedLoop(blocks, advancing: [(first, .bytes(16)), (second, .bytes(16)), (output, .bytes(16))]) { a in
                for h in 0..<halves {
                    let x = v(h), y = v(2 + h)
                    let laneBytes = Int32(16 / halves * h)
                    if signed {
                        a.vpmovsxbd(x, .mem(first, disp: laneBytes))
                        a.vpmovsxbd(y, .mem(second, disp: laneBytes))
                    } else {
                        a.vpmovzxbd(x, .mem(first, disp: laneBytes))
                        a.vpmovzxbd(y, .mem(second, disp: laneBytes))
                    }
                    a.vpmulld(x, x, .register(multiplierA))
                    a.vpmulld(y, y, .register(multiplierB))
                    a.vpaddd(x, x, .register(y))
                    a.vpaddd(x, x, .register(addend))
                    a.vpsravd(x, x, .register(shift))
                    a.vpmaxsd(x, x, .register(minimum))
                    a.vpminsd(x, x, .register(maximum))
                }
                if width == .zmm {
                    a.vpmovdb(.mem(output), v(0))
                } else {
                    Requantization16AVX2.store(v(0), v(1), signed: signed, to: .mem(output), &a)
                }
            }
        }
    }
}

/// The argument block of `QuantizedPairLinear16AVX`, laid out as the generated code reads it.
struct GeneratedPairLinearArguments {
    var a: UnsafeRawPointer
    var b: UnsafeRawPointer
    var output: UnsafeMutableRawPointer
    /// Steps of 16 elements (≥ 0).
    var blocks: Int
    var multiplierA: Int32
    var multiplierB: Int32
    var addend: Int32
    var shift: Int32
    var minimum: Int32
    var maximum: Int32

    init(_ form: QuantizedPairLinearForm, a: UnsafeRawPointer, b: UnsafeRawPointer, output: UnsafeMutableRawPointer, blocks: Int) {
        self.a = a; self.b = b; self.output = output; self.blocks = blocks
        multiplierA = form.multiplierA; multiplierB = form.multiplierB; addend = form.addend; shift = form.shift
        minimum = form.minimum; maximum = form.maximum
    }

    /// Byte offsets of the fields (checked against `MemoryLayout` by the kernel tests).
    enum Field {
        static let a: Int32 = 0, b: Int32 = 8, output: Int32 = 16, blocks: Int32 = 24
        static let multiplierA: Int32 = 32, multiplierB: Int32 = 36, addend: Int32 = 40, shift: Int32 = 44
        static let minimum: Int32 = 48, maximum: Int32 = 52
    }
}
