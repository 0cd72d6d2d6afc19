// Quantized SOFTMAX with the fixed-point exponentials tabulated: an 8-bit input row's
// differences from its maximum lie in [−255, 0], so exp(diff) (Q0.31, exactly as the
// reference computes it, 0 below `diffMin`) is read from a 256-entry table built at prepare.
// The row sum, reciprocal and output scaling are the reference's, so results are bit-exact
// with `SoftmaxReference.int8/uint8`.

/// Table-driven quantized softmax.
public struct QuantizedSoftmaxTable: Sendable {
    /// `exp(−d)` in Q0.31 for d = 0…255 (0 where the difference is below `diffMin`).
    public let exps: [Int32]
    /// Each exponential as the row sum adds it: rescaled to the sum's integer bits
    /// (`GemmlowpFixedPoint.rescale(exps[d], from: 0, to: accumulationIntegerBits)`).
    let sumTerms: [Int32]

    /// Tabulates the reference's exponentials for `params`.
    public init(_ params: SoftmaxReference.QuantizedParams) {
        exps = (0..<256).map { d in
            let diff = Int32(-d)
            guard diff >= params.diffMin else { return 0 }
            let rescaled = multiplyByQuantizedMultiplierGreaterThanOne(diff, params.inputMultiplier, params.inputLeftShift)
            return GemmlowpFixedPoint.expOnNegativeValues(rescaled, integerBits: SoftmaxReference.QuantizedParams.scaledDiffIntegerBits)
        }
        sumTerms = exps.map { GemmlowpFixedPoint.rescale($0, from: 0, to: SoftmaxReference.QuantizedParams.accumulationIntegerBits) }
    }

    @inline(__always)
    func run<In: FixedWidthInteger, Out: FixedWidthInteger>(depth: Int, rows: Range<Int>, _ x: UnsafePointer<In>,
                                                            _ out: UnsafeMutablePointer<Out>) {
        guard depth > 0 else { return }
        let accumBits = SoftmaxReference.QuantizedParams.accumulationIntegerBits
        let outMin = Int32(Out.min), outMax = Int32(Out.max)
        exps.withUnsafeBufferPointer { table in
            sumTerms.withUnsafeBufferPointer { terms in
                let t = table.baseAddress!, st = terms.baseAddress!
                for r in rows {
                    let xi = x + r * depth, oi = out + r * depth
                    var maxInRow = In.min
                    for c in 0..<depth { maxInRow = Swift.max(maxInRow, xi[c]) }
                    let m = Int32(maxInRow)
                    var sum: Int32 = 0
                    for c in 0..<depth { sum = sum &+ st[Int(m - Int32(xi[c]))] }
                    let (scale, bitsOverUnit) = GemmlowpFixedPoint.reciprocal(sum, integerDigits: accumBits)
                    let exponent = Swift.max(0, Swift.min(31, bitsOverUnit + 31 - Out.bitWidth))
                    for c in 0..<depth {
                        let e = t[Int(m - Int32(xi[c]))]
                        let unsat = roundingDivideByPOT(saturatingRoundingDoublingHighMul(scale, e), exponent)
                        oi[c] = Out(truncatingIfNeeded: Swift.max(Swift.min(unsat &+ outMin, outMax), outMin))
                    }
                }
            }
        }
    }

    /// The same-type 8-bit rows with the row maximum and the output scaling in 16-lane vectors;
    /// the exponentials are read from the table into a buffer while their rescaled terms are
    /// summed from `sumTerms` (reading the just-written buffer back as vectors would stall on
    /// store forwarding). Rows go in groups of 16 whose reciprocals are computed together, one
    /// row per lane (`FixedPointReciprocalSIMD`). The buffer (`workspaceBytes(depth:)`) comes
    /// from `workspace`, or from a temporary without one.
    @inline(__always)
    func runVector<T: QuantizedByteLane>(depth: Int, rows: Range<Int>, _ x: UnsafePointer<T>,
                                         _ out: UnsafeMutablePointer<T>, workspace: KernelWorkspace?) {
        guard depth > 0 else { return }
        if let generated = GeneratedKernels.current?.softmax {
            runGenerated(generated, depth: depth, rows: rows, x, out, workspace: workspace)
            return
        }
        let accumBits = SoftmaxReference.QuantizedParams.accumulationIntegerBits
        let outMin = Int32(T.min), outMax = Int32(T.max)
        let blocks = depth / 16 * 16
        exps.withUnsafeBufferPointer { table in
            sumTerms.withUnsafeBufferPointer { terms in
                let t = table.baseAddress!, st = terms.baseAddress!
                KernelWorkspace.using(workspace, orTemporary: Self.workspaceBytes(depth: depth)) { workspace in
                    let buffer = workspace.take(Int32.self, count: 16 * depth)
                    // The group's sums, reciprocals and bits over one, in plain memory.
                    let sums = workspace.take(Int32.self, count: 16), scales = workspace.take(Int32.self, count: 16)
                    let bitsOverUnit = workspace.take(Int32.self, count: 16)
                    var first = rows.lowerBound
                    while first < rows.upperBound {
                        let group = min(16, rows.upperBound - first)
                        for i in 0..<group {
                            let xi = x + (first + i) * depth, e = buffer + i * depth
                            var vmax = SIMD16<Int32>(repeating: outMin)
                            var c = 0
                            while c < blocks { vmax = pointwiseMax(vmax, T.widened(xi + c)); c += 16 }
                            var m = vmax.max()
                            while c < depth { m = Swift.max(m, Int32(xi[c])); c += 1 }
                            var sum: Int32 = 0
                            for k in 0..<depth {
                                let d = Int(m &- Int32(xi[k]))
                                e[k] = t[d]
                                sum = sum &+ st[d]
                            }
                            sums[i] = sum
                        }
                        // Lanes past the group repeat its first sum (any positive sum will do).
                        for i in group..<16 { sums[i] = sums[0] }
                        FixedPointReciprocalSIMD.reciprocals(sums, integerDigits: accumBits, values: scales, bitsOverUnit: bitsOverUnit)
                        for i in 0..<group {
                            let oi = out + (first + i) * depth, e = buffer + i * depth
                            let scale = scales[i]
                            let exponent = Swift.max(0, Swift.min(31, Int(bitsOverUnit[i]) + 31 - T.bitWidth))
                            let rounding = Self.Rounding(scale: scale, exponent: exponent)
                            var c = 0
                            while c < blocks {
                                let v = UnsafeRawPointer(e + c).loadUnaligned(as: SIMD16<Int32>.self)
                                let h = rounding.apply(v)
                                T.storeNarrowed(QuantizedBinaryArithmeticOptimized.clamp(h &+ SIMD16<Int32>(repeating: outMin), outMin, outMax), oi + c)
                                c += 16
                            }
                            while c < depth {
                                let unsat = roundingDivideByPOT(saturatingRoundingDoublingHighMul(scale, e[c]), exponent)
                                oi[c] = T(truncatingIfNeeded: Swift.max(Swift.min(unsat &+ outMin, outMax), outMin))
                                c += 1
                            }
                        }
                        first += group
                    }
                }
            }
        }
    }

    /// `runVector`'s rows with the generated passes (`QuantizedSoftmax16AVX512`): per group of 16
    /// rows, the exponentials and their sums, the reciprocals (`FixedPointReciprocalSIMD`), each
    /// row's rounding terms, then the scaled bytes. The same workspace as `runVector`'s.
    /// - Precondition: as `int8`'s; checked under `LITEVISION_INTERNAL_CHECKS` as far as
    ///   `GeneratedSoftmaxArguments.violation` shows it.
    func runGenerated<T: QuantizedByteLane>(_ kernels: (int8Exponentials: QuantizedSoftmax16AVX512.Function,
                                                        uint8Exponentials: QuantizedSoftmax16AVX512.Function,
                                                        scaling: QuantizedSoftmax16AVX512.Function),
                                            depth: Int, rows: Range<Int>, _ x: UnsafePointer<T>, _ out: UnsafeMutablePointer<T>,
                                            workspace: KernelWorkspace?) {
        guard depth > 0 else { return }
        let accumBits = SoftmaxReference.QuantizedParams.accumulationIntegerBits
        let exponentials = T.isSigned ? kernels.int8Exponentials : kernels.uint8Exponentials
        exps.withUnsafeBufferPointer { table in
            KernelWorkspace.using(workspace, orTemporary: Self.workspaceBytes(depth: depth)) { workspace in
                let buffer = workspace.take(Int32.self, count: 16 * depth)
                let sums = workspace.take(Int32.self, count: 16), reciprocals = workspace.take(Int32.self, count: 16)
                let bitsOverUnit = workspace.take(Int32.self, count: 16)
                let scales = workspace.take(UInt64.self, count: 16), addends = workspace.take(UInt64.self, count: 16)
                let shifts = workspace.take(UInt64.self, count: 16)
                var arguments = GeneratedSoftmaxArguments(
                    input: UnsafeRawPointer(x), output: UnsafeMutableRawPointer(out), exponentials: UnsafeMutableRawPointer(buffer),
                    rows: 0, depth: depth, tailMask: (1 << (depth % 16)) - 1, table: UnsafeRawPointer(table.baseAddress!),
                    sums: UnsafeMutableRawPointer(sums), scales: UnsafeRawPointer(scales),
                    addends: UnsafeRawPointer(addends), shifts: UnsafeRawPointer(shifts),
                    lowest: Int32(T.min), outputMin: Int32(T.min), outputMax: Int32(T.max))
                var first = rows.lowerBound
                while first < rows.upperBound {
                    let group = min(16, rows.upperBound - first)
                    arguments.input = UnsafeRawPointer(x + first * depth)
                    arguments.output = UnsafeMutableRawPointer(out + first * depth)
                    arguments.rows = group
                    KernelPrecondition.holds(arguments.violation())
                    withUnsafePointer(to: &arguments) { exponentials(UnsafeRawPointer($0)) }
                    // Lanes past the group repeat its first sum (any positive sum will do).
                    for i in group..<16 { sums[i] = sums[0] }
                    FixedPointReciprocalSIMD.reciprocals(sums, integerDigits: accumBits, values: reciprocals, bitsOverUnit: bitsOverUnit)
                    for i in 0..<group {
                        let exponent = Swift.max(0, Swift.min(31, Int(bitsOverUnit[i]) + 31 - T.bitWidth))
                        scales[i] = UInt64(reciprocals[i])
                        (addends[i], shifts[i]) = Rounding.terms(exponent: exponent)
                    }
                    withUnsafePointer(to: &arguments) { kernels.scaling(UnsafeRawPointer($0)) }
                    first += group
                }
            }
        }
    }

    /// A row's output scaling, `roundingDivideByPOT(saturatingRoundingDoublingHighMul(scale, e), exponent)`,
    /// in one rounding (`ConvRequantizer.singleRounding`): `⌊(scale·e + addend) / 2^(31 + exponent)⌋`
    /// from unsigned 64-bit products of the even and odd lanes. Both operands are non-negative
    /// (a reciprocal and exponentials), so the product is too and the negative addend never
    /// applies; the result lies in [0, 2^31).
    struct Rounding {
        let scale: SIMD8<UInt64>, addend: SIMD8<UInt64>, shift: SIMD8<UInt64>

        /// Precondition: `scale ≥ 0`, `exponent` in 0...31.
        @inline(__always)
        init(scale: Int32, exponent: Int) {
            let terms = Self.terms(exponent: exponent)
            self.scale = SIMD8(repeating: UInt64(scale))
            addend = SIMD8(repeating: terms.addend)
            shift = SIMD8(repeating: terms.shift)
        }

        /// The addend and shift of the single rounding for `exponent` (in 0...31).
        @inline(__always)
        static func terms(exponent: Int) -> (addend: UInt64, shift: UInt64) {
            let terms = ConvRequantizer.terms(rightShift: Int32(exponent))
            return (UInt64(terms.addend), UInt64(terms.shift))
        }

        /// The scaled lanes of `e` (every lane ≥ 0).
        @inline(__always)
        func apply(_ e: SIMD16<Int32>) -> SIMD16<Int32> {
            let e64 = unsafeBitCast(e, to: SIMD8<UInt64>.self)
            let low = SIMD8<UInt64>(repeating: 0xFFFF_FFFF)
            let even = ((e64 & low) &* scale &+ addend) &>> shift
            let odd = ((e64 &>> 32) &* scale &+ addend) &>> shift
            return unsafeBitCast(even | (odd &<< 32), to: SIMD16<Int32>.self)
        }
    }

    /// Bytes of workspace the same-type entries (`int8`, `uint8`) take for rows of `depth`: the
    /// exponentials of a group of 16 rows, and its sums, reciprocals and bits over one (and, for
    /// the generated passes, its rounding terms). The int16-output entries take none.
    public static func workspaceBytes(depth: Int) -> Int {
        KernelWorkspace.bytes(Int32.self, count: 16 * depth) + 3 * KernelWorkspace.bytes(Int32.self, count: 16)
            + 3 * KernelWorkspace.bytes(UInt64.self, count: 16)
    }

    /// int8 → int8 over `rows` rows of `depth`, the exponentials in `workspace`
    /// (`workspaceBytes(depth:)` bytes for this call alone, see ``KernelWorkspace``; nil: a temporary).
    /// - Precondition: `depth ≥ 0`, `rows.lowerBound ≥ 0`; `x` and `out` hold `rows.upperBound × depth` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public func int8(depth: Int, rows: Range<Int>, _ x: UnsafePointer<Int8>, _ out: UnsafeMutablePointer<Int8>,
                     workspace: KernelWorkspace? = nil) {
        KernelPrecondition.check(depth >= 0 && rows.lowerBound >= 0, "depth \(depth), rows \(rows)")
        runVector(depth: depth, rows: rows, x, out, workspace: workspace)
    }
    /// uint8 → uint8 (as `int8`).
    /// - Precondition: `depth ≥ 0`, `rows.lowerBound ≥ 0`; `x` and `out` hold `rows.upperBound × depth` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public func uint8(depth: Int, rows: Range<Int>, _ x: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>,
                      workspace: KernelWorkspace? = nil) {
        KernelPrecondition.check(depth >= 0 && rows.lowerBound >= 0, "depth \(depth), rows \(rows)")
        runVector(depth: depth, rows: rows, x, out, workspace: workspace)
    }
    /// int8 → int16.
    /// - Precondition: `depth ≥ 0`, `rows.lowerBound ≥ 0`; `x` and `out` hold `rows.upperBound × depth` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public func int8ToInt16(depth: Int, rows: Range<Int>, _ x: UnsafePointer<Int8>, _ out: UnsafeMutablePointer<Int16>) {
        KernelPrecondition.check(depth >= 0 && rows.lowerBound >= 0, "depth \(depth), rows \(rows)")
        run(depth: depth, rows: rows, x, out)
    }
    /// uint8 → int16.
    /// - Precondition: `depth ≥ 0`, `rows.lowerBound ≥ 0`; `x` and `out` hold `rows.upperBound × depth` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public func uint8ToInt16(depth: Int, rows: Range<Int>, _ x: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<Int16>) {
        KernelPrecondition.check(depth >= 0 && rows.lowerBound >= 0, "depth \(depth), rows \(rows)")
        run(depth: depth, rows: rows, x, out)
    }
}
