import TestSupport
import XCTest
@testable import TFLiteKernels

/// Every microkernel of the quantized GEMM this build compiles (AVX-512 VNNI in tuned builds,
/// SSE2 on x86-64, the portable SIMD kernel everywhere) against the reference CONV_2D and
/// FULLY_CONNECTED kernels, bit for bit, on seeded random geometries: odd input depths, SAME and
/// VALID padding, stride 2, dilation 2, output depths that are not multiples of the 16/32-channel
/// tiles, pixel counts that are not multiples of the 8-pixel tile, 2 batches, uint8 with
/// nonzero filter zero points, int8 per-channel, hybrid; work split into arbitrary tile chunks.
final class QuantizedGEMMTests: XCTestCase {
    /// A random CONV_2D geometry; every fourth one is forced to the awkward corners
    /// (depth 3, stride 2, dilation 2, 2 batches, 40 output channels). Every fourth from the
    /// second on is up to 30 pixels wide, so that strided layers have tiles of 8 pixels whose
    /// windows lie inside the input (the generated kernels' shared offset table).
    private func randomGeometry(_ rng: inout SeededGenerator, index: Int) -> ConvolutionGeometry {
        let corner = index % 4 == 0
        let cin = corner ? 3 : rng.int(1...37)
        let fh = rng.int(1...3) * 2 - 1, fw = corner ? 3 : rng.int(1...4)
        let sh = corner ? 2 : rng.int(1...2), sw = rng.int(1...2)
        let dh = corner ? 2 : (rng.int(0...3) == 0 ? 2 : 1), dw = rng.int(0...3) == 0 ? 2 : 1
        let h = rng.int(fh...14), w = rng.int(fw...(index % 4 == 1 ? 30 : 14))
        let padding: ConvolutionPadding = rng.int(0...1) == 0 ? .same : .valid
        var rows = ConvolutionAxis(inputSize: h, filterSize: fh, stride: sh, dilation: dh, padding: padding)
        var cols = ConvolutionAxis(inputSize: w, filterSize: fw, stride: sw, dilation: dw, padding: padding)
        if rows.outputSize <= 0 { rows = ConvolutionAxis(inputSize: h, filterSize: fh, stride: sh, dilation: dh, padding: .same) }
        if cols.outputSize <= 0 { cols = ConvolutionAxis(inputSize: w, filterSize: fw, stride: sw, dilation: dw, padding: .same) }
        let cout = corner ? 40 : rng.int(1...70)
        return ConvolutionGeometry(batches: corner ? 2 : rng.int(1...2), inputHeight: h, inputWidth: w, inputDepth: cin,
                                   filterHeight: fh, filterWidth: fw, filterInputDepth: cin,
                                   outputHeight: rows.outputSize, outputWidth: cols.outputSize, outputDepth: cout,
                                   strideHeight: sh, strideWidth: sw, dilationHeight: dh, dilationWidth: dw,
                                   padTop: rows.padBefore, padLeft: cols.padBefore)
    }

    /// A FULLY_CONNECTED geometry and its 1×1-convolution form.
    private func randomFullyConnected(_ rng: inout SeededGenerator) -> (FullyConnectedGeometry, ConvolutionGeometry) {
        let fc = FullyConnectedGeometry(batches: rng.int(1...11), inputSize: rng.int(1...300), outputSize: rng.int(1...90))
        let g = ConvolutionGeometry(batches: fc.batches, inputHeight: 1, inputWidth: 1, inputDepth: fc.inputSize,
                                    filterHeight: 1, filterWidth: 1, filterInputDepth: fc.inputSize,
                                    outputHeight: 1, outputWidth: 1, outputDepth: fc.outputSize)
        return (fc, g)
    }

    /// A random CONV_2D geometry, replaced by a FULLY_CONNECTED one (and its 1×1 form) when
    /// `fullyConnected` (the convolution is drawn first either way, as the seeded cases expect).
    private func randomLayer(_ rng: inout SeededGenerator, index: Int, fullyConnected: Bool) -> (ConvolutionGeometry, FullyConnectedGeometry?) {
        let g = randomGeometry(&rng, index: index)
        guard fullyConnected else { return (g, nil) }
        let (fc, fcGeometry) = randomFullyConnected(&rng)
        return (fcGeometry, fc)
    }

    private func quantizedParameters(_ rng: inout SeededGenerator, channels: Int, uint8: Bool, depth: Int) -> QuantizedConvolutionParameters {
        let inputZero = uint8 ? Int32(rng.int(0...255)) : Int32(rng.int(-128...127))
        let filterZero = uint8 ? Int32(rng.int(1...255)) : 0
        let base = 1.0 / (Double(depth) * 60)
        let perChannel = !uint8
        let shared = QuantizedMultiplier(base * pow(10, Double(rng.int(-20...30)) / 10))
        // One per-channel multiplier in 8 is a dead channel's (near 1e-9, right shift above 22,
        // whose output offset the generated requantization cannot fold).
        let multipliers = (0..<channels).map { c in
            perChannel ? QuantizedMultiplier(c % 8 == 5 ? 1.3e-9 : base * pow(10, Double(rng.int(-20...30)) / 10)) : shared
        }
        let outputZero = uint8 ? Int32(rng.int(0...255)) : Int32(rng.int(-128...127))
        // One layer in three clamps from its output offset (RELU, RELU6), where the generated
        // AVX-512 requantization skips the negative products' addend.
        // Of the others, one in three clamps to the type's whole range, which the generated
        // requantizations leave to their saturating stores.
        let relu = rng.int(0...2) == 0
        let wholeRange = !relu && rng.int(0...2) == 0
        let lo: Int32 = relu ? outputZero : wholeRange ? (uint8 ? 0 : -128)
            : uint8 ? Int32(rng.int(0...60)) : Int32(rng.int((-128)...(-60)))
        let hi: Int32 = wholeRange ? (uint8 ? 255 : 127) : max(lo, uint8 ? Int32(rng.int(190...255)) : Int32(rng.int(60...127)))
        return QuantizedConvolutionParameters(inputOffset: -inputZero, filterOffset: -filterZero, outputOffset: outputZero,
                                              outputMultipliers: multipliers, activationMin: lo, activationMax: hi)
    }


    /// The paired activation buffer of `g`'s input (per-batch offsets), with its zero pixel.
    private func pairedInput<T: FixedWidthInteger>(_ input: [T], _ g: ConvolutionGeometry, offsets: [Int32]) -> [Int16] {
        func convert(_ x: UnsafePointer<T>, pixels: Int, depth: Int, offset: Int32, into out: UnsafeMutablePointer<Int16>) {
            if T.self == UInt8.self {
                Int16PairPacking.convert(UnsafeRawPointer(x).assumingMemoryBound(to: UInt8.self), pixels: pixels,
                                         depth: depth, offset: offset, into: out)
            } else {
                Int16PairPacking.convert(UnsafeRawPointer(x).assumingMemoryBound(to: Int8.self), pixels: pixels,
                                         depth: depth, offset: offset, into: out)
            }
        }
        let pixels = g.inputHeight * g.inputWidth
        let stride = Int16PairPacking.pairedDepth(g.inputDepth)
        var out = [Int16](repeating: 0, count: Int16PairPacking.activationCount(pixels: g.batches * pixels, depth: g.inputDepth))
        input.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for b in 0..<g.batches {
                    convert(src.baseAddress! + b * pixels * g.inputDepth, pixels: pixels, depth: g.inputDepth,
                            offset: offsets[b], into: dst.baseAddress! + b * pixels * stride)
                }
            }
        }
        return out
    }

    /// Runs `kernel` over random tile chunks of `g`, each chunk in a poisoned workspace of the
    /// bytes `QuantizedGEMM.workspaceBytes` declares.
    private func runGEMM<E: ConvIntegerEpilogue, X, W>(_ g: ConvolutionGeometry, _ kernel: QuantizedGEMMKernel,
                                                       layout: QuantizedGEMMLayout = .int16Pairs, input: [X],
                                                       packed: [W], bias: [Int32]?, epilogue: E, output: inout [E.Output],
                                                       filterOffset: Int32 = 0, rng: inout SeededGenerator) {
        for part in rng.chunks(QuantizedGEMM.tileCount(g)) {
            input.withUnsafeBufferPointer { x in
                packed.withUnsafeBufferPointer { w in
                    output.withUnsafeMutableBufferPointer { y in
                        withOptionalPointer(bias) { b in
                            let workspace = PoisonedWorkspace(byteCount: QuantizedGEMM.workspaceBytes(g))
                            QuantizedGEMM.run(g, layout: layout, input: UnsafeRawPointer(x.baseAddress!),
                                              packedFilter: UnsafeRawPointer(w.baseAddress!), bias: b,
                                              epilogue: epilogue, output: y.baseAddress!, tiles: part,
                                              filterOffset: filterOffset, kernel: kernel, workspace: workspace.workspace)
                            workspace.assertGuardIntact("\(kernel) \(layout) \(g)")
                        }
                    }
                }
            }
        }
    }

    private func withOptionalPointer<R>(_ values: [Int32]?, _ body: (UnsafePointer<Int32>?) -> R) -> R {
        guard let values else { return body(nil) }
        return values.withUnsafeBufferPointer { body($0.baseAddress) }
    }

    /// The reference runtime's output: FULLY_CONNECTED when `fc` is given (`g` its 1×1 form),
    /// else CONV_2D over `g`.
    private func referenceOutput<T: FixedWidthInteger>(_ g: ConvolutionGeometry, fc: FullyConnectedGeometry?,
                                                       _ q: QuantizedConvolutionParameters, input: [T], filter: [T],
                                                       bias: [Int32]?) -> [T] {
        var expected = [T](repeating: 0, count: g.outputCount)
        if let fc {
            FullyConnectedReference.quantized(fc, q, input: input, weights: filter, bias: bias, output: &expected)
        } else {
            Conv2DReference.quantized(g, q, input: input, filter: filter, bias: bias, output: &expected)
        }
        return expected
    }

    /// `filter`'s bytes packed for the byte-weight pair layouts (`Int16PairPacking.packBytesAligned`).
    private func bytePairs<T: FixedWidthInteger>(_ filter: [T], _ g: ConvolutionGeometry) throws -> [UInt8] {
        let packed = try filter.withUnsafeBytes {
            try Int16PairPacking.packBytesAligned($0.bindMemory(to: UInt8.self).baseAddress!, outputDepth: g.outputDepth,
                                                  taps: g.filterHeight * g.filterWidth, inputDepth: g.inputDepth)
        }
        return Array(UnsafeBufferPointer(start: packed.pointer, count: packed.count))
    }

    /// The int16-pair check shared by the uint8/int8 CONV_2D and FULLY_CONNECTED tests: packs
    /// `filter` and `input` (filter and input offsets of `q`), runs `kernel` over random chunks and
    /// compares with the reference's `expected`, bit for bit; then again with the weights as
    /// bytes (`uint8WeightPairs`, or `int8WeightPairs` for a filter offset of 0).
    private func checkPairs<T: FixedWidthInteger & SIMDScalar>(
        _ g: ConvolutionGeometry, _ kernel: QuantizedGEMMKernel, _ q: QuantizedConvolutionParameters, input: [T], filter: [T],
        bias: [Int32]?, expected: [T], rng: inout SeededGenerator, _ message: String
    ) {
        let packed = Int16PairPacking.pack(filter, offset: q.filterOffset, outputDepth: g.outputDepth,
                                           taps: g.filterHeight * g.filterWidth, inputDepth: g.inputDepth)
        let paired = pairedInput(input, g, offsets: Array(repeating: q.inputOffset, count: g.batches))
        var actual = [T](repeating: 0, count: expected.count)
        runGEMM(g, kernel, input: paired, packed: packed, bias: bias,
                epilogue: ConvRequantizeEpilogue<T>(requantizer: ConvRequantizer(q)), output: &actual, rng: &rng)
        XCTAssertEqual(actual, expected, message)
        let byteLayout: QuantizedGEMMLayout = T.self == UInt8.self ? .uint8WeightPairs : .int8WeightPairs
        guard byteLayout == .uint8WeightPairs || q.filterOffset == 0 else { return }
        var fromBytes = [T](repeating: 0, count: expected.count)
        runGEMM(g, kernel, layout: byteLayout, input: paired, packed: try! bytePairs(filter, g), bias: bias,
                epilogue: ConvRequantizeEpilogue<T>(requantizer: ConvRequantizer(q)), output: &fromBytes,
                filterOffset: q.filterOffset, rng: &rng)
        XCTAssertEqual(fromBytes, expected, "\(byteLayout) " + message)
    }

    /// Quantizes each of `batches` rows of `input` on the fly (asymmetric, as hybrid kernels do).
    private func quantizeRows(_ input: [Float], batches: Int, rowSize: Int) -> (values: [Int8], scales: [Float], offsets: [Int32]) {
        var quantized = [Int8](repeating: 0, count: input.count)
        var scales = [Float](repeating: 0, count: batches), offsets = [Int32](repeating: 0, count: batches)
        input.withUnsafeBufferPointer { src in
            quantized.withUnsafeMutableBufferPointer { dst in
                for b in 0..<batches {
                    let r = HybridInputQuantizer.asymmetric(src.baseAddress! + b * rowSize, count: rowSize,
                                                            into: dst.baseAddress! + b * rowSize)
                    scales[b] = r.scale; offsets[b] = r.offset
                }
            }
        }
        return (quantized, scales, offsets)
    }

    /// The hybrid check shared by the CONV_2D and FULLY_CONNECTED tests: the filter packed with
    /// offset 0, the quantized input minus its per-batch offsets, compared exactly with `expected`.
    private func checkHybridPairs(_ g: ConvolutionGeometry, _ kernel: QuantizedGEMMKernel, _ p: HybridConvolutionParameters,
                                  quantized: [Int8], scales: [Float], offsets: [Int32], filter: [Int8], bias: [Float],
                                  expected: [Float], rng: inout SeededGenerator, _ message: String) {
        let packed = Int16PairPacking.pack(filter, offset: 0, outputDepth: g.outputDepth,
                                           taps: g.filterHeight * g.filterWidth, inputDepth: g.inputDepth)
        let paired = pairedInput(quantized, g, offsets: offsets.map { -$0 })
        var actual = [Float](repeating: .nan, count: expected.count)
        var fromBytes = actual
        let bytes = try! bytePairs(filter, g)
        scales.withUnsafeBufferPointer { s in
            bias.withUnsafeBufferPointer { bb in
                let epilogue = ConvHybridEpilogue(parameters: p, inputScales: s.baseAddress!, bias: bb.baseAddress!)
                runGEMM(g, kernel, input: paired, packed: packed, bias: nil, epilogue: epilogue, output: &actual, rng: &rng)
                runGEMM(g, kernel, layout: .int8WeightPairs, input: paired, packed: bytes, bias: nil, epilogue: epilogue,
                        output: &fromBytes, rng: &rng)
            }
        }
        XCTAssertEqual(actual, expected, message)
        XCTAssertEqual(fromBytes, expected, "int8WeightPairs " + message)
    }

    private func checkQuantizedConv<T: FixedWidthInteger & SIMDScalar>(_ type: T.Type, seed: UInt64) {
        let isU8 = T.self == UInt8.self
        for kernel in QuantizedGEMMKernel.compiled {
            var rng = SeededGenerator(seed: seed)
            for index in 0..<48 {
                let g = randomGeometry(&rng, index: index)
                let taps = g.filterHeight * g.filterWidth
                let q = quantizedParameters(&rng, channels: g.outputDepth, uint8: isU8, depth: taps * g.inputDepth)
                let input = (0..<g.inputCount).map { _ in T(truncatingIfNeeded: rng.next()) }
                let filter = (0..<g.filterCount).map { _ in T(truncatingIfNeeded: rng.next()) }
                let bias: [Int32]? = rng.int(0...4) == 0 ? nil : (0..<g.outputDepth).map { _ in Int32(rng.int(-20000...20000)) }
                let expected = referenceOutput(g, fc: nil, q, input: input, filter: filter, bias: bias)
                checkPairs(g, kernel, q, input: input, filter: filter, bias: bias, expected: expected, rng: &rng, "\(kernel) \(g)")
            }
        }
    }

    func testUInt8ConvIsBitExact() { checkQuantizedConv(UInt8.self, seed: 21) }
    func testInt8PerChannelConvIsBitExact() { checkQuantizedConv(Int8.self, seed: 22) }

    func testHybridConvIsExact() {
        for kernel in QuantizedGEMMKernel.compiled {
            var rng = SeededGenerator(seed: 23)
            for index in 0..<32 {
                let g = randomGeometry(&rng, index: index)
                let rowSize = g.inputHeight * g.inputWidth * g.inputDepth
                let input = (0..<g.inputCount).map { _ in rng.float() * 3 + 0.5 }
                let (quantized, scales, offsets) = quantizeRows(input, batches: g.batches, rowSize: rowSize)
                let filter = (0..<g.filterCount).map { _ in Int8(truncatingIfNeeded: rng.int(-127...127)) }
                // Both rounding orders of the rescale (per-tensor and per-channel reference paths).
                let p = HybridConvolutionParameters(filterScales: (0..<g.outputDepth).map { _ in 0.01 * Float(rng.int(1...100)) },
                                                    activationMin: -5, activationMax: 5, scalesMultipliedFirst: index % 2 == 1)
                let bias = (0..<g.outputDepth).map { _ in rng.float() }
                var expected = [Float](repeating: 0, count: g.outputCount)
                Conv2DReference.hybrid(g, p, quantizedInput: quantized, inputScales: scales, inputOffsets: offsets,
                                       filter: filter, bias: bias, output: &expected)
                // Same integer sums, same float steps: identical results.
                checkHybridPairs(g, kernel, p, quantized: quantized, scales: scales, offsets: offsets, filter: filter, bias: bias,
                                 expected: expected, rng: &rng, "\(kernel) \(g)")
            }
        }
    }

    private func checkQuantizedFullyConnected<T: FixedWidthInteger & SIMDScalar>(_ type: T.Type, seed: UInt64) {
        let isU8 = T.self == UInt8.self
        for kernel in QuantizedGEMMKernel.compiled {
            var rng = SeededGenerator(seed: seed)
            for _ in 0..<30 {
                let (fc, g) = randomFullyConnected(&rng)
                let q = quantizedParameters(&rng, channels: fc.outputSize, uint8: isU8, depth: fc.inputSize)
                let input = (0..<fc.batches * fc.inputSize).map { _ in T(truncatingIfNeeded: rng.next()) }
                let weights = (0..<fc.outputSize * fc.inputSize).map { _ in T(truncatingIfNeeded: rng.next()) }
                let bias = (0..<fc.outputSize).map { _ in Int32(rng.int(-20000...20000)) }
                let expected = referenceOutput(g, fc: fc, q, input: input, filter: weights, bias: bias)
                checkPairs(g, kernel, q, input: input, filter: weights, bias: bias, expected: expected, rng: &rng,
                           "\(kernel) \(fc)")
            }
        }
    }

    func testUInt8FullyConnectedIsBitExact() { checkQuantizedFullyConnected(UInt8.self, seed: 24) }
    func testInt8FullyConnectedIsBitExact() { checkQuantizedFullyConnected(Int8.self, seed: 25) }

    /// The hybrid GEMM over int8 quads (inputs quantized symmetrically, as `HybridQuadGEMM` runs
    /// them): the quantized rows as `x + 128` bytes, the correction `−128 · Σ w` as the Int32
    /// bias, and the float epilogue give the reference's floats exactly, in both rescale orders.
    func testHybridQuadLayoutIsExact() {
        for kernel in QuantizedGEMMKernel.compiled {
            var rng = SeededGenerator(seed: 29)
            for index in 0..<32 {
                let (g, _) = randomLayer(&rng, index: index, fullyConnected: index % 4 == 3)
                let taps = g.filterHeight * g.filterWidth
                let rowSize = g.inputHeight * g.inputWidth * g.inputDepth
                let input = (0..<g.inputCount).map { _ in rng.float() * 3 - 1 }
                var quantized = [Int8](repeating: 0, count: input.count)
                var scales = [Float](repeating: 0, count: g.batches)
                input.withUnsafeBufferPointer { src in
                    quantized.withUnsafeMutableBufferPointer { dst in
                        for b in 0..<g.batches {
                            scales[b] = HybridInputQuantizer.symmetric(src.baseAddress! + b * rowSize, count: rowSize,
                                                                       into: dst.baseAddress! + b * rowSize)
                        }
                    }
                }
                let filter = (0..<g.filterCount).map { _ in Int8(truncatingIfNeeded: rng.int(-127...127)) }
                let p = HybridConvolutionParameters(filterScales: (0..<g.outputDepth).map { _ in 0.01 * Float(rng.int(1...100)) },
                                                    activationMin: -4, activationMax: 6, scalesMultipliedFirst: index % 2 == 1)
                let bias = (0..<g.outputDepth).map { _ in rng.float() }
                var expected = [Float](repeating: 0, count: g.outputCount)
                Conv2DReference.hybrid(g, p, quantizedInput: quantized, inputScales: scales,
                                       inputOffsets: [Int32](repeating: 0, count: g.batches), filter: filter, bias: bias,
                                       output: &expected)
                let packed = Int8QuadPacking.pack(filter, outputDepth: g.outputDepth, taps: taps, inputDepth: g.inputDepth)
                let correction = Int8QuadPacking.biasCorrection(filter, outputDepth: g.outputDepth, depth: taps * g.inputDepth,
                                                                inputOffset: 0)
                let pixels = g.batches * g.inputHeight * g.inputWidth
                var quads = [UInt8](repeating: 0xA5, count: Int8QuadPacking.activationCount(pixels: pixels, depth: g.inputDepth))
                Int8QuadPacking.convert(quantized, pixels: pixels, depth: g.inputDepth, into: &quads)
                Int8QuadPacking.fillPaddingPixel(&quads, pixels: pixels, depth: g.inputDepth, value: Int8QuadPacking.paddingByte(inputOffset: 0))
                var actual = [Float](repeating: .nan, count: g.outputCount)
                scales.withUnsafeBufferPointer { s in
                    bias.withUnsafeBufferPointer { bb in
                        runGEMM(g, kernel, layout: .uint8Quads, input: quads, packed: packed, bias: correction,
                                epilogue: ConvHybridEpilogue(parameters: p, inputScales: s.baseAddress!, bias: bb.baseAddress!),
                                output: &actual, rng: &rng)
                    }
                }
                XCTAssertEqual(actual, expected, "\(kernel) \(g)")
                guard kernel == QuantizedGEMMKernel.compiled.first else { continue }
                // The entry point `HybridQuadGEMM` calls, over every tile at once.
                var entry = [Float](repeating: .nan, count: g.outputCount)
                quads.withUnsafeBufferPointer { x in
                    packed.withUnsafeBufferPointer { w in
                        correction.withUnsafeBufferPointer { c in
                            scales.withUnsafeBufferPointer { s in
                                bias.withUnsafeBufferPointer { bb in
                                    QuantizedGEMM.hybridQuads(g, p, input: x.baseAddress!, inputScales: s.baseAddress!,
                                                              packedFilter: w.baseAddress!, correction: c.baseAddress!,
                                                              bias: bb.baseAddress!, output: &entry,
                                                              tiles: 0..<QuantizedGEMM.tileCount(g))
                                }
                            }
                        }
                    }
                }
                XCTAssertEqual(entry, expected, "hybridQuads \(g)")
            }
        }
    }

    func testHybridFullyConnectedIsExact() {
        for kernel in QuantizedGEMMKernel.compiled {
            var rng = SeededGenerator(seed: 26)
            for _ in 0..<20 {
                let (fc, g) = randomFullyConnected(&rng)
                let input = (0..<fc.batches * fc.inputSize).map { _ in rng.float() * 2 }
                let (quantized, scales, offsets) = quantizeRows(input, batches: fc.batches, rowSize: fc.inputSize)
                let weights = (0..<fc.outputSize * fc.inputSize).map { _ in Int8(truncatingIfNeeded: rng.int(-127...127)) }
                let p = HybridConvolutionParameters(filterScales: (0..<fc.outputSize).map { _ in 0.01 * Float(rng.int(1...100)) },
                                                    activationMin: -4, activationMax: 6, scalesMultipliedFirst: true)
                let bias = (0..<fc.outputSize).map { _ in rng.float() }
                var expected = [Float](repeating: 0, count: fc.batches * fc.outputSize)
                FullyConnectedReference.hybrid(fc, p, quantizedInput: quantized, inputScales: scales, inputOffsets: offsets,
                                               weights: weights, bias: bias, output: &expected)
                checkHybridPairs(g, kernel, p, quantized: quantized, scales: scales, offsets: offsets, filter: weights, bias: bias,
                                 expected: expected, rng: &rng, "\(kernel) \(fc)")
            }
        }
    }

    /// Extreme values: |x − zero point| and |w − zero point| at 255 over a deep window, where
    /// every product is 65025 and sums grow large, still exact.
    func testExtremeUInt8ValuesStayExact() {
        for kernel in QuantizedGEMMKernel.compiled {
            var rng = SeededGenerator(seed: 27)
            let g = ConvolutionGeometry(batches: 1, inputHeight: 5, inputWidth: 6, inputDepth: 129,
                                        filterHeight: 3, filterWidth: 3, filterInputDepth: 129,
                                        outputHeight: 5, outputWidth: 6, outputDepth: 33, padTop: 1, padLeft: 1)
            let q = QuantizedConvolutionParameters(inputOffset: 0, filterOffset: -255, outputOffset: 255,
                                                   outputMultipliers: Array(repeating: QuantizedMultiplier(2e-6), count: 33),
                                                   activationMin: 0, activationMax: 255)
            let input = (0..<g.inputCount).map { _ in rng.int(0...3) == 0 ? UInt8(rng.int(0...255)) : 255 }
            let filter = (0..<g.filterCount).map { _ in rng.int(0...3) == 0 ? UInt8(rng.int(0...255)) : 0 }
            let expected = referenceOutput(g, fc: nil, q, input: input, filter: filter, bias: nil)
            checkPairs(g, kernel, q, input: input, filter: filter, bias: nil, expected: expected, rng: &rng, "\(kernel)")
            XCTAssertTrue(expected.contains { $0 != expected[0] }, "the check must see varied outputs")
        }
    }

    /// The int8-quad layout (unsigned `x + 128` against signed weights, zero point folded into
    /// the bias, padding taps reading `zp + 128`), CONV_2D and FULLY_CONNECTED.
    func testInt8QuadLayoutIsBitExact() {
        for kernel in QuantizedGEMMKernel.compiled {
            var rng = SeededGenerator(seed: 28)
            for index in 0..<48 {
                let (g, fc) = randomLayer(&rng, index: index, fullyConnected: index % 3 == 2)
                let taps = g.filterHeight * g.filterWidth
                var q = quantizedParameters(&rng, channels: g.outputDepth, uint8: false, depth: taps * g.inputDepth)
                if index % 5 == 0 { q.inputOffset = 128 } else if index % 5 == 1 { q.inputOffset = -127 }
                let input = (0..<g.inputCount).map { _ in Int8(truncatingIfNeeded: rng.next()) }
                let filter = (0..<g.filterCount).map { _ in Int8(truncatingIfNeeded: rng.next()) }
                let bias: [Int32]? = rng.int(0...4) == 0 ? nil : (0..<g.outputDepth).map { _ in Int32(rng.int(-20000...20000)) }
                let expected = referenceOutput(g, fc: fc, q, input: input, filter: filter, bias: bias)
                let packed = Int8QuadPacking.pack(filter, outputDepth: g.outputDepth, taps: taps, inputDepth: g.inputDepth)
                let correction = Int8QuadPacking.biasCorrection(filter, outputDepth: g.outputDepth, depth: taps * g.inputDepth,
                                                                inputOffset: q.inputOffset)
                let combined = (0..<g.outputDepth).map { (bias?[$0] ?? 0) &+ correction[$0] }
                let pixels = g.batches * g.inputHeight * g.inputWidth
                var quads = [UInt8](repeating: 0xA5, count: Int8QuadPacking.activationCount(pixels: pixels, depth: g.inputDepth))
                Int8QuadPacking.convert(input, pixels: pixels, depth: g.inputDepth, into: &quads)
                Int8QuadPacking.fillPaddingPixel(&quads, pixels: pixels, depth: g.inputDepth, value: Int8QuadPacking.paddingByte(inputOffset: q.inputOffset))
                var actual = [Int8](repeating: 0, count: g.outputCount)
                runGEMM(g, kernel, layout: .uint8Quads, input: quads, packed: packed, bias: combined,
                        epilogue: ConvRequantizeEpilogue<Int8>(requantizer: ConvRequantizer(q)), output: &actual, rng: &rng)
                XCTAssertEqual(actual, expected, "\(kernel) \(g)")
            }
        }
    }

    /// The patch rows of every batch image of `input` (`g.batches` images of
    /// `outputHeight · outputWidth` rows of `stride` elements, plus the layout's trailing
    /// padding row), prefilled with `filler` so rows the gather misses would show; `gather(image, rows)`
    /// writes one image's rows.
    private func patchRows<Source, Target: FixedWidthInteger>(
        _ input: [Source], _ g: ConvolutionGeometry, filler: Target, stride: Int,
        _ gather: (UnsafePointer<Source>, UnsafeMutablePointer<Target>) -> Void
    ) -> [Target] {
        let imagePixels = g.outputHeight * g.outputWidth
        let imageSize = g.inputHeight * g.inputWidth * g.inputDepth
        var rows = [Target](repeating: filler, count: (g.batches * imagePixels + 1) * stride)
        input.withUnsafeBufferPointer { x in
            rows.withUnsafeMutableBufferPointer { out in
                for b in 0..<g.batches { gather(x.baseAddress! + b * imageSize, out.baseAddress! + b * imagePixels * stride) }
            }
        }
        return rows
    }

    /// Patch form (few input channels): gathered windows run as a 1×1 GEMM, uint8 and int8 in
    /// the int16-pair layout and int8 in the int8-quad layout, padding taps included.
    func testPatchFormIsBitExact() {
        for kernel in QuantizedGEMMKernel.compiled {
            var rng = SeededGenerator(seed: 29)
            for index in 0..<36 {
                var g = randomGeometry(&rng, index: index)
                g.inputDepth = rng.int(1...7); g.filterInputDepth = g.inputDepth
                if g.filterHeight * g.filterWidth == 1 { continue }
                XCTAssertTrue(QuantizedConvPatches.prefersPatches(g))
                let patch = QuantizedConvPatches.patchGeometry(g)
                let taps = g.filterHeight * g.filterWidth
                let imagePixels = g.outputHeight * g.outputWidth
                switch index % 3 {
                case 0:
                    let q = quantizedParameters(&rng, channels: g.outputDepth, uint8: true, depth: taps * g.inputDepth)
                    let input = (0..<g.inputCount).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                    let filter = (0..<g.filterCount).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                    let bias = (0..<g.outputDepth).map { _ in Int32(rng.int(-20000...20000)) }
                    let expected = referenceOutput(g, fc: nil, q, input: input, filter: filter, bias: bias)
                    let packed = Int16PairPacking.pack(filter, offset: q.filterOffset, outputDepth: g.outputDepth,
                                                       taps: 1, inputDepth: taps * g.inputDepth)
                    let rows = patchRows(input, g, filler: Int16(7), stride: Int16PairPacking.pairedDepth(patch.inputDepth)) {
                        QuantizedConvPatches.gatherPairs($0, g, pixels: 0..<imagePixels, offset: q.inputOffset, into: $1)
                    }
                    var actual = [UInt8](repeating: 0, count: g.outputCount)
                    runGEMM(patch, kernel, input: rows, packed: packed, bias: bias,
                            epilogue: ConvRequantizeEpilogue<UInt8>(requantizer: ConvRequantizer(q)), output: &actual, rng: &rng)
                    XCTAssertEqual(actual, expected, "pairs \(kernel) \(g)")
                default:
                    let q = quantizedParameters(&rng, channels: g.outputDepth, uint8: false, depth: taps * g.inputDepth)
                    let input = (0..<g.inputCount).map { _ in Int8(truncatingIfNeeded: rng.next()) }
                    let filter = (0..<g.filterCount).map { _ in Int8(truncatingIfNeeded: rng.next()) }
                    let bias = (0..<g.outputDepth).map { _ in Int32(rng.int(-20000...20000)) }
                    let expected = referenceOutput(g, fc: nil, q, input: input, filter: filter, bias: bias)
                    var actual = [Int8](repeating: 0, count: g.outputCount)
                    if index % 3 == 1 {
                        let packed = Int8QuadPacking.pack(filter, outputDepth: g.outputDepth, taps: 1, inputDepth: taps * g.inputDepth)
                        let correction = Int8QuadPacking.biasCorrection(filter, outputDepth: g.outputDepth, depth: taps * g.inputDepth,
                                                                        inputOffset: q.inputOffset)
                        let combined = (0..<g.outputDepth).map { bias[$0] &+ correction[$0] }
                        let rows = patchRows(input, g, filler: UInt8(0x5A), stride: Int8QuadPacking.quadDepth(patch.inputDepth)) {
                            QuantizedConvPatches.gatherQuads($0, g, pixels: 0..<imagePixels, inputOffset: q.inputOffset, into: $1)
                        }
                        runGEMM(patch, kernel, layout: .uint8Quads, input: rows, packed: packed, bias: combined,
                                epilogue: ConvRequantizeEpilogue<Int8>(requantizer: ConvRequantizer(q)), output: &actual, rng: &rng)
                        XCTAssertEqual(actual, expected, "quads \(kernel) \(g)")
                    } else {
                        let packed = Int16PairPacking.pack(filter, offset: 0, outputDepth: g.outputDepth,
                                                           taps: 1, inputDepth: taps * g.inputDepth)
                        let rows = patchRows(input, g, filler: Int16(-3), stride: Int16PairPacking.pairedDepth(patch.inputDepth)) {
                            QuantizedConvPatches.gatherPairs($0, g, pixels: 0..<imagePixels, offset: q.inputOffset, into: $1)
                        }
                        runGEMM(patch, kernel, input: rows, packed: packed, bias: bias,
                                epilogue: ConvRequantizeEpilogue<Int8>(requantizer: ConvRequantizer(q)), output: &actual, rng: &rng)
                        XCTAssertEqual(actual, expected, "int8 pairs \(kernel) \(g)")
                    }
                }
            }
        }
    }

    /// The uint8-weight quad layout (uint8 weights with nonzero zero points against signed
    /// `x − 128`, window sums per output pixel, padding taps at `zp − 128`): CONV_2D, FULLY_CONNECTED
    /// and the patch form.
    /// The window-sum terms of the uint8-weight quads for every tile of random geometries
    /// (padding, strides, dilations, 2 batches), against their definition: interior tiles
    /// (`QuantizedGEMM.interiorWindowOrigin`, summed as vectors of 8 pixels) and the others
    /// (pixel by pixel, padding taps adding the padding pixel's sum).
    func testWindowSumTermsOfEveryTile() {
        var rng = SeededGenerator(seed: 96)
        var interiorTiles = 0, otherTiles = 0
        for index in 0..<80 {
            let g = randomGeometry(&rng, index: index)
            let inputPixels = g.batches * g.inputHeight * g.inputWidth
            let outputPixels = g.batches * g.outputHeight * g.outputWidth
            let pixelSums = (0..<inputPixels).map { _ in Int32(rng.int(-40_000...40_000)) }
            let padding = Int32(rng.int(-600...600)), scale = Int32(rng.int(-255...0))
            pixelSums.withUnsafeBufferPointer { sums in
                let windowSums = QuantizedGEMMWindowSums(pixelSums: sums.baseAddress!, padding: padding, scale: scale)
                var terms = [Int32](repeating: 0, count: QuantizedGEMM.tilePixels)
                var origin = GEMMTileOrigin(g, pixel: 0)
                for first in stride(from: 0, to: outputPixels, by: QuantizedGEMM.tilePixels) {
                    if first > 0 { origin.advance(g, by: QuantizedGEMM.tilePixels) }
                    let rows = min(QuantizedGEMM.tilePixels, outputPixels - first)
                    if QuantizedGEMM.interiorWindowOrigin(g, origin: origin, rows: rows) != nil { interiorTiles += 1 } else { otherTiles += 1 }
                    QuantizedGEMM.windowSumTerms(g, origin: origin, rows: rows, windowSums, into: &terms)
                    for r in 0..<rows {
                        let p = first + r
                        let b = p / (g.outputHeight * g.outputWidth), oy = p / g.outputWidth % g.outputHeight
                        let ox = p % g.outputWidth
                        var sum: Int32 = 0
                        for fy in 0..<g.filterHeight {
                            for fx in 0..<g.filterWidth {
                                let iy = oy * g.strideHeight - g.padTop + fy * g.dilationHeight
                                let ix = ox * g.strideWidth - g.padLeft + fx * g.dilationWidth
                                let inside = iy >= 0 && iy < g.inputHeight && ix >= 0 && ix < g.inputWidth
                                sum &+= inside ? sums[(b * g.inputHeight + iy) * g.inputWidth + ix] : padding
                            }
                        }
                        XCTAssertEqual(terms[r], scale &* sum, "geometry \(index) pixel \(p)")
                    }
                }
            }
        }
        XCTAssertGreaterThan(interiorTiles, 20, "the interior tiles' vector sums ran")
        XCTAssertGreaterThan(otherTiles, 20, "the border tiles' pixel sums ran")
    }

    func testUInt8WeightQuadLayoutIsBitExact() {
        for kernel in QuantizedGEMMKernel.compiled {
            var rng = SeededGenerator(seed: 30)
            for index in 0..<48 {
                let (layer, fc) = randomLayer(&rng, index: index, fullyConnected: index % 4 == 2)
                var g = layer
                if index % 4 == 3 {
                    g.inputDepth = rng.int(1...7); g.filterInputDepth = g.inputDepth
                }
                let patches = fc == nil && QuantizedConvPatches.prefersPatches(g) && index % 4 == 3
                let taps = g.filterHeight * g.filterWidth
                var q = quantizedParameters(&rng, channels: g.outputDepth, uint8: true, depth: taps * g.inputDepth)
                if index % 5 == 0 { q.inputOffset = 0; q.filterOffset = -255 } else if index % 5 == 1 { q.inputOffset = -255 }
                let input = (0..<g.inputCount).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                let filter = (0..<g.filterCount).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                let bias: [Int32]? = rng.int(0...4) == 0 ? nil : (0..<g.outputDepth).map { _ in Int32(rng.int(-20000...20000)) }
                let expected = referenceOutput(g, fc: fc, q, input: input, filter: filter, bias: bias)
                let gemm = patches ? QuantizedConvPatches.patchGeometry(g) : g
                let gemmTaps = gemm.filterHeight * gemm.filterWidth
                let packed = Int8QuadPacking.pack(filter, outputDepth: g.outputDepth, taps: gemmTaps, inputDepth: gemm.inputDepth)
                let correction = Int8QuadPacking.unsignedWeightBiasCorrection(filter, outputDepth: g.outputDepth,
                                                                              depth: taps * g.inputDepth,
                                                                              inputOffset: q.inputOffset, filterOffset: q.filterOffset)
                let combined = (0..<g.outputDepth).map { (bias?[$0] ?? 0) &+ correction[$0] }
                let rows = gemm.batches * gemm.inputHeight * gemm.inputWidth
                let stride = Int8QuadPacking.quadDepth(gemm.inputDepth)
                var bytes = [UInt8](repeating: 0xC3, count: Int8QuadPacking.activationCount(pixels: rows, depth: gemm.inputDepth))
                var sums = [Int32](repeating: 99, count: rows)
                Int8QuadPacking.fillPaddingPixel(&bytes, pixels: rows, depth: gemm.inputDepth,
                                                 value: Int8QuadPacking.unsignedWeightPaddingByte(inputOffset: q.inputOffset))
                input.withUnsafeBufferPointer { x in
                    bytes.withUnsafeMutableBufferPointer { out in
                        sums.withUnsafeMutableBufferPointer { s in
                            if patches {
                                let imagePixels = g.outputHeight * g.outputWidth
                                for b in 0..<g.batches {
                                    QuantizedConvPatches.gatherSignedQuads(x.baseAddress! + b * g.inputHeight * g.inputWidth * g.inputDepth,
                                                                           g, pixels: 0..<imagePixels, inputOffset: q.inputOffset,
                                                                           into: out.baseAddress! + b * imagePixels * stride,
                                                                           sums: s.baseAddress! + b * imagePixels)
                                }
                            } else {
                                Int8QuadPacking.convert(x.baseAddress!, pixels: rows, depth: g.inputDepth, into: out.baseAddress!,
                                                        sums: s.baseAddress!)
                            }
                        }
                    }
                }
                var actual = [UInt8](repeating: 0, count: g.outputCount)
                let epilogue = ConvRequantizeEpilogue<UInt8>(requantizer: ConvRequantizer(q))
                for part in rng.chunks(QuantizedGEMM.tileCount(gemm)) {
                    bytes.withUnsafeBufferPointer { x in
                        packed.withUnsafeBufferPointer { w in
                            combined.withUnsafeBufferPointer { bb in
                                sums.withUnsafeBufferPointer { s in
                                    actual.withUnsafeMutableBufferPointer { y in
                                        let windowSums = QuantizedGEMMWindowSums(
                                            pixelSums: s.baseAddress!, padding: Int32(gemm.inputDepth) &* (0 &- q.inputOffset &- 128),
                                            scale: q.filterOffset)
                                        let workspace = PoisonedWorkspace(byteCount: QuantizedGEMM.workspaceBytes(gemm))
                                        QuantizedGEMM.run(gemm, layout: .uint8WeightQuads, input: UnsafeRawPointer(x.baseAddress!),
                                                          packedFilter: UnsafeRawPointer(w.baseAddress!), bias: bb.baseAddress!,
                                                          epilogue: epilogue, output: y.baseAddress!, tiles: part,
                                                          windowSums: windowSums, kernel: kernel, workspace: workspace.workspace)
                                        workspace.assertGuardIntact("uint8-weight quads \(kernel) \(gemm)")
                                    }
                                }
                            }
                        }
                    }
                }
                XCTAssertEqual(actual, expected, "\(kernel) patches: \(patches) \(g)")
            }
        }
    }
}

/// `Int8QuadPacking.packAligned` (written straight into aligned memory) against `pack`, byte for
/// byte, on shapes with and without tails in the input depth (not a multiple of 4) and the
/// output depth (not a multiple of the panel width).
final class Int8QuadPackingTests: XCTestCase {
    func testAlignedPackingEqualsPack() throws {
        var rng = SeededGenerator(seed: 61)
        var shapes: [(outputDepth: Int, taps: Int, inputDepth: Int)] = [(1, 1, 1), (16, 1, 4), (17, 9, 3), (32, 1, 64), (3, 25, 7)]
        for _ in 0..<40 { shapes.append((rng.int(1...70), [1, 4, 9, 25].randomElement(using: &rng)!, rng.int(1...45))) }
        for s in shapes {
            let filter = (0..<(s.outputDepth * s.taps * s.inputDepth)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let want = filter.withUnsafeBufferPointer {
                Int8QuadPacking.pack($0.baseAddress!, outputDepth: s.outputDepth, taps: s.taps, inputDepth: s.inputDepth)
            }
            let got = try filter.withUnsafeBufferPointer {
                try Int8QuadPacking.packAligned($0.baseAddress!, outputDepth: s.outputDepth, taps: s.taps, inputDepth: s.inputDepth)
            }
            XCTAssertEqual(got.count, want.count, "\(s)")
            XCTAssertEqual(Int(bitPattern: got.pointer) % AlignedArray<UInt8>.alignment, 0)
            XCTAssertEqual(got.withUnsafeBufferPointer { Array($0) }, want, "\(s)")
        }
    }
}

/// The aligned packings the interpreter keeps (`Int16PairPacking.packAligned`,
/// `ConvFilterPacking.packFloatAligned`), written in place, against the array forms the
/// kernel tests use, element for element, with tails in every dimension. Each is packed right
/// after a block of the same size filled with a pattern was freed, so padding that the
/// in-place packing failed to zero would show.
final class AlignedPackingTests: XCTestCase {
    private static let shapes: [(outputDepth: Int, taps: Int, inputDepth: Int)] = {
        var rng = SeededGenerator(seed: 67)
        // (64, 9, 255) packs to more than `AlignedArray.prefaultedMinimumBytes`: mapped memory.
        var shapes: [(Int, Int, Int)] = [(1, 1, 1), (16, 1, 2), (17, 9, 3), (32, 1, 64), (3, 25, 7), (64, 9, 255)]
        for _ in 0..<30 { shapes.append((rng.int(1...70), [1, 4, 9, 25].randomElement(using: &rng)!, rng.int(1...45))) }
        return shapes
    }()

    func testInt16PairsAlignedEqualsPack() throws {
        var rng = SeededGenerator(seed: 71)
        for s in Self.shapes {
            let count = s.outputDepth * s.taps * s.inputDepth
            let unsigned = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let signed = unsigned.map { Int8(bitPattern: $0) }
            let packedCount = Int16PairPacking.packedCount(outputDepth: s.outputDepth, taps: s.taps, inputDepth: s.inputDepth)
            if s == (64, 9, 255) { XCTAssertGreaterThanOrEqual(packedCount * 2, AlignedArray<Int16>.prefaultedMinimumBytes) }
            _ = try AlignedArray<Int16>(repeating: 0x5A5A, count: packedCount)
            let gotUnsigned = try unsigned.withUnsafeBufferPointer {
                try Int16PairPacking.packAligned($0.baseAddress!, offset: -128, outputDepth: s.outputDepth, taps: s.taps,
                                                 inputDepth: s.inputDepth)
            }
            let wantUnsigned = unsigned.withUnsafeBufferPointer {
                Int16PairPacking.pack($0.baseAddress!, offset: -128, outputDepth: s.outputDepth, taps: s.taps, inputDepth: s.inputDepth)
            }
            XCTAssertEqual(gotUnsigned.withUnsafeBufferPointer { Array($0) }, wantUnsigned, "uint8 \(s)")
            _ = try AlignedArray<Int16>(repeating: 0x5A5A, count: packedCount)
            let gotSigned = try signed.withUnsafeBufferPointer {
                try Int16PairPacking.packAligned($0.baseAddress!, offset: 3, outputDepth: s.outputDepth, taps: s.taps,
                                                 inputDepth: s.inputDepth)
            }
            let wantSigned = signed.withUnsafeBufferPointer {
                Int16PairPacking.pack($0.baseAddress!, offset: 3, outputDepth: s.outputDepth, taps: s.taps, inputDepth: s.inputDepth)
            }
            XCTAssertEqual(gotSigned.withUnsafeBufferPointer { Array($0) }, wantSigned, "int8 \(s)")
            XCTAssertEqual(Int(bitPattern: gotSigned.pointer) % AlignedArray<Int16>.alignment, 0)
        }
    }

    /// The byte-weight pairs (`packBytesAligned`) are `pack`'s pairs with offset 0, one byte each:
    /// widened as signed bytes they equal the int8 packing, as unsigned ones the uint8 packing,
    /// padding included.
    func testBytePairsAreThePairsAsBytes() throws {
        var rng = SeededGenerator(seed: 79)
        for s in Self.shapes {
            let count = s.outputDepth * s.taps * s.inputDepth
            let unsigned = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let signed = unsigned.map { Int8(bitPattern: $0) }
            let packedCount = Int16PairPacking.packedCount(outputDepth: s.outputDepth, taps: s.taps, inputDepth: s.inputDepth)
            _ = try AlignedArray<UInt8>(repeating: 0x5A, count: packedCount)
            let bytes = try unsigned.withUnsafeBufferPointer {
                try Int16PairPacking.packBytesAligned($0.baseAddress!, outputDepth: s.outputDepth, taps: s.taps,
                                                      inputDepth: s.inputDepth)
            }
            XCTAssertEqual(bytes.count, packedCount, "\(s)")
            XCTAssertEqual(Int(bitPattern: bytes.pointer) % AlignedArray<UInt8>.alignment, 0)
            let got = bytes.withUnsafeBufferPointer { Array($0) }
            let wantUnsigned = unsigned.withUnsafeBufferPointer {
                Int16PairPacking.pack($0.baseAddress!, offset: 0, outputDepth: s.outputDepth, taps: s.taps, inputDepth: s.inputDepth)
            }
            let wantSigned = signed.withUnsafeBufferPointer {
                Int16PairPacking.pack($0.baseAddress!, offset: 0, outputDepth: s.outputDepth, taps: s.taps, inputDepth: s.inputDepth)
            }
            XCTAssertEqual(got.map { Int16($0) }, wantUnsigned, "uint8 \(s)")
            XCTAssertEqual(got.map { Int16(Int8(bitPattern: $0)) }, wantSigned, "int8 \(s)")
        }
    }

    func testFloatAlignedEqualsPackFloat() throws {
        var rng = SeededGenerator(seed: 73)
        for s in Self.shapes {
            let depth = s.taps * s.inputDepth
            let filter = (0..<(s.outputDepth * depth)).map { _ in rng.float() * 2 - 1 }
            let want = filter.withUnsafeBufferPointer {
                ConvFilterPacking.packFloat($0.baseAddress!, outputDepth: s.outputDepth, depth: depth)
            }
            _ = try AlignedArray<Float>(repeating: .nan, count: want.count)
            let got = try filter.withUnsafeBufferPointer {
                try ConvFilterPacking.packFloatAligned($0.baseAddress!, outputDepth: s.outputDepth, depth: depth)
            }
            XCTAssertEqual(got.withUnsafeBufferPointer { Array($0) }.map(\.bitPattern), want.map(\.bitPattern), "\(s)")
        }
    }
}
