import MachineCode
import TestSupport
import XCTest
@testable import TFLiteKernels

/// The generated AVX-512 quantized ADD / SUB (`QuantizedAdd16AVX512`) against the reference
/// element function, element by element: int8 and uint8, adding and subtracting, on every
/// count around its 16-element step, with zero points at both ends, scales whose shifts range
/// from 0 to past the folding limit (a residual output offset), RELU clamps (the output's
/// negative addends skipped) and narrow ones; it never writes past its whole blocks.
final class QuantizedAddKernelTests: XCTestCase {
    func testArgumentBlockLayoutMatchesTheGeneratedCode() {
        typealias A = GeneratedQuantizedAddArguments
        typealias F = A.Field
        let fields: [(PartialKeyPath<A>, Int32)] = [
            (\A.a, F.a), (\A.b, F.b), (\A.output, F.output), (\A.blocks, F.blocks), (\A.firstTerms, F.firstTerms),
            (\A.secondTerms, F.secondTerms), (\A.resultTerms, F.resultTerms), (\A.firstOffset, F.firstOffset),
            (\A.secondOffset, F.secondOffset), (\A.leftShift, F.leftShift), (\A.residualOffset, F.residualOffset),
            (\A.activationMin, F.activationMin), (\A.activationMax, F.activationMax), (\A.flag, F.flag)]
        for (path, offset) in fields { XCTAssertEqual(MemoryLayout<A>.offset(of: path), Int(offset), "\(path)") }
        XCTAssertEqual(MemoryLayout<A.Terms>.stride, 32)
    }

    /// Random parameters of one ADD: scales from 2^−14 to 2^4 (so right shifts from 0 to
    /// above 22), zero points at the ends or anywhere, and a clamp that is the type's range, a
    /// RELU (from the output zero point) or random.
    private func parameters(_ rng: inout SeededGenerator, signed: Bool) -> BinaryArithmeticReference.QuantizedAddParams {
        let (lowest, highest): (Int32, Int32) = signed ? (-128, 127) : (0, 255)
        func zeroPoint() -> Int32 {
            rng.int(0...1) == 0 ? [lowest, highest, lowest + 1][rng.int(0...2)] : Int32(rng.int(Int(lowest)...Int(highest)))
        }
        func scale() -> Float { Float(pow(2, Double(rng.int(-140...40)) / 10)) }
        let (za, zb, zo) = (zeroPoint(), zeroPoint(), zeroPoint())
        let (sa, sb, so) = (scale(), scale(), scale())
        var (lo, hi) = (lowest, highest)
        switch rng.int(0...2) {
        case 0: lo = zo
        case 1:
            let x = Int32(rng.int(Int(lowest)...Int(highest))), y = Int32(rng.int(Int(lowest)...Int(highest)))
            (lo, hi) = (min(x, y), max(x, y))
        default: break
        }
        return BinaryArithmeticReference.QuantizedAddParams(
            input1Scale: sa, input1ZeroPoint: za, input2Scale: sb, input2ZeroPoint: zb, outputScale: so,
            outputZeroPoint: zo, leftShift: 20, activationMin: lo, activationMax: hi)
    }

    func testGeneratedAddMatchesTheReference() throws {
        guard let cpu = CPUFeatures.current?.supportedLevel, cpu >= .avx512 else {
            throw XCTSkip("this CPU has no AVX-512: the generated ADD cannot run here")
        }
        XCTAssertNil(try GeneratedKernels(level: .avx2).quantizedAdd)
        var rng = SeededGenerator(seed: 81)
        var tested = 0, residual = 0, clampedNegatives = 0
        for level in InstructionSetLevel.allCases where level >= .avx512 && level <= cpu {
            let kernels = try GeneratedKernels(level: level)
            defer { withExtendedLifetime(kernels) {} }
            let add = try XCTUnwrap(kernels.quantizedAdd)
            for trial in 0..<160 {
                let signed = trial % 2 == 0, subtract = trial % 4 >= 2
                let p = parameters(&rng, signed: signed)
                guard QuantizedBinaryArithmeticOptimized.supports(p) else { continue }
                tested += 1
                let count = trial < 80 ? rng.int(0...70) : 65536
                // Every code pair when the count is 65536, else random codes with the extremes.
                let a = (0..<count).map { i in count == 65536 ? UInt8(i >> 8) : UInt8(i % 7 == 0 ? 0 : i % 7 == 1 ? 255 : rng.int(0...255)) }
                let b = (0..<count).map { i in count == 65536 ? UInt8(i & 255) : UInt8(i % 5 == 0 ? 128 : rng.int(0...255)) }
                var actual = [UInt8](repeating: 0xA5, count: count + 16)
                let arguments = a.withUnsafeBufferPointer { x in
                    b.withUnsafeBufferPointer { y in
                        actual.withUnsafeMutableBufferPointer { out in
                            var arguments = GeneratedQuantizedAddArguments(
                                p, a: UnsafeRawPointer(x.baseAddress ?? UnsafePointer(bitPattern: 1)!),
                                b: UnsafeRawPointer(y.baseAddress ?? UnsafePointer(bitPattern: 1)!),
                                output: UnsafeMutableRawPointer(out.baseAddress!), blocks: count / 16)
                            withUnsafePointer(to: &arguments) { add.kernel(signed: signed, subtract: subtract)(UnsafeRawPointer($0)) }
                            return arguments
                        }
                    }
                }
                if arguments.flag & ConvRequantizer.residualOffsetFlag != 0 { residual += 1 }
                if arguments.flag & ConvRequantizer.clampedNegativesFlag != 0 { clampedNegatives += 1 }
                let done = count / 16 * 16
                func code(_ byte: UInt8) -> Int32 { signed ? Int32(Int8(bitPattern: byte)) : Int32(byte) }
                for i in 0..<done {
                    let want = BinaryArithmeticReference.quantizedAddElement(code(a[i]), code(b[i]), p, subtract: subtract)
                    if code(actual[i]) != want {
                        return XCTFail("\(level) \(signed ? "int8" : "uint8") \(subtract ? "SUB" : "ADD") \(p): "
                                       + "\(code(a[i])), \(code(b[i])) gave \(code(actual[i])), want \(want)")
                    }
                }
                XCTAssertTrue(actual[done...].allSatisfy { $0 == 0xA5 }, "\(level) wrote past \(done) of \(count)")
            }
        }
        XCTAssertGreaterThan(tested, 100, "most random ADD parameters are within the generated kernel's range")
        XCTAssertGreaterThan(residual, 0, "some outputs keep their offset apart (right shift above 22)")
        XCTAssertGreaterThan(clampedNegatives, 10, "RELU clamps skip the negative addends")
    }

    /// The public entry point (the generated blocks, the portable vector and scalar rest) on
    /// counts around the block size and offset ranges, against the reference.
    func testAddOverRangesMatchesTheReference() {
        var rng = SeededGenerator(seed: 82)
        for trial in 0..<60 {
            let subtract = trial % 3 == 0
            let p = parameters(&rng, signed: true)
            guard QuantizedBinaryArithmeticOptimized.supports(p) else { continue }
            let count = rng.int(0...90), start = rng.int(0...count)
            let a = (0..<count).map { _ in Int8(truncatingIfNeeded: rng.int(0...255)) }
            let b = (0..<count).map { _ in Int8(truncatingIfNeeded: rng.int(0...255)) }
            var actual = [Int8](repeating: 7, count: count)
            QuantizedBinaryArithmeticOptimized.add(p, subtract: subtract, range: start..<count, a, b, &actual)
            for i in 0..<count {
                let want = i < start ? 7 : BinaryArithmeticReference.quantizedAddElement(Int32(a[i]), Int32(b[i]), p, subtract: subtract)
                XCTAssertEqual(Int32(actual[i]), want, "element \(i) of \(start)..<\(count) \(p)")
            }
        }
    }
}
