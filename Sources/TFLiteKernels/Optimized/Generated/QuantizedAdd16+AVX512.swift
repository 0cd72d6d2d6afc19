import MachineCode

/// The generated AVX-512 quantized ADD (or SUB) of two same-shape 8-bit operands, 16 elements
/// per step, bit-exact with `BinaryArithmeticReference.quantizedAddElement`: each code widened
/// to a 32-bit lane (`vpmovsxbd` / `vpmovzxbd`), its offset added and the common left shift
/// applied (`vpsllvd`), each input rescaled by its multiplier, the two summed (subtracted), the
/// sum rescaled by the output multiplier with the output offset, clamped and stored (`vpmovdb`).
/// Each of the three rescalings is the reference's two roundings as one
/// (`ConvRequantizer.singleRounding`, `Requantization16AVX512.round`); the output's skips the
/// negative addends where the clamp takes negative results to its minimum (RELU after the
/// ADD). About 45 vector instructions per 16 elements, where the portable vector arithmetic
/// takes about 7 cycles per element.
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedQuantizedAddArguments`. It
/// computes `blocks · 16` elements; the caller does any rest.
enum QuantizedAdd16AVX512 {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Void

    /// Emits the kernel for int8 (`signed`) or uint8 codes, adding or (`subtract`) subtracting.
    static func emit(signed: Bool, subtract: Bool, into a: inout Assembler) {
        typealias Field = GeneratedQuantizedAddArguments.Field
        typealias R = Requantization16AVX512
        let args = GeneralRegister.rdi, first = GeneralRegister.rsi, second = GeneralRegister.rdx
        let output = GeneralRegister.r8, blocks = GeneralRegister.rcx, flag = GeneralRegister.r9
        let x = zmm(0), y = zmm(1), temporaries = (zmm(2), zmm(3))
        let (firstOffset, secondOffset, leftShift, residualOffset) = (zmm(19), zmm(20), zmm(21), zmm(16))
        /// The registers of the rounding whose terms start at `field`, from zmm `base` on.
        func rounding(_ base: Int) -> R.Rounding {
            R.Rounding(multiplier: zmm(base), addend: zmm(base + 1), negativeAddend: zmm(base + 2), shift: zmm(base + 3),
                       temporaries: temporaries)
        }
        let stages = [(rounding(4), Field.firstTerms), (rounding(8), Field.secondTerms), (rounding(12), Field.resultTerms)]
        a.function(saving: []) { a, done in
            a.mov(blocks, .mem(args, disp: Field.blocks))
            a.test(blocks, blocks)
            a.j(.equal, done)
            R.loadConstants(activationMin: Field.activationMin, activationMax: Field.activationMax, &a)  // uses rdx
            a.mov(first, .mem(args, disp: Field.a))
            a.mov(second, .mem(args, disp: Field.b))
            a.mov(output, .mem(args, disp: Field.output))
            a.mov(flag, .mem(args, disp: Field.flag))
            for (r, terms) in stages {
                for (register, offset) in [(r.multiplier, 0), (r.evenAddend, 8), (r.evenNegativeAddend, 16), (r.evenShift, 24)] {
                    a.vpbroadcastq(register, .mem(args, disp: terms + Int32(offset)))
                }
            }
            for (register, field) in [(firstOffset, Field.firstOffset), (secondOffset, Field.secondOffset),
                                      (leftShift, Field.leftShift), (residualOffset, Field.residualOffset)] {
                a.vpbroadcastd(register, .mem(args, disp: field))
            }
            a.countedLoop(blocks, advancing: [(first, .bytes(16)), (second, .bytes(16)), (output, .bytes(16))]) { a in
                for (v, source, offset, r) in [(x, first, firstOffset, stages[0].0), (y, second, secondOffset, stages[1].0)] {
                    if signed { a.vpmovsxbd(v, .mem(source)) } else { a.vpmovzxbd(v, .mem(source)) }
                    a.vpaddd(v, v, .register(offset))
                    a.vpsllvd(v, v, .register(leftShift))
                    R.round(v, r, negativeAddendsUnless: nil, &a)
                }
                if subtract { a.vpsubd(x, x, .register(y)) } else { a.vpaddd(x, x, .register(y)) }
                R.requantize(x, stages[2].0, residualOffset: residualOffset, flag: flag, &a)
                a.vpmovdb(.mem(output), x)
            }
        }
    }
}

/// The variants of `QuantizedAdd16AVX512` in one generated block.
struct QuantizedAddKernels: @unchecked Sendable {
    private let functions: [QuantizedAdd16AVX512.Function]

    /// Emits every variant (int8 then uint8, each adding then subtracting); returns their entry offsets.
    static func emit(into a: inout Assembler) -> [Int] {
        var entries: [Int] = []
        for signed in [true, false] {
            for subtract in [false, true] {
                entries.append(a.count)
                QuantizedAdd16AVX512.emit(signed: signed, subtract: subtract, into: &a)
            }
        }
        return entries
    }

    /// The kernels at `entries` (from `emit`) in `code`.
    init(code: ExecutableCode, entries: [Int]) {
        functions = entries.map { unsafeBitCast(code.address(at: $0), to: QuantizedAdd16AVX512.Function.self) }
    }

    /// The variant for int8 (`signed`) or uint8 codes, adding or subtracting.
    func kernel(signed: Bool, subtract: Bool) -> QuantizedAdd16AVX512.Function {
        functions[(signed ? 0 : 2) + (subtract ? 1 : 0)]
    }
}

/// The argument block of `QuantizedAdd16AVX512`, laid out as the generated code reads it.
struct GeneratedQuantizedAddArguments {
    /// One rescaling's `ConvRequantizer.terms`, with its multiplier (each broadcast to 64-bit lanes).
    struct Terms {
        var multiplier: Int64
        var addend: Int64
        var negativeAddend: Int64
        var shift: Int64

        /// The terms of multiplying by `m` (a right shift, `m.shift ≤ 0`) with `outputOffset` folded in.
        init(_ m: QuantizedMultiplier, outputOffset: Int32 = 0) {
            let t = ConvRequantizer.terms(rightShift: Int32(-m.shift), outputOffset: outputOffset)
            (multiplier, addend, negativeAddend, shift) = (Int64(m.multiplier), t.addend, t.negativeAddend, t.shift)
        }
    }

    var a: UnsafeRawPointer
    var b: UnsafeRawPointer
    var output: UnsafeMutableRawPointer
    /// Steps of 16 elements (≥ 0).
    var blocks: Int
    var firstTerms: Terms
    var secondTerms: Terms
    var resultTerms: Terms
    var firstOffset: Int32
    var secondOffset: Int32
    var leftShift: Int32
    /// The output offset when the result's terms could not fold it in (else 0).
    var residualOffset: Int32
    var activationMin: Int32
    var activationMax: Int32
    /// `ConvRequantizer.residualOffsetFlag` and `.clampedNegativesFlag` bits.
    var flag: Int64

    /// The arguments of `p` on `blocks · 16` elements at `a`, `b`, `output`.
    /// Precondition: `QuantizedBinaryArithmeticOptimized.supports(p)`.
    init(_ p: BinaryArithmeticReference.QuantizedAddParams, a: UnsafeRawPointer, b: UnsafeRawPointer,
         output: UnsafeMutableRawPointer, blocks: Int) {
        self.a = a; self.b = b; self.output = output; self.blocks = blocks
        let folds = ConvRequantizer.foldsOffset(rightShift: Int32(-p.outputMultiplier.shift), outputOffset: p.outputOffset)
        firstTerms = Terms(p.input1Multiplier)
        secondTerms = Terms(p.input2Multiplier)
        resultTerms = Terms(p.outputMultiplier, outputOffset: folds ? p.outputOffset : 0)
        firstOffset = p.input1Offset; secondOffset = p.input2Offset; leftShift = Int32(p.leftShift)
        residualOffset = folds ? 0 : p.outputOffset
        activationMin = p.activationMin; activationMax = p.activationMax
        flag = (folds ? 0 : ConvRequantizer.residualOffsetFlag)
            | (ConvRequantizer.clampsNegativeResults(activationMin: p.activationMin, outputOffset: p.outputOffset)
                ? ConvRequantizer.clampedNegativesFlag : 0)
    }

    /// Byte offsets of the fields (checked against `MemoryLayout` by the kernel tests).
    enum Field {
        static let a: Int32 = 0, b: Int32 = 8, output: Int32 = 16, blocks: Int32 = 24
        static let firstTerms: Int32 = 32, secondTerms: Int32 = 64, resultTerms: Int32 = 96
        static let firstOffset: Int32 = 128, secondOffset: Int32 = 132, leftShift: Int32 = 136, residualOffset: Int32 = 140
        static let activationMin: Int32 = 144, activationMax: Int32 = 148, flag: Int32 = 152
    }
}
