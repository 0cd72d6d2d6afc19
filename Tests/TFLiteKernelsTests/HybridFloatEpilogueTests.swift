import MachineCode
import TestSupport
import XCTest
@testable import TFLiteKernels

/// The generated hybrid epilogue (`HybridFloatEpilogueAVX` through `ConvHybridEpilogue.storeTile`)
/// against the Swift epilogue's rows (`ConvHybridEpilogue.store`) bit for bit, at every level this
/// CPU has: both rounding orders, with and without a float bias, one and two panels, clamps that
/// values meet exactly (signed zeros), infinite and NaN scales and biases, and extreme sums.
final class HybridFloatEpilogueTests: XCTestCase {
    func testArgumentBlockLayoutMatchesTheGeneratedCode() {
        typealias A = GeneratedHybridEpilogueArguments
        typealias F = A.Field
        let fields: [(PartialKeyPath<A>, Int32)] = [
            (\A.accumulators, F.accumulators), (\A.output, F.output), (\A.outputStride, F.outputStride), (\A.rows, F.rows),
            (\A.panels, F.panels), (\A.correction, F.correction), (\A.multipliers, F.multipliers), (\A.bias, F.bias),
            (\A.inputScale, F.inputScale), (\A.lower, F.lower), (\A.upper, F.upper)]
        for (path, offset) in fields { XCTAssertEqual(MemoryLayout<A>.offset(of: path), Int(offset), "\(path)") }
        XCTAssertEqual(QuantizedGEMM.accumulatorRowBytes, 2 * Int16PairPacking.panelWidth * MemoryLayout<Int32>.size)
        var buffer = [Float](repeating: 0, count: 64)
        buffer.withUnsafeMutableBytes { b in
            let p = b.baseAddress!
            let good = A(accumulators: p, output: p, outputStride: 128, rows: 3, panels: 2, correction: p, multipliers: p, bias: nil,
                         inputScale: 1, lower: 0, upper: 6)
            XCTAssertNil(good.violation())
            for broken in [{ (a: inout A) in a.rows = -1 }, { $0.panels = 3 }, { $0.outputStride = 64 }] {
                var bad = good
                broken(&bad)
                XCTAssertNotNil(bad.violation())
            }
        }
    }

    func testGeneratedTilesEqualTheSwiftRowsAtEveryLevel() throws {
        guard let cpu = CPUFeatures.current?.supportedLevel, cpu >= .avx2 else {
            throw XCTSkip("this CPU has no AVX2+FMA: the generated epilogue cannot run here")
        }
        var rng = SeededGenerator(seed: 5)
        let outputDepth = 40, rowsPerTile = QuantizedGEMM.tilePixels, pixelsPerImage = 20
        for level in InstructionSetLevel.allCases where level >= .avx2 && level <= cpu {
            let kernels = try GeneratedKernels(level: level)
            XCTAssertNotNil(kernels.hybridEpilogue, "\(level)")
            for trial in 0..<48 {
                let multipliedFirst = trial % 2 == 0, withBias = trial % 4 < 2
                let (low, high): (Float, Float) = [(-.infinity, .infinity), (0, 6), (0, .infinity), (-1, 1)][trial / 4 % 4]
                var filterScales = (0..<outputDepth).map { _ in Float.random(in: 0.001...0.1, using: &rng) }
                var bias = (0..<outputDepth).map { _ in rng.float() * 4 - 2 }
                if trial >= 16 { filterScales[3] = .infinity; filterScales[20] = .nan; bias[5] = .nan; bias[33] = -.infinity }
                if trial >= 32 { filterScales[7] = 0; bias[7] = -0.0 }
                var correction = (0..<outputDepth).map { _ in Int32.random(in: -5000...5000, using: &rng) }
                var acc = (0..<QuantizedGEMM.accumulatorCount).map { _ in Int32.random(in: -100_000...100_000, using: &rng) }
                for i in stride(from: 0, to: rowsPerTile * 32, by: 37) { acc[i] = Int32.max - 5000 }
                for i in stride(from: 11, to: rowsPerTile * 32, by: 41) { acc[i] = Int32.min + 5000 }
                if trial >= 32 {   // zero sums: 0 · scale (−0 for a negative scale), then a bias of −0 or a clamp at 0
                    for c in stride(from: 1, to: outputDepth, by: 8) { correction[c] = 0 }
                    filterScales[9] = -0.05; filterScales[17] = -0.0
                    for i in 0..<(rowsPerTile * 32) where i % 8 == 1 { acc[i] = 0 }
                }
                let inputScales: [Float] = [0.02, 0.5, 3]
                let parameters = HybridConvolutionParameters(filterScales: filterScales, activationMin: low, activationMax: high,
                                                             scalesMultipliedFirst: multipliedFirst)
                inputScales.withUnsafeBufferPointer { scales in
                    bias.withUnsafeBufferPointer { bias in
                        let epilogue = ConvHybridEpilogue(parameters: parameters, inputScales: scales.baseAddress!,
                                                          bias: withBias ? bias.baseAddress! : nil)
                        for (firstPixel, rows, n0, panels) in [(0, 8, 0, 2), (8, 8, 16, 1), (12, 8, 0, 1), (40, 5, 0, 2), (44, 1, 16, 1)] {
                            var want = [Float](repeating: 7, count: 60 * outputDepth), got = want
                            for r in 0..<rows {
                                for k in 0..<panels {
                                    let sums = SIMD16<Int32>((0..<16).map { acc[r * 32 + k * 16 + $0] })
                                    let b0 = SIMD16<Int32>((0..<16).map { trial % 3 != 2 ? correction[n0 + k * 16 + $0] : 0 })
                                    let pixel = firstPixel + r
                                    epilogue.store(sums &+ b0, pixel: pixel, batch: pixel / pixelsPerImage, channel: n0 + k * 16, lanes: 16,
                                                   outputDepth: outputDepth, to: &want)
                                }
                            }
                            let corrected = trial % 3 != 2   // the int16-pair layers add no terms
                            let stored = epilogue.storeTile(acc, correction: corrected ? correction : nil, firstPixel: firstPixel, rows: rows,
                                                            pixelsPerImage: pixelsPerImage, channel: n0, panels: panels,
                                                            outputDepth: outputDepth, to: &got, kernels: kernels)
                            let sameImage = firstPixel / pixelsPerImage == (firstPixel + rows - 1) / pixelsPerImage
                            XCTAssertEqual(stored, sameImage && n0 + 16 * panels <= outputDepth, "\(level) trial \(trial)")
                            if !stored { continue }
                            let differing = (0..<want.count).filter { want[$0].bitPattern != got[$0].bitPattern }
                            XCTAssertEqual(differing.count, 0, "\(level) trial \(trial) pixel \(firstPixel): differs at \(differing.prefix(4))"
                                           + " \(differing.prefix(4).map { (want[$0], got[$0]) })")
                        }
                    }
                }
            }
            withExtendedLifetime(kernels) {}
        }
    }
}
