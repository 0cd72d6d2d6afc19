// `expf` bit for bit as the C library computes it, without a call per element: the same
// method (x·32/ln2 = k + r with |r| ≤ 1/2, 2^(k/32) from a 32-entry table of doubles, a cubic
// in r, all in double precision, one rounding to float at the end) gives the same float for
// every input in the fast range. The C library computes r in one of two ways (see
// `reducesInOneRounding`); with the matching one, every float of the table range (−104 to 88.7,
// 2.24e9 inputs) gives glibc 2.36's `expf` on the AMD Zen 4 (EPYC family 25 model 17), checked
// exhaustively, and the kernel tests check selected ranges wherever they run.
// Used where the optimized kernels must equal the reference exactly: a one-ulp difference in
// a float LOGISTIC moves a value across a rounding boundary of the hybrid kernels' on-the-fly
// input quantization, and one flipped int8 input changes thousands of outputs by 1e-2.

/// The C library's `expf`, inlinable.
enum ExactFloatExp {
    /// `2^(i/32)` rounded to double, as bits, minus `i << 47` (so adding `k << 47` for
    /// k ≡ i mod 32 scales it by 2^(k div 32)).
    static let table: [UInt64] = [
        0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51,
        0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1,
        0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
        0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585,
        0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
        0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
        0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069,
        0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540]

    static let invLn2N: Double = 0x1.71547652b82fep+0 * 32
    static let shift: Double = 0x1.8p+52
    static let c0: Double = 0x1.c6af84b912394p-5 / 32768
    static let c1: Double = 0x1.ebfce50fac4f3p-3 / 1024
    static let c2: Double = 0x1.62e42ff0c52d6p-1 / 32
    /// `invLn2N` as a high part of 26 significant bits plus the rest: the products of either
    /// with a float (24 significant bits) are exact doubles.
    static let invLn2NHigh = Double(bitPattern: invLn2N.bitPattern & ~UInt64((1 << 27) - 1))
    static let invLn2NLow = invLn2N - invLn2NHigh

    /// Whether the C library rounds the reduced argument `r = x·32/ln2 − k` once, as one fused
    /// multiply-add (glibc's FMA variant of `expf`, the one it runs on x86-64 CPUs with FMA and
    /// AVX2; ARM's optimized routines compiled with contraction), rather than rounding the
    /// product first (glibc's baseline variant, musl without FMA). The two differ at exactly two
    /// floats of the table range (−63.09946 and 32.564632, exhaustively), so the library is asked:
    /// `expf(−63.09946)` is `0x11FA2993` one way and `0x11FA2992` the other. Here the single
    /// rounding is `(invLn2NHigh · x − k) + invLn2NLow · x`: exact products and an exact
    /// difference, one rounding.
    static let reducesInOneRounding = libraryExp(bits: 0xC27C_65D9).bitPattern == 0x11FA_2993

    /// The C library's `expf` of the float with `bits`, computed at run time: a constant
    /// argument would be folded at compile time, by the compiler's own exp.
    @_optimize(none)
    private static func libraryExp(bits: UInt32) -> Float { ElementwiseMath.exp(Float(bitPattern: bits)) }
    /// The lowest argument of the table method: below it the C library's `expf` returns 0 without
    /// it (e^x < 2^-150). Down to it the method holds, subnormal results included (its double
    /// result rounds to the float subnormal as the C library's does).
    static let lowestTableArgument: Float = -0x1.9fe368p6
    /// Above this the reference's logistic is exactly 1.
    static let logisticOne: Float = 16.619047164916992188

    /// `e^x`, equal to the C library's `expf(x)` for every float (|x| ≥ 88, infinities and
    /// NaN go to `expf` itself); `oneRounding` (tests) chooses the reduction of the other kind
    /// of library.
    @inline(__always)
    static func exp(_ x: Float, oneRounding: Bool = reducesInOneRounding) -> Float {
        if (x.bitPattern >> 20) & 0x7FF >= 0x42B { return ElementwiseMath.exp(x) }
        let xd = Double(x)
        let z = invLn2N * xd
        var kd = z + shift
        let ki = kd.bitPattern
        kd -= shift
        let r = oneRounding ? (invLn2NHigh * xd - kd) + invLn2NLow * xd : z - kd
        let scale = table.withUnsafeBufferPointer { Double(bitPattern: $0[Int(ki & 31)] &+ (ki &<< 47)) }
        let p = c0 * r + c1
        let y = p * (r * r) + (c2 * r + 1)
        return Float(y * scale)
    }

    /// The reference's float logistic (`ActivationReference.logistic`) with this exp.
    @inline(__always)
    static func logistic(_ x: Float, oneRounding: Bool = reducesInOneRounding) -> Float {
        if x > logisticOne { return 1 }
        if x < -9 { return exp(x, oneRounding: oneRounding) }
        return 1 / (1 + exp(-x, oneRounding: oneRounding))
    }

    /// Whether every lane of `x` lies in the range of the eight-lane `exp`: below 88 and no NaN
    /// (a group with another lane goes to the scalar form).
    @inline(__always)
    static func lanesInRange(_ x: SIMD8<Float>) -> Bool { !(any(x .>= 88) || any(x .!= x)) }

    /// Eight `exp`s of arguments below 88 and not NaN (`lanesInRange`; the caller sends others to
    /// the scalar form), the same operations lane by lane; 0 below ``lowestTableArgument``, −∞ included.
    @inline(__always)
    static func exp(_ x: SIMD8<Float>) -> SIMD8<Float> {
        // Whole-vector conversions and integer steps; only the table reads go lane by lane.
        let xd = SIMD8<Double>(x)
        let z = invLn2N * xd
        let shifted = z + SIMD8(repeating: shift)
        let kd = shifted - SIMD8(repeating: shift)
        let r = reducesInOneRounding ? (invLn2NHigh * xd - kd) + invLn2NLow * xd : z - kd
        let ki = unsafeBitCast(shifted, to: SIMD8<UInt64>.self)
        let index = ki & 31
        let entries = table.withUnsafeBufferPointer { t in
            SIMD8<UInt64>(t[Int(index[0])], t[Int(index[1])], t[Int(index[2])], t[Int(index[3])],
                          t[Int(index[4])], t[Int(index[5])], t[Int(index[6])], t[Int(index[7])])
        }
        let scale = unsafeBitCast(entries &+ (ki &<< 47), to: SIMD8<Double>.self)
        let p = c0 * r + c1
        let y = (p * (r * r) + (c2 * r + 1)) * scale
        return SIMD8<Float>(y).replacing(with: 0, where: x .< lowestTableArgument)
    }

    /// `out[i] = logistic(x[i])` for `count` elements, or `x[i] · logistic(x[i])` with
    /// `timesInput` (LOGISTIC then MUL by its input, as one pass): in generated code where the
    /// process has it (`ExactLogisticAVX`), else eight at a time in portable SIMD; a group of
    /// eight holding a NaN or an exp argument ≥ 88 (`lanesInRange`) runs element by element.
    /// `kernels`: the generated code to use (tests pass each level's; nil: the portable loop).
    static func logistic(_ x: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>, count: Int, timesInput: Bool = false,
                         kernels: GeneratedKernels? = GeneratedKernels.current) {
        @inline(__always) func scalar(_ k: Int) { out[k] = timesInput ? x[k] * logistic(x[k]) : logistic(x[k]) }
        var i = 0
        if let generated = timesInput ? kernels?.exactLogistic?.timesInput : kernels?.exactLogistic?.plain {
            table.withUnsafeBytes { table in
                while count &- i >= ExactLogisticAVX.lanes {
                    var arguments = GeneratedLogisticArguments(source: x + i, destination: out + i, count: count &- i,
                                                               table: table.baseAddress!)
                    KernelPrecondition.holds(arguments.violation())
                    i &+= withUnsafePointer(to: &arguments) { generated(UnsafeRawPointer($0)) }
                    guard count &- i >= ExactLogisticAVX.lanes else { break }
                    // The kernel stopped before a group it leaves to the scalar form.
                    for k in i..<i &+ ExactLogisticAVX.lanes { scalar(k) }
                    i &+= ExactLogisticAVX.lanes
                }
            }
        }
        while i &+ 8 <= count {
            let v = UnsafeRawPointer(x + i).loadUnaligned(as: SIMD8<Float>.self)
            let low = v .< -9
            let argument = v.replacing(with: -v, where: .!low)
            if !lanesInRange(argument) {
                for k in i..<i + 8 { scalar(k) }
            } else {
                let e = exp(argument)
                let result = (1 / (1 + e)).replacing(with: e, where: low)
                    .replacing(with: 1, where: v .> logisticOne)
                UnsafeMutableRawPointer(out + i).storeBytes(of: timesInput ? v * result : result, as: SIMD8<Float>.self)
            }
            i += 8
        }
        while i < count { scalar(i); i += 1 }
    }
}
