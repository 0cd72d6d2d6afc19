import MachineCode
import TestSupport
import XCTest
@testable import TFLiteKernels

/// The vectorized passes of `HybridInputQuantizer` (generated at this process's level, and
/// portable) against the scalar loops TFLite's `SymmetricQuantizeFloats` /
/// `AsymmetricQuantizeFloats` describe (written out here), value for value and scale for scale,
/// on rows with ties, NaNs, infinities, signed zeros, subnormals, constants and lengths around
/// the vector widths; and the generated passes of every level this CPU has against the portable.
final class HybridInputQuantizerTests: XCTestCase {
    /// The scalar bounds: `if v < lo { lo = v }`, `if v > hi { hi = v }` from the first value.
    private func scalarRange(_ x: [Float]) -> (Float, Float) {
        var lo = x[0], hi = x[0]
        for v in x.dropFirst() {
            if v < lo { lo = v }
            if v > hi { hi = v }
        }
        return (lo, hi)
    }

    private func scalarSymmetric(_ x: [Float]) -> (q: [Int8], scale: Float) {
        let (lo, hi) = scalarRange(x)
        let range = max(abs(lo), abs(hi))
        if range == 0 { return ([Int8](repeating: 0, count: x.count), 1) }
        let inverse: Float = 127 / range
        let q = x.map { Int8(min(127, max(-127, Int32(clampingToInt32: ($0 * inverse).rounded(.toNearestOrAwayFromZero))))) }
        return (q, range / 127)
    }

    /// The asymmetric values for the scale and zero point the quantizer chose (those come from
    /// scalar Double arithmetic it keeps).
    private func scalarAsymmetricValues(_ x: [Float], scale: Float, offset: Int32) -> [Int8] {
        let inverse: Float = 1 / scale, floatOffset = Float(offset)
        return x.map { Int8(min(127, max(-128, Int32(clampingToInt32: (floatOffset + $0 * inverse).rounded(.toNearestOrAwayFromZero))))) }
    }

    private func rows() -> [(String, [Float])] {
        var rng = SeededGenerator(seed: 91)
        var rows: [(String, [Float])] = []
        for count in [1, 2, 15, 16, 17, 31, 32, 33, 100, 1000] {
            rows.append(("random \(count)", (0..<count).map { _ in rng.float() * 8 - 3 }))
        }
        // Ties: with max |x| = 127 the inverse is 1, so k + 0.5 rounds away from zero.
        let ties: [Float] = (0..<80).map { (k: Int) -> Float in
            let step: Float = k % 2 == 0 ? 0.5 : -0.5
            return Float(k % 254 - 127) + step
        }
        rows.append(("ties", [127] + ties))
        let nearTies: [Float] = (0..<80).map { (k: Int) -> Float in
            let below: Float = Float(0.5).nextDown
            return Float(k % 120) + below + Float(k % 3) * Float(0.5).ulp
        }
        rows.append(("near ties", [127] + nearTies))
        rows.append(("NaN first", [.nan] + (0..<40).map { Float($0) }))
        rows.append(("NaN inside", (0..<40).map { $0 == 21 ? .nan : Float($0) - 20 }))
        rows.append(("infinity", (0..<40).map { $0 == 30 ? .infinity : Float($0) }))
        rows.append(("minus infinity", (0..<40).map { $0 == 3 ? -.infinity : Float($0) }))
        rows.append(("signed zeros", (0..<40).map { $0 % 2 == 0 ? 0 : -0.0 }))
        rows.append(("zeros and one", (0..<40).map { $0 == 39 ? -1 : ($0 % 2 == 0 ? 0 : -0.0) }))
        rows.append(("constant", [Float](repeating: 0.3, count: 48)))
        rows.append(("negative constant", [Float](repeating: -2.5, count: 48)))
        rows.append(("extremes", (0..<40).map { $0 % 3 == 0 ? .greatestFiniteMagnitude : -Float.greatestFiniteMagnitude / Float($0 + 1) }))
        rows.append(("subnormals", (0..<40).map { Float.leastNonzeroMagnitude * Float($0 - 17) }))
        rows.append(("all positive", (0..<64).map { 1 + Float($0) / 7 }))
        rows.append(("all negative", (0..<64).map { -1 - Float($0) / 9 }))
        return rows
    }

    func testSymmetricEqualsTheScalarLoop() {
        for (name, x) in rows() {
            var got = [Int8](repeating: 99, count: x.count)
            let scale = HybridInputQuantizer.symmetric(x, count: x.count, into: &got)
            let want = scalarSymmetric(x)
            XCTAssertEqual(got, want.q, name)
            XCTAssertEqual(scale.bitPattern, want.scale.bitPattern, name)
        }
    }

    func testAsymmetricEqualsTheScalarLoop() {
        for (name, x) in rows() {
            var got = [Int8](repeating: 99, count: x.count)
            let (scale, offset) = HybridInputQuantizer.asymmetric(x, count: x.count, into: &got)
            let (lo, hi) = scalarRange(x)
            if min(0, lo) == max(0, hi) {
                XCTAssertEqual(got, [Int8](repeating: 0, count: x.count), name)
                continue
            }
            XCTAssertEqual(got, scalarAsymmetricValues(x, scale: scale, offset: offset), name)
        }
    }

    func testArgumentBlockLayoutMatchesTheGeneratedCode() {
        typealias A = GeneratedHybridQuantizeArguments
        typealias F = A.Field
        let fields: [(PartialKeyPath<A>, Int32)] = [
            (\A.source, F.source), (\A.destination, F.destination), (\A.count, F.count), (\A.inverse, F.inverse),
            (\A.offset, F.offset), (\A.lower, F.lower), (\A.upper, F.upper), (\A.bounds, F.bounds)]
        for (path, offset) in fields { XCTAssertEqual(MemoryLayout<A>.offset(of: path), Int(offset), "\(path)") }
    }

    /// The generated passes of each level equal the portable ones: the same bounds (a zero bound
    /// may differ in sign), the same bytes for symmetric and asymmetric parameters, extreme
    /// scales that the clamp meets, and NaN products; nothing written past the row.
    func testGeneratedPassesEqualThePortableOnes() throws {
        guard let cpu = CPUFeatures.current?.supportedLevel, cpu >= .avx2 else {
            throw XCTSkip("this CPU has no AVX2+FMA: the generated quantizer cannot run here")
        }
        for level in InstructionSetLevel.allCases where level >= .avx2 && level <= cpu {
            let kernels = try GeneratedKernels(level: level)
            defer { withExtendedLifetime(kernels) {} }
            XCTAssertEqual(try XCTUnwrap(kernels.hybridQuantize).lanes, level >= .avx512 ? 16 : 8)
            for (name, x) in rows() {
                let (got, want) = x.withUnsafeBufferPointer {
                    (HybridInputQuantizer.valueRange($0.baseAddress!, count: x.count, kernels: kernels),
                     HybridInputQuantizer.valueRange($0.baseAddress!, count: x.count, kernels: nil))
                }
                XCTAssertTrue(got.lo == want.lo || (got.lo.isNaN && want.lo.isNaN), "\(level) \(name): lo \(got.lo) \(want.lo)")
                XCTAssertTrue(got.hi == want.hi || (got.hi.isNaN && want.hi.isNaN), "\(level) \(name): hi \(got.hi) \(want.hi)")
                let parameters: [(inverse: Float, offset: Float, lower: Float, upper: Float)] = [
                    (1, 0, -127, 127), (127 / 3, 0, -127, 127), (0.37, -128, -128, 127), (2.5, 17, -128, 127),
                    (1e30, 0, -127, 127), (-3, 5, -128, 127), (.infinity, 0, -127, 127)]
                for p in parameters {
                    var generated = [Int8](repeating: 99, count: x.count + 16), portable = generated
                    x.withUnsafeBufferPointer { v in
                        HybridInputQuantizer.quantize(v.baseAddress!, count: x.count, inverse: p.inverse, offset: p.offset,
                                                      lower: p.lower, upper: p.upper, into: &generated, kernels: kernels)
                        HybridInputQuantizer.quantize(v.baseAddress!, count: x.count, inverse: p.inverse, offset: p.offset,
                                                      lower: p.lower, upper: p.upper, into: &portable, kernels: nil)
                    }
                    XCTAssertEqual(generated, portable, "\(level) \(name) \(p)")
                    XCTAssertTrue(generated[x.count...].allSatisfy { $0 == 99 }, "\(level) \(name): wrote past the row")
                }
            }
        }
    }

    /// The bounds are the scalar loop's (NaN-ness and magnitude; a zero bound may differ in sign).
    func testValueRangeEqualsTheScalarLoop() {
        for (name, x) in rows() {
            let got = x.withUnsafeBufferPointer { HybridInputQuantizer.valueRange($0.baseAddress!, count: x.count) }
            let want = scalarRange(x)
            XCTAssertTrue(got.lo == want.0 || (got.lo.isNaN && want.0.isNaN), "\(name): lo \(got.lo) \(want.0)")
            XCTAssertTrue(got.hi == want.1 || (got.hi.isNaN && want.1.isNaN), "\(name): hi \(got.hi) \(want.1)")
        }
    }

    /// Bounds found chunk by chunk, each chunk seeded with the row's first value and the chunks'
    /// bounds combined by the scalar steps (how a row's bounds split over threads), equal the
    /// whole row's, with NaNs at a chunk's start; and the row quantization equals `symmetric` /
    /// `asymmetric` value for value.
    func testChunkedBoundsAndRowQuantizationEqualTheWholeRow() {
        var rng = SeededGenerator(seed: 93)
        var cases = rows().filter { !$0.1[0].isNaN }
        var nanStarts = (0..<300).map { _ in rng.float() * 10 - 4 }
        for i in stride(from: 37, to: 300, by: 37) { nanStarts[i] = .nan }
        cases.append(("NaN at chunk starts", nanStarts))
        for (name, x) in cases {
            let want = scalarRange(x)
            for chunk in [1, 7, 16, 37, 64] {
                var (lo, hi) = (x[0], x[0])
                x.withUnsafeBufferPointer { p in
                    for start in stride(from: 0, to: x.count, by: chunk) {
                        let part = HybridInputQuantizer.bounds(p.baseAddress! + start, count: min(chunk, x.count - start),
                                                               from: (x[0], x[0]))
                        if part.lo < lo { lo = part.lo }
                        if part.hi > hi { hi = part.hi }
                    }
                }
                XCTAssertTrue(lo == want.0 || (lo.isNaN && want.0.isNaN), "\(name) chunks of \(chunk): lo \(lo) \(want.0)")
                XCTAssertTrue(hi == want.1 || (hi.isNaN && want.1.isNaN), "\(name) chunks of \(chunk): hi \(hi) \(want.1)")
            }
            for asymmetric in [false, true] {
                var whole = [Int8](repeating: 99, count: x.count), split = whole
                let expected = x.withUnsafeBufferPointer { p -> (Float, Int32) in
                    asymmetric ? HybridInputQuantizer.asymmetric(p.baseAddress!, count: x.count, into: &whole)
                               : (HybridInputQuantizer.symmetric(p.baseAddress!, count: x.count, into: &whole), 0)
                }
                let row = HybridInputQuantizer.RowQuantization(lo: want.0, hi: want.1, asymmetric: asymmetric)
                XCTAssertEqual(row.scale.bitPattern, expected.0.bitPattern, "\(name)")
                XCTAssertEqual(row.offset, expected.1, "\(name)")
                x.withUnsafeBufferPointer { p in
                    for start in stride(from: 0, to: x.count, by: 37) {
                        split.withUnsafeMutableBufferPointer { q in
                            HybridInputQuantizer.quantize(p.baseAddress! + start, count: min(37, x.count - start), row,
                                                          into: q.baseAddress! + start)
                        }
                    }
                }
                XCTAssertEqual(split, whole, "\(name) asymmetric \(asymmetric)")
            }
        }
    }
}
