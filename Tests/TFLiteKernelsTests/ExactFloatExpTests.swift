#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MachineCode
import TestSupport
import XCTest
@testable import TFLiteKernels

/// `ExactFloatExp` equals the C library's `expf` bit for bit, and the optimized float LOGISTIC
/// equals the reference's (hybrid models quantize LOGISTIC outputs on the fly: one ulp can
/// move a value across a rounding boundary and change thousands of outputs).
final class ExactFloatExpTests: XCTestCase {
    func testExpMatchesTheCLibraryBitForBit() {
        var rng = SeededGenerator(seed: 71)
        // The two floats where the two reductions of C libraries differ (`reducesInOneRounding`).
        var inputs: [Float] = Self.reductionWitnesses + [0, -0, 1, -1, 0.5, -9, 16.619047, 88, -88, 88.72284, -103.97, -104, 89,
                               .infinity, -.infinity, .nan, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                               -.greatestFiniteMagnitude]
        // Every float of |x| < 20 at a stride, and random bit patterns.
        var bits: UInt32 = 0
        while bits < 0x41A0_0000 {
            inputs.append(Float(bitPattern: bits)); inputs.append(-Float(bitPattern: bits))
            bits &+= 997
        }
        for _ in 0..<200_000 { inputs.append(Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))) }
        // Every float from −110 to −88: the eight-lane form's subnormal results, and its zeros below
        // the table method's range.
        let subnormalResults = Array(sequence(first: Float(-110), next: { $0.nextUp < -88 ? $0.nextUp : nil }))
            + [-.infinity, -1e30, -.greatestFiniteMagnitude, -0x1.9fe368p6, -0x1.9fe366p6, -0x1.9fe36ap6, -104, -200]
        inputs += subnormalResults
        var vectorDiffering: [Float] = []
        for start in stride(from: 0, to: subnormalResults.count - 7, by: 8) {
            let v = SIMD8(subnormalResults[start ..< start + 8])
            guard ExactFloatExp.lanesInRange(v) else { continue }
            let e = ExactFloatExp.exp(v)
            for lane in 0..<8 where e[lane].bitPattern != expf(v[lane]).bitPattern { vectorDiffering.append(v[lane]) }
        }
        XCTAssertEqual(vectorDiffering.count, 0, "the eight-lane exp differs from expf at \(vectorDiffering.prefix(5))")
        XCTAssertTrue(ExactFloatExp.lanesInRange(SIMD8(repeating: -.infinity)))
        XCTAssertFalse(ExactFloatExp.lanesInRange(SIMD8(repeating: 88)))
        XCTAssertFalse(ExactFloatExp.lanesInRange(SIMD8(repeating: .nan)))
        var differing: [Float] = []
        for x in inputs {
            let ours = ExactFloatExp.exp(x), libm = expf(x)
            if ours.bitPattern != libm.bitPattern && !(ours.isNaN && libm.isNaN) { differing.append(x) }
        }
        XCTAssertEqual(differing.count, 0, "differs from expf at \(differing.prefix(5)) (of \(inputs.count) inputs)")
    }

    /// −63.09946 and 32.564632: the only floats of the table range where rounding the reduced
    /// argument once or twice gives different `expf`s (found exhaustively).
    static let reductionWitnesses = [Float(bitPattern: 0xC27C_65D9), Float(bitPattern: 0x4202_422F)]

    /// Both reductions, at the witnesses, against their results in glibc 2.36's two variants
    /// (the FMA one here, the baseline one on CPUs without FMA and AVX2): the Swift form with
    /// either setting, and the generated logistic of each width emitted both ways (below −9 the
    /// logistic is `exp`, above 16.6 it is 1, so the witness −63.09946 shows in both and
    /// −32.564632 in neither, as the kernel's `1 / (1 + e)` rounds it away).
    func testBothReductionsMatchTheirLibraries() throws {
        let (low, high) = (Self.reductionWitnesses[0], Self.reductionWitnesses[1])
        XCTAssertEqual(ExactFloatExp.exp(low, oneRounding: true).bitPattern, 0x11FA_2993)
        XCTAssertEqual(ExactFloatExp.exp(low, oneRounding: false).bitPattern, 0x11FA_2992)
        XCTAssertEqual(ExactFloatExp.exp(high, oneRounding: true).bitPattern, 0x56FC_9F1C)
        XCTAssertEqual(ExactFloatExp.exp(high, oneRounding: false).bitPattern, 0x56FC_9F1B)
        XCTAssertEqual(ExactFloatExp.reducesInOneRounding, expf(low).bitPattern == 0x11FA_2993)
        guard let cpu = CPUFeatures.current?.supportedLevel, cpu >= .avx2 else {
            throw XCTSkip("this CPU has no AVX2+FMA: the generated logistic cannot run here")
        }
        let x = Self.reductionWitnesses.flatMap { [$0, -$0] } + logisticInputs()
        for width in cpu >= .avx512 ? [VectorRegister.Width.ymm, .zmm] : [.ymm] {
            for oneRounding in [true, false] {
                var a = Assembler()
                a.prefersEVEX = width == .zmm
                ExactLogisticAVX.emit(width: width, fused: oneRounding, into: &a)
                let code = try ExecutableCode(try a.finish())
                let kernel = unsafeBitCast(code.address(at: 0), to: ExactLogisticAVX.Function.self)
                var got = [Float](repeating: 7, count: x.count)
                let n = ExactFloatExp.table.withUnsafeBytes { table in
                    x.withUnsafeBytes { source in
                        got.withUnsafeMutableBytes { destination in
                            var arguments = GeneratedLogisticArguments(source: source.baseAddress!, destination: destination.baseAddress!,
                                                                       count: x.count, table: table.baseAddress!)
                            return withExtendedLifetime(code) { withUnsafePointer(to: &arguments) { kernel(UnsafeRawPointer($0)) } }
                        }
                    }
                }
                XCTAssertGreaterThan(n, x.count / 2, "\(width) stopped early")
                let differing = (0..<n).filter { got[$0].bitPattern != ExactFloatExp.logistic(x[$0], oneRounding: oneRounding).bitPattern }
                XCTAssertEqual(differing.count, 0, "\(width) one rounding \(oneRounding): differs at \(differing.prefix(5).map { x[$0] })")
                XCTAssertEqual(got[0].bitPattern, oneRounding ? 0x11FA_2993 : 0x11FA_2992, "\(width) at the witness")
            }
        }
    }

    func testOptimizedLogisticIsBitExactWithTheReference() {
        var rng = SeededGenerator(seed: 72)
        var x = (0..<100_000).map { _ in rng.float() * 20 }
        x += [-9, -9.000001, 16.619047, 16.62, 0, -0, 0.5, -0.5, .infinity, -.infinity, .nan, -200, 200]
        var reference = [Float](repeating: 0, count: x.count), optimized = [Float](repeating: .nan, count: x.count)
        ActivationReference.float32(.logistic, range: 0..<x.count, x, &reference)
        ActivationOptimized.float32(.logistic, range: 0..<x.count, x, &optimized)
        XCTAssertNil(TolerantCompare.exactMismatch(optimized.map(Double.init), reference.map(Double.init)))
    }

    func testArgumentBlockLayoutMatchesTheGeneratedCode() {
        typealias A = GeneratedLogisticArguments
        typealias F = A.Field
        let fields: [(PartialKeyPath<A>, Int32)] = [
            (\A.source, F.source), (\A.destination, F.destination), (\A.count, F.count), (\A.table, F.table),
            (\A.inverseLn2N, F.inverseLn2N), (\A.shift, F.shift), (\A.c0, F.c0), (\A.c1, F.c1), (\A.c2, F.c2),
            (\A.oneDouble, F.oneDouble), (\A.lowerBound, F.lowerBound), (\A.upperBound, F.upperBound),
            (\A.zeroBound, F.zeroBound), (\A.oneFloat, F.oneFloat), (\A.signBit, F.signBit)]
        for (path, offset) in fields { XCTAssertEqual(MemoryLayout<A>.offset(of: path), Int(offset), "\(path)") }
        let x: [Float] = [1, 2], other = [UInt64](repeating: 0, count: 32)
        var out: [Float] = [0, 0]
        x.withUnsafeBytes { x in
            out.withUnsafeMutableBytes { out in
                ExactFloatExp.table.withUnsafeBytes { table in
                    other.withUnsafeBytes { other in
                        let good = A(source: x.baseAddress!, destination: out.baseAddress!, count: 2, table: table.baseAddress!)
                        XCTAssertNil(good.violation())
                        var negative = good
                        negative.count = -1
                        XCTAssertNotNil(negative.violation())
                        var wrongTable = good
                        wrongTable.table = other.baseAddress!
                        XCTAssertNotNil(wrongTable.violation())
                    }
                }
            }
        }
    }

    /// Inputs for the generated logistic: every float of |x| < 100 at a stride (both signs),
    /// random bit patterns, and rows that put the comparison boundaries (−88, −9, 16.619047),
    /// NaNs, infinities, zeros and subnormals at every position of a step.
    private func logisticInputs() -> [Float] {
        var rng = SeededGenerator(seed: 73)
        var x: [Float] = []
        var bits: UInt32 = 0
        while bits < 0x42C8_0000 {
            x.append(Float(bitPattern: bits)); x.append(-Float(bitPattern: bits))
            bits &+= 331
        }
        for _ in 0..<300_000 { x.append(Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))) }
        let lowest = ExactFloatExp.lowestTableArgument
        let edges: [Float] = [-88, Float(-88).nextUp, Float(-88).nextDown, -87.5, -85.5, -9, Float(-9).nextUp, Float(-9).nextDown,
                              lowest, lowest.nextUp, lowest.nextDown, -100, -95.25, -103.3,
                              ExactFloatExp.logisticOne, ExactFloatExp.logisticOne.nextUp, ExactFloatExp.logisticOne.nextDown,
                              88, 89, 100, .nan, -.nan, .infinity, -.infinity, 0, -0.0, .leastNonzeroMagnitude,
                              -.leastNonzeroMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude]
        for edge in edges {
            for position in 0..<8 { x += (0..<16).map { $0 == position ? edge : rng.float() * 6 - 3 } }
        }
        return x
    }

    /// The generated logistic of each level this CPU has, plain and times its input, equals the
    /// scalar form bit for bit, on whole rows and on lengths around the step (tails, and steps
    /// it leaves to Swift); so does the portable SIMD path. A NaN input's product is NaN with
    /// either operand's payload (x86 keeps the first operand's; the MUL's operand order is the
    /// graph's), so products compare NaN to NaN.
    func testGeneratedLogisticIsBitExactAtEveryLevel() throws {
        guard let cpu = CPUFeatures.current?.supportedLevel, cpu >= .avx2 else {
            throw XCTSkip("this CPU has no AVX2+FMA: the generated logistic cannot run here")
        }
        let x = logisticInputs()
        for timesInput in [false, true] {
            func scalar(_ v: Float) -> UInt32 {
                let y = timesInput ? v * ExactFloatExp.logistic(v) : ExactFloatExp.logistic(v)
                return timesInput && y.isNaN ? Float.nan.bitPattern : y.bitPattern
            }
            func bits(_ y: Float) -> UInt32 { timesInput && y.isNaN ? Float.nan.bitPattern : y.bitPattern }
            let want = x.map(scalar)
            let levels = InstructionSetLevel.allCases.filter { $0 >= .avx2 && $0 <= cpu }
            for level in [InstructionSetLevel.sse2] + levels {
                let kernels = level == .sse2 ? nil : try GeneratedKernels(level: level)
                XCTAssertTrue(level == .sse2 || kernels?.exactLogistic != nil, "\(level)")
                var got = [Float](repeating: 7, count: x.count + 8)
                ExactFloatExp.logistic(x, &got, count: x.count, timesInput: timesInput, kernels: kernels)
                let differing = (0..<x.count).filter { bits(got[$0]) != want[$0] }
                XCTAssertEqual(differing.count, 0, "\(level) \(timesInput): differs at x = \(differing.prefix(5).map { x[$0] })")
                XCTAssertTrue(got[x.count...].allSatisfy { $0 == 7 }, "\(level): wrote past the row")
                for count in 0..<40 {
                    let start = 8 * 16 * 5 + count   // inside the edge rows
                    let row = Array(x[x.count - start ..< x.count - start + count])
                    var out = [Float](repeating: 7, count: count + 9)
                    ExactFloatExp.logistic(row, &out, count: count, timesInput: timesInput, kernels: kernels)
                    XCTAssertEqual(out[..<count].map(bits), row.map(scalar), "\(level) \(timesInput) count \(count)")
                    XCTAssertTrue(out[count...].allSatisfy { $0 == 7 }, "\(level) count \(count): wrote past the row")
                }
                withExtendedLifetime(kernels) {}
            }
        }
    }

    /// The generated kernel itself stops before a step holding a NaN, having written nothing of
    /// that step (the steps before it written, the other step of its pair included), and
    /// otherwise writes `count / 8 · 8` values.
    func testGeneratedLogisticStopsBeforeStepsItCannotCompute() throws {
        guard let cpu = CPUFeatures.current?.supportedLevel, cpu >= .avx2 else {
            throw XCTSkip("this CPU has no AVX2+FMA: the generated logistic cannot run here")
        }
        for level in InstructionSetLevel.allCases where level >= .avx2 && level <= cpu {
            let kernels = try GeneratedKernels(level: level)   // owns the code: alive to the end of the loop body
            for (timesInput, kernel) in [(false, try XCTUnwrap(kernels.exactLogistic).plain),
                                         (true, try XCTUnwrap(kernels.exactLogistic).timesInput)] {
                let lowest = ExactFloatExp.lowestTableArgument
                // NaNs in either step of a pair (AVX-512 runs two steps at a time) and in a last single step.
                for (special, position, count, written) in [(Float.nan, 19, 40, 16), (-Float.nan, 3, 40, 0),
                                                            (Float.nan, 27, 40, 24), (Float.nan, 10, 40, 8),
                                                            (Float.nan, 33, 40, 32), (Float.nan, 36, 43, 32),
                                                            (lowest, 8, 40, 40), (lowest.nextDown, 3, 40, 40),
                                                            (-1000, 3, 40, 40), (-88, 8, 40, 40),
                                                            (.infinity, 0, 43, 40), (-.infinity, 39, 40, 40)] {
                    var x = (0..<count).map { Float($0) / 4 - 5 }
                    x[position] = special
                    var out = [Float](repeating: 7, count: count)
                    let n = ExactFloatExp.table.withUnsafeBytes { table in
                        x.withUnsafeBytes { source in
                            out.withUnsafeMutableBytes { destination in
                                var arguments = GeneratedLogisticArguments(source: source.baseAddress!, destination: destination.baseAddress!,
                                                                           count: count, table: table.baseAddress!)
                                return withUnsafePointer(to: &arguments) { kernel(UnsafeRawPointer($0)) }
                            }
                        }
                    }
                    XCTAssertEqual(n, written, "\(level): \(special) at \(position)")
                    XCTAssertEqual(out[..<n].map(\.bitPattern),
                                   x[..<n].map { (timesInput ? $0 * ExactFloatExp.logistic($0) : ExactFloatExp.logistic($0)).bitPattern },
                                   "\(level) \(timesInput)")
                    XCTAssertTrue(out[n...].allSatisfy { $0 == 7 }, "\(level): \(special) at \(position) wrote past \(n)")
                }
            }
            withExtendedLifetime(kernels) {}
        }
    }
}
