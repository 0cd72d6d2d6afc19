import MachineCode
import TestSupport
import XCTest
@testable import TFLiteKernels

/// The vector (16- and 4-channel) bilinear float rows against the reference, bit for bit, on
/// channel counts that use every block width (DeepLabV3's 21-class logits among them); on
/// AVX-512 CPUs the upscales' rows run in the generated `ResizeBilinearRow16AVX512`, whose
/// masked last step must write nothing past the output.
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
        XCTAssertEqual(GeneratedKernels.current?.resizeBilinearRow != nil,
                       GeneratedKernels.current != nil && level >= .avx512, "the generated row exactly at AVX-512 (\(level))")
    }
}
