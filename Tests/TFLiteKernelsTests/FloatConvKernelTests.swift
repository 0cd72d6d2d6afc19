import TestSupport
import XCTest
@testable import TFLiteKernels

/// Every float convolution microkernel shape (the AVX-512 8 × 32, the SSE2 6 × 8 with and without
/// pre-broadcast inputs, the portable 6 × 16), whichever one this build uses natively, against `Conv2DReference.float` on seeded random
/// geometries: odd input depths, output depths that are not multiples of the panel width, SAME and
/// VALID padding, strides 1 and 2, dilation, batches of 2, fused clamps, and the tiles split into
/// arbitrary chunks as the thread pool does.
final class FloatConvKernelTests: XCTestCase {
    private func randomGeometry(_ rng: inout SeededGenerator) -> ConvolutionGeometry {
        let cin = rng.int(1...41)
        let square = rng.int(0...3) == 0
        let fh = square ? 1 : rng.int(1...5), fw = square ? 1 : rng.int(1...5)
        let sh = rng.int(1...2), sw = rng.int(1...2)
        let dh = rng.int(0...3) == 0 ? 2 : 1, dw = rng.int(0...3) == 0 ? 2 : 1
        let h = rng.int(fh...14), w = rng.int(fw...14)
        let padding: ConvolutionPadding = rng.int(0...1) == 0 ? .same : .valid
        var rows = ConvolutionAxis(inputSize: h, filterSize: fh, stride: sh, dilation: dh, padding: padding)
        var cols = ConvolutionAxis(inputSize: w, filterSize: fw, stride: sw, dilation: dw, padding: padding)
        if rows.outputSize <= 0 { rows = ConvolutionAxis(inputSize: h, filterSize: fh, stride: sh, dilation: dh, padding: .same) }
        if cols.outputSize <= 0 { cols = ConvolutionAxis(inputSize: w, filterSize: fw, stride: sw, dilation: dw, padding: .same) }
        return ConvolutionGeometry(batches: rng.int(1...2), inputHeight: h, inputWidth: w, inputDepth: cin,
                                   filterHeight: fh, filterWidth: fw, filterInputDepth: cin,
                                   outputHeight: rows.outputSize, outputWidth: cols.outputSize, outputDepth: randomOutputDepth(&rng),
                                   strideHeight: sh, strideWidth: sw, dilationHeight: dh, dilationWidth: dw,
                                   padTop: rows.padBefore, padLeft: cols.padBefore)
    }


    /// 1 to 75 channels, one layer in four an odd multiple of 8 (8 … 72): a last half panel,
    /// which the AVX2 tile stores itself.
    private func randomOutputDepth(_ rng: inout SeededGenerator) -> Int {
        rng.int(0...3) == 0 ? 8 * (2 * rng.int(0...4) + 1) : rng.int(1...75)
    }

    /// A 1 × 1, stride-1 layer (the drivers' pointwise path: whole tiles in one call where the
    /// kernel `runsPointwiseTiles`), with pixel counts around the tile sizes.
    private func randomPointwiseGeometry(_ rng: inout SeededGenerator) -> ConvolutionGeometry {
        let cin = rng.int(1...41), h = rng.int(1...9), w = rng.int(1...17)
        return ConvolutionGeometry(batches: rng.int(1...2), inputHeight: h, inputWidth: w, inputDepth: cin,
                                   filterHeight: 1, filterWidth: 1, filterInputDepth: cin,
                                   outputHeight: h, outputWidth: w, outputDepth: randomOutputDepth(&rng),
                                   strideHeight: 1, strideWidth: 1, dilationHeight: 1, dilationWidth: 1, padTop: 0, padLeft: 0)
    }

    /// The signature of the float drivers (`floatIndirect` for one kernel, `floatBroadcast6x8`).
    typealias Driver = (ConvolutionGeometry, Float, Float, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>?,
                        UnsafePointer<Float>, UnsafeMutablePointer<Float>, Range<Int>) -> Void

    /// Runs microkernel `K` through `floatIndirect` on 50 random geometries against the reference
    /// (with `fused`, bit for bit against `fusedReference`), each chunk in a poisoned workspace of
    /// the bytes `floatIndirectWorkspaceBytes` declares.
    private func check<K: FloatConvTileKernel>(_ kernel: K.Type, seed: UInt64, fused: Bool = false, pointwise: Bool = false) {
        check(rows: K.rows, panelWidth: K.panelWidth, name: "\(K.self)", seed: seed, fused: fused,
              pointwise: pointwise) { g, lo, hi, x, w, b, z, y, part in
            let workspace = PoisonedWorkspace(byteCount: Conv2DOptimized.floatIndirectWorkspaceBytes(rows: K.rows,
                                                                                                     panelWidth: K.panelWidth, g))
            Conv2DOptimized.floatIndirect(K.self, g, activationMin: lo, activationMax: hi, input: x, packedFilter: w,
                                          bias: b, zeros: z, output: y, tiles: part, workspace: workspace.workspace)
            workspace.assertGuardIntact("\(K.self) \(g)")
        }
    }

    /// The reference's float convolution with each product added in one rounding
    /// (`addProduct`, a fused multiply-add), in the same order: taps, then input channels, bias last.
    private func fusedReference(_ g: ConvolutionGeometry, _ lo: Float, _ hi: Float, input: [Float], filter: [Float],
                                bias: [Float]?) -> [Float] {
        var output = [Float](repeating: 0, count: g.outputCount)
        for b in 0..<g.batches {
            for oy in 0..<g.outputHeight {
                for ox in 0..<g.outputWidth {
                    for oc in 0..<g.outputDepth {
                        var total: Float = 0
                        for fy in 0..<g.filterHeight {
                            let iy = oy * g.strideHeight - g.padTop + g.dilationHeight * fy
                            guard iy >= 0 && iy < g.inputHeight else { continue }
                            for fx in 0..<g.filterWidth {
                                let ix = ox * g.strideWidth - g.padLeft + g.dilationWidth * fx
                                guard ix >= 0 && ix < g.inputWidth else { continue }
                                let inBase = ((b * g.inputHeight + iy) * g.inputWidth + ix) * g.inputDepth
                                let fBase = ((oc * g.filterHeight + fy) * g.filterWidth + fx) * g.inputDepth
                                for ic in 0..<g.inputDepth { total.addProduct(input[inBase + ic], filter[fBase + ic]) }
                            }
                        }
                        let value = total + (bias?[oc] ?? 0)
                        output[((b * g.outputHeight + oy) * g.outputWidth + ox) * g.outputDepth + oc] = min(max(value, lo), hi)
                    }
                }
            }
        }
        return output
    }

    /// Runs `driver` (tiles of `rows` pixels, panels of `panelWidth` channels) on 50 random
    /// geometries against the reference, or with `fused` bit for bit against `fusedReference`.
    private func check(rows: Int, panelWidth: Int, name: String, seed: UInt64, fused: Bool = false, pointwise: Bool = false,
                       driver: Driver) {
        var rng = SeededGenerator(seed: seed)
        for _ in 0..<50 {
            let g = pointwise ? randomPointwiseGeometry(&rng) : randomGeometry(&rng)
            let input = (0..<g.inputCount).map { _ in rng.float() }
            let filter = (0..<g.filterCount).map { _ in rng.float() }
            let bias: [Float]? = rng.int(0...3) == 0 ? nil : (0..<g.outputDepth).map { _ in rng.float() }
            let (lo, hi): (Float, Float) = [(-.infinity, .infinity), (0, 6), (-0.5, 1.5)][rng.int(0...2)]
            let biasCopy = bias ?? []
            var expected = [Float](repeating: 0, count: g.outputCount)
            if fused { expected = fusedReference(g, lo, hi, input: input, filter: filter, bias: bias) } else {
                input.withUnsafeBufferPointer { x in
                    filter.withUnsafeBufferPointer { f in
                        biasCopy.withUnsafeBufferPointer { b in
                            expected.withUnsafeMutableBufferPointer { y in
                                Conv2DReference.float(g, activationMin: lo, activationMax: hi, input: x.baseAddress!,
                                                      filter: f.baseAddress!, bias: bias == nil ? nil : b.baseAddress!,
                                                      output: y.baseAddress!)
                            }
                        }
                    }
                }
            }
            let packed = ConvFilterPacking.packFloat(filter, outputDepth: g.outputDepth,
                                                     depth: g.filterHeight * g.filterWidth * g.inputDepth,
                                                     panelWidth: panelWidth)
            let zeros = [Float](repeating: 0, count: g.inputDepth)
            var actual = [Float](repeating: .nan, count: g.outputCount)
            for part in rng.chunks(Conv2DOptimized.floatTileCount(g, rows: rows)) {
                input.withUnsafeBufferPointer { x in
                    packed.withUnsafeBufferPointer { w in
                        biasCopy.withUnsafeBufferPointer { b in
                            zeros.withUnsafeBufferPointer { z in
                                actual.withUnsafeMutableBufferPointer { y in
                                    driver(g, lo, hi, x.baseAddress!, w.baseAddress!, bias == nil ? nil : b.baseAddress!,
                                           z.baseAddress!, y.baseAddress!, part)
                                }
                            }
                        }
                    }
                }
            }
            // NaN-aware: an output the kernel never wrote keeps its NaN fill and fails here.
            let problem = TolerantCompare.mismatch(actual.map(Double.init), expected.map(Double.init)) {
                fused ? 0 : 1e-4 * max(1, abs($0))
            }
            XCTAssertNil(problem, "\(name) \(g)")
        }
    }

    func testKernel8x32MatchesReference() { check(FloatConvKernel8x32.self, seed: 11) }
    func testKernel6x8MatchesReference() { check(FloatConvKernel6x8.self, seed: 12) }
    func testKernel6x16MatchesReference() { check(FloatConvKernel6x16.self, seed: 13) }

    /// The FMA3 6 × 16 kernel generated at run time (skipped with a message where it is not).
    func testGeneratedKernel6x16MatchesReference() throws {
        guard GeneratedKernels.current?.floatConv6x16 != nil else {
            throw XCTSkip("no generated float kernel on this CPU / policy (\(GeneratedKernels.summary))")
        }
        check(GeneratedFloatConvKernel6x16.self, seed: 16)
    }

    /// The AVX-512 8 × 32 kernel generated at run time (skipped with a message where it is not).
    func testGeneratedKernel8x32MatchesReference() throws {
        guard GeneratedKernels.current?.floatConv8x32 != nil else {
            throw XCTSkip("no generated AVX-512 float kernel on this CPU / policy (\(GeneratedKernels.summary))")
        }
        check(GeneratedFloatConvKernel8x32.self, seed: 17)
    }

    /// The AVX-512 8 × 16 kernel (one panel of the 8 × 32 emitter; skipped with a message where it is not).
    func testGeneratedKernel8x16MatchesReference() throws {
        guard GeneratedKernels.current?.floatConv8x16 != nil else {
            throw XCTSkip("no generated AVX-512 float kernel on this CPU / policy (\(GeneratedKernels.summary))")
        }
        check(GeneratedFloatConvKernel8x16.self, seed: 20)
    }

    /// The generated kernels on 1 × 1 layers, where the AVX-512 tiles run a block's whole
    /// tiles in one call (masked partial panels, random thread chunks), plain and fused.
    func testGeneratedKernelsOnPointwiseLayers() throws {
        guard let kernels = GeneratedKernels.current, kernels.floatConv6x16 != nil else {
            throw XCTSkip("no generated float kernel on this CPU / policy (\(GeneratedKernels.summary))")
        }
        check(GeneratedFloatConvKernel6x16.self, seed: 41, pointwise: true)
        guard kernels.floatConv8x32 != nil else {
            throw XCTSkip("no generated AVX-512 float kernel on this CPU / policy (\(GeneratedKernels.summary))")
        }
        check(GeneratedFloatConvKernel8x32.self, seed: 42, pointwise: true)
        check(GeneratedFloatConvKernel8x16.self, seed: 43, pointwise: true)
        check(GeneratedFusedFloatConvKernel8x32.self, seed: 44, fused: true, pointwise: true)
        check(GeneratedFusedFloatConvKernel8x16.self, seed: 45, fused: true, pointwise: true)
    }

    /// The generated kernels' fused multiply-add forms equal the reference computed with fused
    /// multiply-adds in the same order, bit for bit (so they do fuse, and keep the order).
    func testGeneratedFusedKernelsMatchFusedReference() throws {
        guard let kernels = GeneratedKernels.current, kernels.floatConv6x16Fused != nil else {
            throw XCTSkip("no generated float kernel on this CPU / policy (\(GeneratedKernels.summary))")
        }
        check(GeneratedFusedFloatConvKernel6x16.self, seed: 18, fused: true)
        guard kernels.floatConv8x32Fused != nil else {
            throw XCTSkip("no generated AVX-512 float kernel on this CPU / policy (\(GeneratedKernels.summary))")
        }
        check(GeneratedFusedFloatConvKernel8x32.self, seed: 19, fused: true)
        check(GeneratedFusedFloatConvKernel8x16.self, seed: 21, fused: true)
    }

    /// A fused ADD (`FloatConvResidual`) in every generated tile: the layer's output plus the
    /// residual at the same offsets, clamped to the ADD's range, bit for bit what the tile gives
    /// without it followed by the ADD (`x < lo ? lo : x`, then `x > hi ? hi : x`, as the
    /// reference clamps), on partial panels, partial tiles and random thread chunks, with NaN,
    /// infinities and signed zeros in the residual; and with an operand of fewer channels (whole
    /// panels of them), the rest adding +0.0 as after a channel PAD.
    func testGeneratedKernelsAddAFusedResidual() throws {
        guard let kernels = GeneratedKernels.current, kernels.floatConv6x16 != nil else {
            throw XCTSkip("no generated float kernel on this CPU / policy (\(GeneratedKernels.summary))")
        }
        checkResidual(GeneratedFloatConvKernel6x16.self, seed: 31)
        checkResidual(GeneratedFusedFloatConvKernel6x16.self, seed: 32)
        guard kernels.floatConv8x32 != nil else {
            throw XCTSkip("no generated AVX-512 float kernel on this CPU / policy (\(GeneratedKernels.summary))")
        }
        checkResidual(GeneratedFloatConvKernel8x32.self, seed: 33)
        checkResidual(GeneratedFusedFloatConvKernel8x32.self, seed: 34)
        checkResidual(GeneratedFloatConvKernel8x16.self, seed: 35)
    }

    private func checkResidual<K: FloatConvTileKernel>(_ kernel: K.Type, seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        for i in 0..<40 {
            let g = i % 2 == 0 ? randomPointwiseGeometry(&rng) : randomGeometry(&rng)
            let input = (0..<g.inputCount).map { _ in rng.float() * 2 - 1 }
            let filter = (0..<g.filterCount).map { _ in rng.float() * 2 - 1 }
            let bias = (0..<g.outputDepth).map { _ in rng.float() - 0.5 }
            let specials: [Float] = [.nan, .infinity, -.infinity, 0, -0.0]
            // Every other layer wide enough: an operand of whole panels fewer than the output's.
            let panels = (g.outputDepth - 1) / K.panelWidth
            let channels = panels > 0 && i % 4 < 2 ? K.panelWidth * rng.int(1...panels) : g.outputDepth
            let pixels = g.outputCount / g.outputDepth
            let operand = (0..<(pixels * channels)).map { i in i % 13 == 0 ? specials[i / 13 % 5] : rng.float() * 4 - 2 }
            // The operand as a channel PAD extends it: +0.0 past its channels.
            let residual = (0..<g.outputCount).map { i in
                i % g.outputDepth < channels ? operand[i / g.outputDepth * channels + i % g.outputDepth] : 0
            }
            let (lo, hi): (Float, Float) = [(-.infinity, .infinity), (0, 6), (-0.5, 1.5)][rng.int(0...2)]
            let (addLo, addHi): (Float, Float) = [(-.infinity, .infinity), (0, .infinity), (-1, 1)][rng.int(0...2)]
            let packed = ConvFilterPacking.packFloat(filter, outputDepth: g.outputDepth,
                                                     depth: g.filterHeight * g.filterWidth * g.inputDepth,
                                                     panelWidth: K.panelWidth)
            let zeros = [Float](repeating: 0, count: max(g.inputDepth, FloatConvResidual.zeroRowFloats))
            func run(_ fusedAdd: Bool) -> [Float] {
                var output = [Float](repeating: .nan, count: g.outputCount)
                for part in rng.chunks(Conv2DOptimized.floatTileCount(g, rows: K.rows)) {
                    operand.withUnsafeBufferPointer { r in
                        Conv2DOptimized.floatIndirect(
                            K.self, g, activationMin: lo, activationMax: hi, input: input, packedFilter: packed, bias: bias,
                            zeros: zeros, output: &output, tiles: part,
                            residual: fusedAdd ? FloatConvResidual(input: r.baseAddress!, channels: channels, min: addLo, max: addHi) : nil)
                    }
                }
                return output
            }
            let expected = zip(run(false), residual).map { t, r -> Float in
                let sum = t + r
                let low = sum < addLo ? addLo : sum
                return low > addHi ? addHi : low
            }
            let actual = run(true)
            XCTAssertEqual(actual.map(\.bitPattern), expected.map(\.bitPattern), "\(K.self) \(g), operand of \(channels) channels")
        }
    }

    /// The SSE2 build's pre-broadcast 6 × 8 driver (used from 33 output channels on, and on shallow layers),
    /// on its own allocation and on a workspace that holds other values (as arena scratch does).
    func testBroadcast6x8MatchesReference() {
        check(rows: 6, panelWidth: 8, name: "broadcast 6x8", seed: 15) { g, lo, hi, x, w, b, z, y, part in
            Conv2DOptimized.floatBroadcast6x8(g, activationMin: lo, activationMax: hi, input: x, packedFilter: w,
                                              bias: b, zeros: z, output: y, tiles: part, workspace: nil)
        }
        check(rows: 6, panelWidth: 8, name: "broadcast 6x8 in a workspace", seed: 16) { g, lo, hi, x, w, b, z, y, part in
            let workspace = PoisonedWorkspace(byteCount: Conv2DOptimized.floatBroadcast6x8WorkspaceBytes(g))
            Conv2DOptimized.floatBroadcast6x8(g, activationMin: lo, activationMax: hi, input: x, packedFilter: w,
                                              bias: b, zeros: z, output: y, tiles: part, workspace: workspace.workspace)
            workspace.assertGuardIntact("broadcast 6x8 \(g)")
        }
    }

    /// The build's public entry point with the build's packing covers the output exactly once.
    func testNativeKernelMatchesReference() {
        var rng = SeededGenerator(seed: 14)
        for _ in 0..<20 {
            let g = randomGeometry(&rng)
            let input = (0..<g.inputCount).map { _ in rng.float() }
            let filter = (0..<g.filterCount).map { _ in rng.float() }
            let bias = (0..<g.outputDepth).map { _ in rng.float() }
            var expected = [Float](repeating: 0, count: g.outputCount)
            Conv2DReference.float(g, activationMin: -1, activationMax: 1, input: input, filter: filter, bias: bias, output: &expected)
            let packed = ConvFilterPacking.packFloat(filter, outputDepth: g.outputDepth,
                                                     depth: g.filterHeight * g.filterWidth * g.inputDepth)
            let zeros = [Float](repeating: 0, count: g.inputDepth)
            var actual = [Float](repeating: .nan, count: g.outputCount)
            Conv2DOptimized.float(g, activationMin: -1, activationMax: 1, input: input, packedFilter: packed, bias: bias,
                                  zeros: zeros, output: &actual, tiles: 0..<Conv2DOptimized.floatTileCount(g))
            let problem = TolerantCompare.mismatch(actual.map(Double.init), expected.map(Double.init)) { 1e-4 * max(1, abs($0)) }
            XCTAssertNil(problem, "\(g)")
        }
    }

    /// The per-layer choice: a build candidate, never the wide tile on shallow layers, and the
    /// packing and the kernel agree on the panel width.
    func testShapeChoiceIsConsistent() {
        for outputDepth in [1, 8, 12, 16, 24, 48, 96, 144, 256] {
            for depth in [3, 27, 48, 64, 320, 2304] {
                let shape = FloatConvKernelShape.native(outputDepth: outputDepth, depth: depth)
                XCTAssertTrue(FloatConvKernelShape.candidates.contains { $0.shape == shape })
                if depth < FloatConvKernelShape.wideMinimumDepth(shape) { XCTAssertLessThan(shape.panelWidth, 32) }
                let filter = [Float](repeating: 1, count: outputDepth * depth)
                let packed = ConvFilterPacking.packFloat(filter, outputDepth: outputDepth, depth: depth)
                let panels = (outputDepth + shape.panelWidth - 1) / shape.panelWidth
                XCTAssertEqual(packed.count, panels * shape.panelWidth * depth)
            }
        }
        // The fastest candidate wins on a deep layer whose channels fill every candidate's panels
        // (the widest, except on CPUs that split zmm operations, where the 8 × 16 tile is faster).
        let fastest = FloatConvKernelShape.candidates.max { $0.rate < $1.rate }!.shape
        XCTAssertEqual(FloatConvKernelShape.native(outputDepth: 256, depth: 320), fastest)
    }
}
