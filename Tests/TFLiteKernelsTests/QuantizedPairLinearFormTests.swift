import MachineCode
import TestSupport
import XCTest
@testable import TFLiteKernels

/// `QuantizedPairLinearForm` (one rounding that reproduces an 8-bit ADD's pair table) and its
/// generated kernel (`QuantizedPairLinear16AVX`): every form the search returns equals its table
/// on all 65,536 pairs, on seeded random ADD and SUB parameters (int8 and uint8, fused clamps)
/// and on tables no linear form can reproduce; the kernel equals the form's arithmetic at every
/// level this CPU has.
final class QuantizedPairLinearFormTests: XCTestCase {
    /// Random ADD / SUB parameters as models have them: scales from 0.004 to 1, any zero points,
    /// and one in four with a ReLU-like or ReLU6-like clamp.
    private func randomParams(_ rng: inout SeededGenerator, signed: Bool) -> BinaryArithmeticReference.QuantizedAddParams {
        func scale() -> Float { Float(0.004 * pow(250, Double(rng.int(0...1000)) / 1000)) }
        let codes: ClosedRange<Int32> = signed ? -128...127 : 0...255
        func zeroPoint() -> Int32 { Int32(rng.int(Int(codes.lowerBound)...Int(codes.upperBound))) }
        let (outputScale, outputZeroPoint) = (scale(), zeroPoint())
        var (lo, hi) = (codes.lowerBound, codes.upperBound)
        if rng.int(0...3) == 0 {
            lo = max(lo, outputZeroPoint)
            if rng.int(0...1) == 0 { hi = min(hi, outputZeroPoint + Int32(6 / outputScale)) }
        }
        return .init(input1Scale: scale(), input1ZeroPoint: zeroPoint(), input2Scale: scale(), input2ZeroPoint: zeroPoint(),
                     outputScale: outputScale, outputZeroPoint: outputZeroPoint, leftShift: 20,
                     activationMin: lo, activationMax: hi)
    }

    /// The form found for `entries`, checked against every entry (nil when there is none).
    private func checkedForm(_ entries: [UInt8], signed: Bool, slopes: (Double, Double), range: ClosedRange<Int32>,
                             _ context: String) -> QuantizedPairLinearForm? {
        let form = entries.withUnsafeBufferPointer {
            QuantizedPairLinearForm.fit(table: $0.baseAddress!, signed: signed, slopes: slopes, range: range)
        }
        guard let form else { return nil }
        var mismatches = 0
        for index in 0..<65536 {
            let (a, b) = (index >> 8, index & 255)
            let code = { (byte: Int) in signed ? Int32(Int8(truncatingIfNeeded: byte)) : Int32(byte) }
            if UInt8(truncatingIfNeeded: form.code(code(a), code(b))) != entries[index] { mismatches += 1 }
        }
        XCTAssertEqual(mismatches, 0, "\(context): \(form) differs from the table")
        return form
    }

    func testEveryFormFoundEqualsItsTableOnAllPairs() {
        var rng = SeededGenerator(seed: 91)
        var found = 0, tried = 0
        for index in 0..<60 {
            let signed = index % 2 == 0, subtract = index % 5 == 4
            let p = randomParams(&rng, signed: signed)
            guard p.activationMin < p.activationMax else { continue }
            tried += 1
            let table = QuantizedPairTable.add(signed: signed, p, subtract: subtract)
            if checkedForm(table.entries, signed: signed, slopes: QuantizedPairTable.addSlopes(p, subtract: subtract),
                           range: p.activationMin...p.activationMax, "params \(p) subtract \(subtract)") != nil {
                found += 1
            }
        }
        print("linear forms found for \(found) of \(tried) random ADD / SUB tables")
        // The search is worth its cost only if it usually succeeds (14 of the 15 ADDs of the
        // project's models have a form; 59 of these 60 tables).
        XCTAssertGreaterThanOrEqual(found * 10, tried * 9, "forms found for \(found) of \(tried) tables")
    }

    /// The int8 ADDs of efficientnet_lite0 (the first nine) and yolov8n_int8_640 (the rest): input
    /// and output scales and zero points as the models declare them, no fused clamp.
    private static let modelADDs: [(Float, Int32, Float, Int32, Float, Int32)] = [
        (0.5775524377822876, -9, 0.555544912815094, 0, 0.6640229821205139, -11),
        (0.3364337384700775, -7, 0.4310333728790283, -6, 0.47853824496269226, -4),
        (0.2132219821214676, 13, 0.3495255410671234, 0, 0.3514518439769745, -1),
        (0.16366448998451233, -4, 0.3514518439769745, -1, 0.35038578510284424, 3),
        (0.2471333146095276, 21, 0.3584936261177063, 11, 0.41066551208496094, 18),
        (0.20945057272911072, 31, 0.41066551208496094, 18, 0.47447463870048523, 27),
        (0.2768358290195465, -12, 0.3589763343334198, 4, 0.3687673509120941, 2),
        (0.24415870010852814, -27, 0.3687673509120941, 2, 0.505604088306427, -16),
        (0.24852319061756134, -15, 0.505604088306427, -16, 0.5885397791862488, -19),
        (0.4230263829231262, -127, 0.3361687958240509, -127, 0.4230263829231262, -127),
        (0.07477343827486038, -117, 0.023818491026759148, -116, 0.07477343827486038, -117),
        (0.07477343827486038, -117, 0.0313916839659214, -119, 0.07477343827486038, -117),
        (0.05009612441062927, -111, 0.021411094814538956, -115, 0.05009612441062927, -111),
        (0.05009612441062927, -111, 0.03936052694916725, -121, 0.05009612441062927, -111),
        (0.05521112680435181, -118, 0.04115525260567665, -121, 0.05521112680435181, -118),
    ]

    func testTheProjectModelsADDsHaveForms() {
        var missing: [Int] = []
        for (index, q) in Self.modelADDs.enumerated() {
            let p = BinaryArithmeticReference.QuantizedAddParams(
                input1Scale: q.0, input1ZeroPoint: q.1, input2Scale: q.2, input2ZeroPoint: q.3, outputScale: q.4,
                outputZeroPoint: q.5, leftShift: 20, activationMin: -128, activationMax: 127)
            let table = QuantizedPairTable.add(signed: true, p, subtract: false)
            if checkedForm(table.entries, signed: true, slopes: QuantizedPairTable.addSlopes(p, subtract: false),
                           range: -128...127, "model ADD \(index)") == nil { missing.append(index) }
        }
        // efficientnet_lite0's 28 × 28 × 40 ADD has none at any shift from 14 to 25 (its table
        // keeps running it); the other fourteen have one.
        XCTAssertEqual(missing, [1], "model ADDs without a linear form")
    }

    /// Tables that are not one rounding of a linear function (a product; a clamp to one code;
    /// the ADD table with one entry changed) get no form, or one that still equals them.
    func testTablesWithoutAFormAreLeftToTheTable() throws {
        let mul = QuantizedPairTable.mul(signed: true, .init(input1Scale: 0.05, input1ZeroPoint: 3, input2Scale: 0.04,
                                                             input2ZeroPoint: -7, outputScale: 0.02, outputZeroPoint: 1,
                                                             activationMin: -128, activationMax: 127))
        XCTAssertNil(checkedForm(mul.entries, signed: true, slopes: (0.1, 0.1), range: -128...127, "MUL table"))
        let p = BinaryArithmeticReference.QuantizedAddParams(input1Scale: 0.05, input1ZeroPoint: 3, input2Scale: 0.04,
                                                             input2ZeroPoint: -7, outputScale: 0.07, outputZeroPoint: 1,
                                                             leftShift: 20, activationMin: -128, activationMax: 127)
        let add = QuantizedPairTable.add(signed: true, p, subtract: false)
        let slopes = QuantizedPairTable.addSlopes(p, subtract: false)
        XCTAssertNotNil(checkedForm(add.entries, signed: true, slopes: slopes, range: -128...127, "ADD table"))
        var broken = add.entries
        broken[(3 << 8) | 200] &+= 1
        XCTAssertNil(checkedForm(broken, signed: true, slopes: slopes, range: -128...127, "ADD table with one entry changed"))
        XCTAssertNil(checkedForm(add.entries, signed: true, slopes: slopes, range: 5...5, "a one-code clamp"))
        XCTAssertNil(checkedForm(add.entries, signed: true, slopes: (0, 0), range: -128...127, "no slope"))
    }

    func testArgumentBlockLayoutMatchesTheGeneratedCode() {
        typealias A = GeneratedPairLinearArguments
        typealias F = A.Field
        let fields: [(PartialKeyPath<A>, Int32)] = [
            (\A.a, F.a), (\A.b, F.b), (\A.output, F.output), (\A.blocks, F.blocks), (\A.multiplierA, F.multiplierA),
            (\A.multiplierB, F.multiplierB), (\A.addend, F.addend), (\A.shift, F.shift), (\A.minimum, F.minimum),
            (\A.maximum, F.maximum)]
        for (path, offset) in fields { XCTAssertEqual(MemoryLayout<A>.offset(of: path), Int(offset), "\(path)") }
    }

    /// The generated kernel equals `QuantizedPairLinearForm.code` on every count around its
    /// 16-element step, with codes at both extremes, in place and not, at every level from AVX2
    /// this CPU has; it writes nothing past its whole steps. Then `QuantizedPairTable.apply`
    /// (generated steps and table tail, at this process's level) equals the table.
    func testGeneratedKernelMatchesTheFormAtEveryLevel() throws {
        guard let cpu = CPUFeatures.current?.supportedLevel, cpu >= .avx2 else {
            throw XCTSkip("this CPU has no AVX2+FMA: the generated linear form cannot run here")
        }
        var rng = SeededGenerator(seed: 93)
        var forms: [(signed: Bool, params: BinaryArithmeticReference.QuantizedAddParams, form: QuantizedPairLinearForm)] = []
        while forms.count < 8 {
            let signed = forms.count % 2 == 0
            let p = randomParams(&rng, signed: signed)
            guard p.activationMin < p.activationMax else { continue }
            let entries = QuantizedPairTable.add(signed: signed, p, subtract: false).entries
            if let form = entries.withUnsafeBufferPointer({
                QuantizedPairLinearForm.fit(table: $0.baseAddress!, signed: signed, slopes: QuantizedPairTable.addSlopes(p, subtract: false),
                                            range: p.activationMin...p.activationMax)
            }) { forms.append((signed, p, form)) }
        }
        for level in InstructionSetLevel.allCases where level >= .avx2 && level <= cpu {
            let kernels = try GeneratedKernels(level: level)
            defer { withExtendedLifetime(kernels) {} }
            let pair = try XCTUnwrap(kernels.pairLinear)
            for (signed, _, form) in forms {
                let kernel = signed ? pair.signed : pair.unsigned
                for count in [0, 1, 15, 16, 17, 31, 32, 33, 64, 100, 1000] {
                    let a = (0..<count).map { i in UInt8(i < 256 ? i : rng.int(0...255)) }
                    let b = (0..<count).map { i in UInt8(i % 3 == 0 ? 255 - (i & 255) : rng.int(0...255)) }
                    let blocks = count / 16
                    let code = { (byte: UInt8) in signed ? Int32(Int8(bitPattern: byte)) : Int32(byte) }
                    let expected = (0..<(blocks * 16)).map { UInt8(truncatingIfNeeded: form.code(code(a[$0]), code(b[$0]))) }
                    for inPlace in [false, true] {
                        var out = inPlace ? a + [UInt8](repeating: 0xA5, count: 16) : [UInt8](repeating: 0xA5, count: count + 16)
                        a.withUnsafeBufferPointer { x in
                            b.withUnsafeBufferPointer { y in
                                out.withUnsafeMutableBufferPointer { o in
                                    let first = inPlace ? UnsafeRawPointer(o.baseAddress!) : UnsafeRawPointer(x.baseAddress ?? UnsafePointer(bitPattern: 1)!)
                                    var arguments = GeneratedPairLinearArguments(
                                        form, a: first, b: UnsafeRawPointer(y.baseAddress ?? UnsafePointer(bitPattern: 1)!),
                                        output: UnsafeMutableRawPointer(o.baseAddress!), blocks: blocks)
                                    withUnsafePointer(to: &arguments) { kernel(UnsafeRawPointer($0)) }
                                }
                            }
                        }
                        let context = "\(level) signed \(signed) count \(count) in place \(inPlace)"
                        XCTAssertEqual(Array(out[0..<(blocks * 16)]), expected, context)
                        XCTAssertEqual(Array(out[(blocks * 16)...]), inPlace ? Array(a[(blocks * 16)...]) + [UInt8](repeating: 0xA5, count: 16)
                                                                             : [UInt8](repeating: 0xA5, count: count - blocks * 16 + 16),
                                       "wrote past the whole steps: \(context)")
                    }
                }
            }
        }
        // The public entry point at this process's level: generated steps and table tail together.
        for (signed, p, _) in forms {
            let table = QuantizedPairTable.add(signed: signed, p, subtract: false)
            for count in [1, 16, 37, 1000] {
                let a = (0..<count).map { _ in UInt8(rng.int(0...255)) }, b = (0..<count).map { _ in UInt8(rng.int(0...255)) }
                var out = [UInt8](repeating: 0, count: count)
                a.withUnsafeBufferPointer { x in
                    b.withUnsafeBufferPointer { y in
                        out.withUnsafeMutableBufferPointer { table.apply(range: 0..<count, x.baseAddress!, y.baseAddress!, $0.baseAddress!) }
                    }
                }
                XCTAssertEqual(out, (0..<count).map { table.entries[Int(a[$0]) << 8 | Int(b[$0])] }, "apply, count \(count)")
            }
        }
    }
}
