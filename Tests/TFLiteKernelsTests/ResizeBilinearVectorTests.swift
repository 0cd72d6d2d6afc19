import MachineCode
import TestSupport
import XCTest
@testable import TFLiteKernels

/// The vector (16- and 4-channel) bilinear float rows against the reference, bit for bit, on
/// channel counts that use every block width (DeepLabV3's 21-class logits among them); on
/// AVX2 and AVX-512 CPUs the upscales' rows run in the generated `ResizeBilinearRowAVX`, whose
/// last step (masked in zmm, the last 8 channels again in ymm) must write nothing past the output.
final class ResizeBilinearVectorTests: XCTestCase {
    func testWideChannelRowsAreBitIdentical() {
        var rng = SeededGenerator(seed: 101)
        let modes = [(false, false), (true, false), (false, true)]
        for (trial, depth) in [16, 17, 20, 21, 31, 32, 37, 64, 5, 4].enumerated() {
            let mode = modes[trial % 3]
            let p = ResizeParameters(batches: 1 + trial % 2, inputHeight: Int.random(in: 1...9, using: &rng),
                                     inputWidth: Int.random(in: 1...9, using: &rng),
                                     outputHeight: Int.random(in: 1...23, using: &rng), outputWidth: Int.random(in: 1...23, using: &rng),
                                     depth: depth, alignCorners: mode.0, halfPixelCenters: mode.1)
            let input = rng.floats(p.inputElementCount, in: -30...30)
            var expected = [Float](repeating: 0, count: p.outputElementCount)
            var actual = [Float](repeating: .nan, count: p.outputElementCount + 16)
            ResizeBilinearReference.runFloat(p, input: input, output: &expected)
            let plan = ResizeRowsPlan(bilinear: p)
            let mid = plan.rowCount / 2
            input.withUnsafeBufferPointer { x in actual.withUnsafeMutableBufferPointer { y in
                ResizeOptimized.bilinearFloat(plan, rows: 0..<mid, input: x.baseAddress!, output: y.baseAddress!)
                ResizeOptimized.bilinearFloat(plan, rows: mid..<plan.rowCount, input: x.baseAddress!, output: y.baseAddress!)
            } }
            XCTAssertEqual(actual.prefix(p.outputElementCount).map(\.bitPattern), expected.map(\.bitPattern), "\(p)")
            XCTAssertEqual(actual.suffix(16).map(\.bitPattern), [UInt32](repeating: Float.nan.bitPattern, count: 16),
                           "wrote past the output: \(p)")
        }
        let level = CodeGenerationPolicy.current.level
        XCTAssertEqual(GeneratedKernels.current?.resizeBilinearRow?.lanes, GeneratedKernels.current == nil ? nil : level >= .avx512 ? 16 : 8,
                       "the generated row at every generated level, 16 channels per step at AVX-512 (\(level))")
    }

    /// The generated row at every width the CPU has against the Swift row on weighed rows, bit
    /// for bit: depths around the steps (a ymm row needs 8 channels; a zmm one takes any), random
    /// column tables with repeats and edges, nothing written past the output row.
    func testGeneratedRowsAtEveryWidth() throws {
        guard let features = CPUFeatures.current, features.supportedLevel >= .avx2 else {
            throw XCTSkip("this CPU has no AVX2: no generated resize row to test")
        }
        let levels: [InstructionSetLevel] = features.supportedLevel >= .avx512 ? [.avx2, .avx512] : [.avx2]
        var rng = SeededGenerator(seed: 102)
        for level in levels {
            let kernels = try GeneratedKernels(level: level)
            let row = try XCTUnwrap(kernels.resizeBilinearRow)
            XCTAssertEqual(row.lanes, level >= .avx512 ? 16 : 8)
            for depth in [1, 5, 8, 9, 15, 16, 17, 21, 24, 31, 37, 64] where depth >= row.lanes || row.lanes == 16 {
                let inputWidth = Int.random(in: 1...9, using: &rng), width = Int.random(in: 1...23, using: &rng)
                let top = rng.floats(inputWidth * depth, in: -30...30), bottom = rng.floats(inputWidth * depth, in: -30...30)
                let lower = (0..<width).map { _ in Int.random(in: 0..<inputWidth, using: &rng) * depth }
                let upper = lower.map { min($0 + depth, (inputWidth - 1) * depth) }
                let fractions = rng.floats(width, in: 0...1)
                var expected = [Float](repeating: 0, count: width * depth)
                var actual = [Float](repeating: .nan, count: width * depth + 16)
                top.withUnsafeBufferPointer { t in bottom.withUnsafeBufferPointer { b in
                lower.withUnsafeBufferPointer { xl in upper.withUnsafeBufferPointer { xu in fractions.withUnsafeBufferPointer { xf in
                    expected.withUnsafeMutableBufferPointer { y in
                        ResizeOptimized.interpolate(top: t.baseAddress!, bottom: b.baseAddress!, rowWeights: nil, xl: xl, xu: xu,
                                                    xf: xf, depth: depth, width: width, output: y.baseAddress!)
                    }
                    actual.withUnsafeMutableBufferPointer { y in
                        ResizeOptimized.interpolateGenerated(row, top: t.baseAddress!, bottom: b.baseAddress!,
                                                             xLower: xl.baseAddress!, xUpper: xu.baseAddress!,
                                                             xFraction: xf.baseAddress!, depth: depth, width: width,
                                                             output: y.baseAddress!)
                    }
                } } } } }
                XCTAssertEqual(actual.prefix(width * depth).map(\.bitPattern), expected.map(\.bitPattern), "\(level) depth \(depth)")
                XCTAssertEqual(actual.suffix(16).map(\.bitPattern), [UInt32](repeating: Float.nan.bitPattern, count: 16),
                               "\(level) depth \(depth): wrote past the output row")
            }
        }
    }
}
