// Quantized two-input operators on 8-bit data as a 256×256 table: the output code for every
// pair of input codes, computed once at prepare with the reference element function. Invoke
// becomes one table read per element, bit-exact by construction.

/// A 64K-entry table mapping a pair of 8-bit input codes to the output code.
public struct QuantizedPairTable: Sendable {
    /// Entries indexed by `(UInt8(a) << 8) | UInt8(b)`.
    public let entries: [UInt8]
    /// Whether the codes are int8 (else uint8).
    public let signed: Bool
    /// A single rounding equal to the table on every pair (`QuantizedPairLinearForm`, ADD and
    /// SUB only), which same-shape operands run through the generated kernel where there is one.
    public let linearForm: QuantizedPairLinearForm?

    /// Tabulates `f` over every pair of codes (int8 when `signed`, else uint8); `f` returns
    /// the already clamped output code.
    public init(signed: Bool, _ f: (Int32, Int32) -> Int32) {
        entries = Self.filledEntries { table in
            for hiByte in 0..<256 {
                let x = signed ? Int32(Int8(truncatingIfNeeded: hiByte)) : Int32(hiByte)
                for loByte in 0..<256 {
                    let y = signed ? Int32(Int8(truncatingIfNeeded: loByte)) : Int32(loByte)
                    table[hiByte << 8 | loByte] = UInt8(truncatingIfNeeded: f(x, y))
                }
            }
        }
        self.signed = signed
        linearForm = nil
    }

    /// The 65536 entries `write` stores, every one of them (row `hiByte` at `hiByte << 8`): no
    /// zero fill first, whose page faults showed at every model load.
    @inline(__always)
    private static func filledEntries(_ write: (UnsafeMutablePointer<UInt8>) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 65536) { entries, initialized in
            write(entries.baseAddress!)
            initialized = 65536
        }
    }

    private init(entries: [UInt8], signed: Bool, linearForm: QuantizedPairLinearForm? = nil) {
        self.entries = entries; self.signed = signed; self.linearForm = linearForm
    }

    /// The table of quantized ADD (or SUB): a row of 256 entries per call of the generated exact
    /// ADD where there is one (AVX-512), else 16 entries at a time with the vector arithmetic
    /// (`QuantizedBinaryArithmeticOptimized`, bit-exact with the element function) when it
    /// handles `p`, else one element function call per entry.
    ///
    /// Each input's rescaling depends on that input alone, so the 256 rescaled codes of each are
    /// computed once and every entry only takes the output step (one rounding multiply of three):
    /// the element function's steps, hoisted. The table is built at prepare, so this counts in a
    /// model's cold start.
    ///
    /// The table's `linearForm` is searched at the same time (`QuantizedPairLinearForm.fit`,
    /// slopes from the three multipliers), where a generated kernel could run it.
    public static func add(signed: Bool, _ p: BinaryArithmeticReference.QuantizedAddParams, subtract: Bool) -> QuantizedPairTable {
        let table = addEntries(signed: signed, p, subtract: subtract)
        guard GeneratedKernels.current?.pairLinear != nil else { return table }
        let form = table.entries.withUnsafeBufferPointer {
            QuantizedPairLinearForm.fit(table: $0.baseAddress!, signed: signed, slopes: addSlopes(p, subtract: subtract),
                                        range: p.activationMin...p.activationMax)
        }
        return QuantizedPairTable(entries: table.entries, signed: signed, linearForm: form)
    }

    /// The output codes per input code of ADD (SUB) with `p`: each input's multiplier times the
    /// left shift and the output multiplier.
    static func addSlopes(_ p: BinaryArithmeticReference.QuantizedAddParams, subtract: Bool) -> (Double, Double) {
        func real(_ m: QuantizedMultiplier) -> Double { Double(m.multiplier) * Double(sign: .plus, exponent: m.shift - 31, significand: 1) }
        let common = Double(sign: .plus, exponent: p.leftShift, significand: 1) * real(p.outputMultiplier)
        return (real(p.input1Multiplier) * common, (subtract ? -1 : 1) * real(p.input2Multiplier) * common)
    }

    /// The entries of `add`.
    private static func addEntries(signed: Bool, _ p: BinaryArithmeticReference.QuantizedAddParams,
                                   subtract: Bool) -> QuantizedPairTable {
        guard QuantizedBinaryArithmeticOptimized.supports(p) else {
            return QuantizedPairTable(signed: signed) { BinaryArithmeticReference.quantizedAddElement($0, $1, p, subtract: subtract) }
        }
        if GeneratedKernels.current?.quantizedAdd != nil {
            return QuantizedPairTable(entries: generatedAddEntries(signed: signed, p, subtract: subtract), signed: signed)
        }
        let k = QuantizedBinaryArithmeticOptimized.AddConstants(p, subtract: subtract)
        // Each input's rescaled codes by byte, 16 per vector, in flat Int32 arrays (an array of
        // SIMD vectors would cost the process a runtime type instantiation at its first table).
        var first = [Int32](repeating: 0, count: 256), second = [Int32](repeating: 0, count: 256)
        first.withUnsafeMutableBytes { first in
            second.withUnsafeMutableBytes { second in
                for v in 0..<16 {
                    var codes = SIMD16<Int32>()
                    for lane in 0..<16 {
                        let byte = 16 &* v &+ lane
                        codes[lane] = signed ? Int32(Int8(truncatingIfNeeded: byte)) : Int32(byte)
                    }
                    first.storeBytes(of: k.rescaledA(codes), toByteOffset: 64 &* v, as: SIMD16<Int32>.self)
                    second.storeBytes(of: k.rescaledB(codes), toByteOffset: 64 &* v, as: SIMD16<Int32>.self)
                }
            }
        }
        let table = filledEntries { t in
            let out = UnsafeMutableRawPointer(t)
            second.withUnsafeBytes { second in
                for hiByte in 0..<256 {
                    let a = SIMD16<Int32>(repeating: first[hiByte])
                    for v in 0..<16 {
                        let b = second.loadUnaligned(fromByteOffset: 64 &* v, as: SIMD16<Int32>.self)
                        out.storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: k.output(a, b)),
                                       toByteOffset: hiByte &<< 8 &+ 16 &* v, as: SIMD16<UInt8>.self)
                    }
                }
            }
        }
        return QuantizedPairTable(entries: table, signed: signed)
    }

    /// The entries of `add` from the generated exact ADD (`QuantizedAdd16AVX512`, AVX-512), one
    /// row of 256 pairs per call: about half the time of the hoisted vector arithmetic, which
    /// the default build runs at its SSE2 baseline. Precondition: the generated ADD exists and
    /// `QuantizedBinaryArithmeticOptimized.supports(p)`.
    private static func generatedAddEntries(signed: Bool, _ p: BinaryArithmeticReference.QuantizedAddParams,
                                            subtract: Bool) -> [UInt8] {
        var first = [UInt8](repeating: 0, count: 256)
        let second = (0..<256).map { UInt8($0) }
        return filledEntries { table in
            first.withUnsafeMutableBytes { first in
                second.withUnsafeBytes { second in
                    for hiByte in 0..<256 {
                        first.initializeMemory(as: UInt8.self, repeating: UInt8(hiByte))
                        let row = UnsafeMutableRawPointer(table + hiByte &<< 8)
                        if signed {
                            QuantizedBinaryArithmeticOptimized.add(p, subtract: subtract, range: 0..<256,
                                                                   first.baseAddress!.assumingMemoryBound(to: Int8.self),
                                                                   second.baseAddress!.assumingMemoryBound(to: Int8.self),
                                                                   row.assumingMemoryBound(to: Int8.self))
                        } else {
                            QuantizedBinaryArithmeticOptimized.add(p, subtract: subtract, range: 0..<256,
                                                                   first.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                                   second.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                                   row.assumingMemoryBound(to: UInt8.self))
                        }
                    }
                }
            }
        }
    }

    /// The table of quantized MUL, vectorized as `add` is.
    public static func mul(signed: Bool, _ p: BinaryArithmeticReference.QuantizedMulParams) -> QuantizedPairTable {
        guard QuantizedBinaryArithmeticOptimized.supports(p) else {
            return QuantizedPairTable(signed: signed) { BinaryArithmeticReference.quantizedMulElement($0, $1, p) }
        }
        let k = QuantizedBinaryArithmeticOptimized.MulConstants(p)
        return tabulated(signed: signed, { k.apply($0, $1) }) { BinaryArithmeticReference.quantizedMulElement($0, $1, p) }
    }

    /// Each 256-entry row (one first code against every second code, in byte order) through
    /// the vector element loop; `scalar` is the same function on one pair (the loop's tail,
    /// which 256-entry rows never reach).
    @inline(__always)
    private static func tabulated(signed: Bool, _ vector: (SIMD16<Int32>, SIMD16<Int32>) -> SIMD16<Int32>,
                                  scalar: (Int32, Int32) -> Int32) -> QuantizedPairTable {
        let table = filledEntries { out in
            if signed {
                let codes = (0..<256).map { Int8(truncatingIfNeeded: $0) }
                codes.withUnsafeBufferPointer { c in
                    let c = c.baseAddress!
                    out.withMemoryRebound(to: Int8.self, capacity: 65536) { o in
                        for hiByte in 0..<256 {
                            QuantizedBinaryArithmeticOptimized.run(range: 0..<256, c + hiByte, c, o + (hiByte << 8),
                                                    stepA: 0, stepB: 1, vector, scalar: scalar)
                        }
                    }
                }
            } else {
                let codes = (0..<256).map { UInt8(truncatingIfNeeded: $0) }
                codes.withUnsafeBufferPointer { c in
                    let c = c.baseAddress!
                    for hiByte in 0..<256 {
                        QuantizedBinaryArithmeticOptimized.run(range: 0..<256, c + hiByte, c, out + (hiByte << 8),
                                                stepA: 0, stepB: 1, vector, scalar: scalar)
                    }
                }
            }
        }
        return QuantizedPairTable(entries: table, signed: signed)
    }

    /// Same-shape operands (8-bit codes as bytes), over `range`.
    /// - Precondition: `range.lowerBound ≥ 0`; every pointer holds at least `range.upperBound` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    /// Blocks of 16 go through the generated linear form where the table has one; the rest
    /// through the table.
    public func apply(range: Range<Int>, _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>,
                      _ out: UnsafeMutablePointer<UInt8>) {
        KernelPrecondition.validRange(range)
        var first = range.lowerBound
        if let linearForm, let kernels = GeneratedKernels.current?.pairLinear {
            let blocks = range.count / 16
            var arguments = GeneratedPairLinearArguments(linearForm, a: a + first, b: b + first, output: out + first, blocks: blocks)
            withUnsafePointer(to: &arguments) { (signed ? kernels.signed : kernels.unsigned)(UnsafeRawPointer($0)) }
            first += blocks * 16
        }
        entries.withUnsafeBufferPointer { t in
            let t = t.baseAddress!
            for i in first..<range.upperBound { out[i] = t[Int(a[i]) &<< 8 | Int(b[i])] }
        }
    }

    /// Broadcast operands over the innermost `rows` of `layout`.
    /// - Precondition: `rows` lies in `0..<layout.rowCount`; the pointers hold the layout's operand and output elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public func apply(layout: BroadcastLayout, rows: Range<Int>, _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>,
                      _ out: UnsafeMutablePointer<UInt8>) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= layout.rowCount, "rows \(rows) outside 0..<\(layout.rowCount)")
        entries.withUnsafeBufferPointer { t in
            let t = t.baseAddress!
            let inner = layout.innerCount
            let sa = layout.stridesA[BroadcastLayout.maxRank - 1], sb = layout.stridesB[BroadcastLayout.maxRank - 1]
            layout.forEachRow(in: rows) { o, offA, offB in
                let pa = a + offA, pb = b + offB, po = out + o
                if sa == 1 && sb == 1 {
                    for i in 0..<inner { po[i] = t[Int(pa[i]) &<< 8 | Int(pb[i])] }
                } else if sa == 1 {
                    let row = t + Int(pb[0])
                    for i in 0..<inner { po[i] = row[Int(pa[i]) &<< 8] }
                } else if sb == 1 {
                    let row = t + (Int(pa[0]) &<< 8)
                    for i in 0..<inner { po[i] = row[Int(pb[i])] }
                } else {
                    let v = t[Int(pa[0]) &<< 8 | Int(pb[0])]
                    for i in 0..<inner { po[i] = v }
                }
            }
        }
    }
}
