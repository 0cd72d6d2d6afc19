import MachineCode
import TestSupport
import XCTest
@testable import TFLiteKernels

/// The vector same-type 8-bit softmax rows (the Swift rows, and the generated AVX-512 passes
/// where the CPU has them) against the reference kernel on edge rows: depths around the 16-lane
/// blocks (YOLOv8's distribution-focal-loss rows are 16 wide), constant rows, rows spanning the
/// whole code range, and extreme betas and input scales.
final class SoftmaxVectorTests: XCTestCase {
    private func rows(_ rng: inout SeededGenerator, depth: Int, count: Int) -> [Int8] {
        var x: [Int8] = []
        for r in 0..<count {
            switch r % 4 {
            case 0: x += Array(repeating: Int8.random(in: .min ... .max, using: &rng), count: depth)
            case 1: x += (0..<depth).map { $0 % 2 == 0 ? Int8.min : Int8.max }
            default: x += (0..<depth).map { _ in Int8.random(in: .min ... .max, using: &rng) }
            }
        }
        return x
    }

    private static let settings: [(beta: Float, scale: Float)] = [(1, 0.22119), (1, 1e-4), (1, 2.0), (0.01, 0.1), (20, 0.5),
                                                                  (1, 0.00390625)]

    func testVectorRowsMatchReference() {
        var rng = SeededGenerator(seed: 61)
        let settings = Self.settings
        for (beta, scale) in settings {
            let p = SoftmaxReference.QuantizedParams(beta: beta, inputScale: scale)
            let table = QuantizedSoftmaxTable(p)
            for depth in [1, 2, 15, 16, 17, 31, 32, 48, 80, 257] {
                let count = 37  // groups of 16 rows share their reciprocals: two full groups, a partial one
                let x = rows(&rng, depth: depth, count: count)
                var want = [Int8](repeating: 0, count: x.count), got = want
                SoftmaxReference.int8(p, depth: depth, rows: 0..<count, x, &want)
                // Two chunks of rows, as a thread split would give.
                table.int8(depth: depth, rows: 0..<4, x, &got)
                table.int8(depth: depth, rows: 4..<21, x, &got)
                table.int8(depth: depth, rows: 21..<count, x, &got)
                XCTAssertEqual(got, want, "int8 beta \(beta) scale \(scale) depth \(depth)")
                let u = x.map { UInt8(bitPattern: $0) }
                var wantU = [UInt8](repeating: 0, count: x.count), gotU = wantU
                SoftmaxReference.uint8(p, depth: depth, rows: 0..<count, u, &wantU)
                table.uint8(depth: depth, rows: 0..<count, u, &gotU)
                XCTAssertEqual(gotU, wantU, "uint8 beta \(beta) scale \(scale) depth \(depth)")
            }
        }
    }

    /// The generated passes (`QuantizedSoftmax16AVX512`) against the reference on the same rows,
    /// int8 and uint8, in row chunks that split the groups of 16 as threads would, with guard
    /// bytes after the output that must stay untouched (the masked last step writes nothing past
    /// a row). The default path runs them too where `GeneratedKernels.current` has them; this
    /// test runs them explicitly, and skips with a message on CPUs without AVX-512.
    func testGeneratedRowsMatchReference() throws {
        guard let cpu = CPUFeatures.current, cpu.supportedLevel >= .avx512 else {
            throw XCTSkip("this CPU has no AVX-512: the generated softmax rows cannot run here")
        }
        let kernels = try GeneratedKernels(level: .avx512)   // owns the code: kept alive to the end
        defer { withExtendedLifetime(kernels) {} }
        let generated = try XCTUnwrap(kernels.softmax)
        XCTAssertNil(try GeneratedKernels(level: .avx2).softmax)
        var rng = SeededGenerator(seed: 63)
        for (beta, scale) in Self.settings {
            let p = SoftmaxReference.QuantizedParams(beta: beta, inputScale: scale)
            let table = QuantizedSoftmaxTable(p)
            // The generated pass rescales each exponential to the sum's integer bits with one
            // rounding shift instead of reading `sumTerms`: the two agree on every entry.
            let bits = SoftmaxReference.QuantizedParams.accumulationIntegerBits
            for (e, term) in zip(table.exps, table.sumTerms) {
                XCTAssertGreaterThanOrEqual(e, 0)
                XCTAssertEqual(Int32(bitPattern: (UInt32(bitPattern: e) &+ (1 << (bits - 1))) >> bits), term, "exp \(e)")
            }
            for depth in [1, 2, 15, 16, 17, 31, 32, 48, 80, 257, 1001] {
                let count = 37
                let x = rows(&rng, depth: depth, count: count)
                let guardBytes = 64
                var want = [Int8](repeating: 0, count: x.count)
                SoftmaxReference.int8(p, depth: depth, rows: 0..<count, x, &want)
                var got = [Int8](repeating: 0x55, count: x.count + guardBytes)
                for chunk in [0..<4, 4..<21, 21..<count] {
                    table.runGenerated(generated, depth: depth, rows: chunk, x, &got, workspace: nil)
                }
                XCTAssertEqual(Array(got[..<x.count]), want, "int8 beta \(beta) scale \(scale) depth \(depth)")
                XCTAssertTrue(got[x.count...].allSatisfy { $0 == 0x55 }, "int8 depth \(depth): wrote past the rows")
                let u = x.map { UInt8(bitPattern: $0) }
                var wantU = [UInt8](repeating: 0, count: x.count)
                SoftmaxReference.uint8(p, depth: depth, rows: 0..<count, u, &wantU)
                var gotU = [UInt8](repeating: 0x55, count: x.count + guardBytes)
                table.runGenerated(generated, depth: depth, rows: 0..<count, u, &gotU, workspace: nil)
                XCTAssertEqual(Array(gotU[..<x.count]), wantU, "uint8 beta \(beta) scale \(scale) depth \(depth)")
                XCTAssertTrue(gotU[x.count...].allSatisfy { $0 == 0x55 }, "uint8 depth \(depth): wrote past the rows")
            }
        }
    }

    func testGeneratedArgumentBlockLayoutMatchesTheGeneratedCode() {
        typealias A = GeneratedSoftmaxArguments
        typealias F = A.Field
        let fields: [(PartialKeyPath<A>, Int32)] = [
            (\A.input, F.input), (\A.output, F.output), (\A.exponentials, F.exponentials), (\A.rows, F.rows),
            (\A.depth, F.depth), (\A.tailMask, F.tailMask), (\A.table, F.table), (\A.sums, F.sums),
            (\A.scales, F.scales), (\A.addends, F.addends), (\A.shifts, F.shifts), (\A.lowest, F.lowest),
            (\A.outputMin, F.outputMin), (\A.outputMax, F.outputMax), (\A.termRounding, F.termRounding)]
        for (path, offset) in fields { XCTAssertEqual(MemoryLayout<A>.offset(of: path), Int(offset), "\(path)") }
        // The contract check: groups of 1…16 rows, the depth's tail mask, a non-empty output range.
        let p = UnsafeMutableRawPointer(bitPattern: 64)!
        var block = A(input: p, output: p, exponentials: p, rows: 16, depth: 17, tailMask: 1, table: p, sums: p, scales: p,
                      addends: p, shifts: p, lowest: -128, outputMin: -128, outputMax: 127)
        XCTAssertNil(block.violation())
        block.rows = 17
        XCTAssertNotNil(block.violation())
        block.rows = 1; block.tailMask = 0
        XCTAssertNotNil(block.violation())
        block.depth = 32
        XCTAssertNil(block.violation())
    }

    /// The 16-lane reciprocal equals the scalar one on every power of two, its neighbours, the
    /// extremes and 200,000 random positive sums, at the softmax's and the division's integer bits.
    func testVectorReciprocalMatchesScalar() {
        var rng = SeededGenerator(seed: 62)
        var values: [Int32] = [1, 2, 3, Int32.max, Int32.max - 1]
        for k in 0..<31 { values += [Int32(1) << k, (Int32(1) << k) &+ 1, max(1, (Int32(1) << k) &- 1)] }
        values += (0..<200_000).map { _ in Int32.random(in: 1 ... .max, using: &rng) }
        values += (0..<20_000).map { _ in Int32.random(in: 1 ... (1 << 24), using: &rng) }
        for digits in [12, 31] {
            for start in stride(from: 0, to: values.count - 15, by: 16) {
                let lanes = Array(values[start..<(start + 16)])
                var value = [Int32](repeating: 0, count: 16), bits = value
                FixedPointReciprocalSIMD.reciprocals(lanes, integerDigits: digits, values: &value, bitsOverUnit: &bits)
                for l in 0..<16 {
                    let (want, wantBits) = GemmlowpFixedPoint.reciprocal(lanes[l], integerDigits: digits)
                    XCTAssertEqual(value[l], want, "1/\(lanes[l]) at \(digits) integer bits")
                    XCTAssertEqual(Int(bits[l]), wantBits, "bits over unit of \(lanes[l])")
                }
            }
        }
    }
}
