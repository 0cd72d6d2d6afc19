import MachineCode
import TestSupport
import XCTest
@testable import TFLiteKernels

/// The kernels generated at run time: which ones this machine runs, their argument layout, and
/// that each ISA level's kernels are exercised here or skipped with a message, never silently.
/// Their numerical checks against the reference kernels are in `QuantizedGEMMTests` (every
/// `QuantizedGEMMKernel.compiled`, which includes `.generated`) and `FloatConvKernelTests`.
final class GeneratedKernelTests: XCTestCase {
    func testArgumentBlockLayoutMatchesTheGeneratedCode() {
        typealias A = GeneratedFloatTileArguments
        typealias F = A.Field
        XCTAssertEqual(MemoryLayout<A>.offset(of: \A.runs), Int(F.runs))
        XCTAssertEqual(MemoryLayout<A>.offset(of: \A.taps), Int(F.taps))
        XCTAssertEqual(MemoryLayout<A>.offset(of: \A.depthBytes), Int(F.depthBytes))
        XCTAssertEqual(MemoryLayout<A>.offset(of: \A.weights), Int(F.weights))
        XCTAssertEqual(MemoryLayout<A>.offset(of: \A.bias), Int(F.bias))
        XCTAssertEqual(MemoryLayout<A>.offset(of: \A.output), Int(F.output))
        XCTAssertEqual(MemoryLayout<A>.offset(of: \A.rowStrideBytes), Int(F.rowStrideBytes))
        XCTAssertEqual(MemoryLayout<A>.offset(of: \A.count), Int(F.count))
        XCTAssertEqual(MemoryLayout<A>.offset(of: \A.activationMin), Int(F.activationMin))
        XCTAssertEqual(MemoryLayout<A>.offset(of: \A.activationMax), Int(F.activationMax))
        XCTAssertEqual(MemoryLayout<A>.offset(of: \A.residual), Int(F.residual))
        XCTAssertEqual(MemoryLayout<A>.offset(of: \A.residualMin), Int(F.residualMin))
        XCTAssertEqual(MemoryLayout<A>.offset(of: \A.residualMax), Int(F.residualMax))
        XCTAssertEqual(MemoryLayout<A>.offset(of: \A.laneMask), Int(F.laneMask))
        XCTAssertEqual(MemoryLayout<A>.offset(of: \A.pointwiseTiles), Int(F.pointwiseTiles))
        XCTAssertEqual(MemoryLayout<A>.offset(of: \A.residualStrideBytes), Int(F.residualStrideBytes))
    }

    func testResizeRowArgumentBlockLayoutMatchesTheGeneratedCode() {
        typealias A = GeneratedResizeRowArguments
        typealias F = A.Field
        let fields: [(PartialKeyPath<A>, Int32)] = [
            (\A.top, F.top), (\A.bottom, F.bottom), (\A.xLower, F.xLower), (\A.xUpper, F.xUpper),
            (\A.xFraction, F.xFraction), (\A.width, F.width), (\A.fullBlocks, F.fullBlocks), (\A.output, F.output),
            (\A.pixelBytes, F.pixelBytes), (\A.tailMask, F.tailMask), (\A.one, F.one)]
        for (path, offset) in fields { XCTAssertEqual(MemoryLayout<A>.offset(of: path), Int(offset), "\(path)") }
    }

    func testDepthwiseArgumentBlockLayoutMatchesTheGeneratedCode() {
        typealias A = GeneratedDepthwiseArguments
        typealias F = A.Field
        let fields: [(PartialKeyPath<A>, Int32)] = [
            (\A.input, F.input), (\A.filter, F.filter), (\A.sums, F.sums), (\A.pixels, F.pixels), (\A.kh, F.kh),
            (\A.kw, F.kw), (\A.rowStrideBytes, F.rowStrideBytes), (\A.tapStepBytes, F.tapStepBytes),
            (\A.pixelStepBytes, F.pixelStepBytes), (\A.channelBytes, F.channelBytes), (\A.laneMask, F.laneMask),
            (\A.bias, F.bias), (\A.activationMin, F.activationMin), (\A.activationMax, F.activationMax),
            (\A.outputPixelBytes, F.outputPixelBytes), (\A.multipliers, F.multipliers),
            (\A.outputMin, F.outputMin), (\A.outputMax, F.outputMax), (\A.filterRowSkipBytes, F.filterRowSkipBytes),
            (\A.roundingTerms, F.roundingTerms)]
        for (path, offset) in fields { XCTAssertEqual(MemoryLayout<A>.offset(of: path), Int(offset), "\(path)") }
    }

    func testQuadTileArgumentBlockLayoutMatchesTheGeneratedCode() {
        typealias A = GeneratedQuadTileArguments
        typealias F = A.Field
        let fields: [(PartialKeyPath<A>, Int32)] = [
            (\A.rowTable, F.rowTable), (\A.filter, F.filter), (\A.output, F.output), (\A.pixels, F.pixels), (\A.kh, F.kh),
            (\A.quads, F.quads), (\A.quadStepBytes, F.quadStepBytes), (\A.pixelStepBytes, F.pixelStepBytes),
            (\A.outputPixelBytes, F.outputPixelBytes), (\A.blockBytes, F.blockBytes), (\A.lastLaneMask, F.lastLaneMask),
            (\A.bias, F.bias), (\A.biasCorrection, F.biasCorrection), (\A.multipliers, F.multipliers),
            (\A.roundingTerms, F.roundingTerms), (\A.outputMin, F.outputMin), (\A.outputMax, F.outputMax)]
        for (path, offset) in fields { XCTAssertEqual(MemoryLayout<A>.offset(of: path), Int(offset), "\(path)") }
    }

    func testTapQuadArgumentBlockLayoutMatchesTheGeneratedCode() {
        typealias A = GeneratedTapQuadArguments
        typealias F = A.Field
        let fields: [(PartialKeyPath<A>, Int32)] = [
            (\A.source, F.source), (\A.destination, F.destination), (\A.pixels, F.pixels), (\A.blocks, F.blocks),
            (\A.sourcePixelBytes, F.sourcePixelBytes), (\A.tapStepBytes, F.tapStepBytes),
            (\A.destinationPixelBytes, F.destinationPixelBytes), (\A.indices, F.indices)]
        for (path, offset) in fields { XCTAssertEqual(MemoryLayout<A>.offset(of: path), Int(offset), "\(path)") }
    }

    func testDepthwiseFinishArgumentBlockLayoutMatchesTheGeneratedCode() {
        typealias A = GeneratedDepthwiseFinishArguments
        typealias F = A.Field
        let fields: [(PartialKeyPath<A>, Int32)] = [
            (\A.sums, F.sums), (\A.dst, F.dst), (\A.pixels, F.pixels), (\A.channelBytes, F.channelBytes),
            (\A.fullBlockBytes, F.fullBlockBytes), (\A.bias, F.bias), (\A.activationMin, F.activationMin),
            (\A.activationMax, F.activationMax), (\A.laneMask, F.laneMask)]
        for (path, offset) in fields { XCTAssertEqual(MemoryLayout<A>.offset(of: path), Int(offset), "\(path)") }
    }

    /// The generated float depthwise row end equals the Swift formula bit for bit (NaN and
    /// ±infinity in the sums, with and without a bias, every clamp kind), at every level this
    /// CPU has, on channel counts around its block widths, in place and into another row, and
    /// writes nothing past the row.
    func testDepthwiseFloatFinishMatchesTheSwiftFormula() throws {
        guard let cpu = CPUFeatures.current?.supportedLevel, cpu >= .avx2 else {
            throw XCTSkip("this CPU has no AVX2+FMA: the generated row end cannot run here")
        }
        var rng = SeededGenerator(seed: 91)
        for level in InstructionSetLevel.allCases where level >= .avx2 && level <= cpu {
            let kernels = try GeneratedKernels(level: level)
            defer { withExtendedLifetime(kernels) {} }
            let (kernel, masksChannels) = try XCTUnwrap(kernels.depthwiseFloatFinish)
            XCTAssertEqual(masksChannels, level >= .avx512)
            for channels in [1, 3, 8, 15, 16, 17, 24, 31, 32, 40, 48, 144] where masksChannels || channels % 8 == 0 {
                for (lo, hi) in [(-Float.infinity, Float.infinity), (0, 6), (-0.5, 1.5)] {
                    let pixels = rng.int(0...5)
                    let specials: [Float] = [.nan, .infinity, -.infinity, 0]
                    var sums: [Float] = []
                    for i in 0..<pixels * channels {
                        sums.append(i % 11 == 0 ? specials[i / 11 % 4] : rng.float() * 8 - 4)
                    }
                    let bias: [Float]? = rng.int(0...2) == 0 ? nil : (0..<channels).map { _ in rng.float() }
                    let expected = sums.indices.map { i -> Float in
                        var x = sums[i] + (bias?[i % channels] ?? 0)
                        x = x < lo ? lo : x
                        return x > hi ? hi : x
                    }
                    for inPlace in [false, true] {
                        var row = sums + [Float](repeating: 42, count: 16)
                        var out = [Float](repeating: 42, count: sums.count + 16)
                        (bias ?? []).withUnsafeBufferPointer { b in
                            row.withUnsafeMutableBufferPointer { r in
                                out.withUnsafeMutableBufferPointer { o in
                                    var arguments = GeneratedDepthwiseFinishArguments(
                                        sums: UnsafeRawPointer(r.baseAddress!),
                                        dst: UnsafeMutableRawPointer(inPlace ? r.baseAddress! : o.baseAddress!),
                                        pixels: pixels, channelBytes: channels * 4,
                                        fullBlockBytes: (masksChannels ? channels / 16 * 16 : channels) * 4,
                                        bias: bias == nil ? nil : UnsafeRawPointer(b.baseAddress!),
                                        activationMin: lo, activationMax: hi, laneMask: (1 << (channels % 16)) - 1)
                                    withUnsafePointer(to: &arguments) { kernel(UnsafeRawPointer($0)) }
                                }
                            }
                        }
                        let result = inPlace ? row : out
                        let context = "\(level) channels \(channels) pixels \(pixels) clamp \(lo)...\(hi) bias \(bias != nil) in place \(inPlace)"
                        let actualBits: [UInt32] = result[0..<sums.count].map { $0.bitPattern }
                        let expectedBits: [UInt32] = expected.map { $0.bitPattern }
                        XCTAssertEqual(actualBits, expectedBits, context)
                        XCTAssertEqual(Array(result[sums.count...]), [Float](repeating: 42, count: 16), "wrote past the row: \(context)")
                    }
                }
            }
        }
    }

    func testIntegerArgumentBlockLayoutMatchesTheGeneratedCode() {
        typealias A = GeneratedIntegerTileArguments
        typealias F = A.Field
        let fields: [(PartialKeyPath<A>, Int32)] = [
            (\A.table, F.table), (\A.taps, F.taps), (\A.words, F.words), (\A.weights, F.weights),
            (\A.accumulators, F.accumulators), (\A.rows, F.rows), (\A.output, F.output), (\A.outputStride, F.outputStride),
            (\A.bias, F.bias), (\A.multipliers, F.multipliers),
            (\A.activationMin, F.activationMin), (\A.activationMax, F.activationMax), (\A.panelStride, F.panelStride),
            (\A.rowTerms, F.rowTerms), (\A.laneMasks, F.laneMasks), (\A.roundingTerms, F.roundingTerms),
            (\A.tableBase, F.tableBase), (\A.filterOffsets, F.filterOffsets)]
        for (path, offset) in fields { XCTAssertEqual(MemoryLayout<A>.offset(of: path), Int(offset), "\(path)") }
    }

    func testDepthwiseRequantizeArgumentBlockLayoutMatchesTheGeneratedCode() {
        typealias A = GeneratedDepthwiseRequantizeArguments
        typealias F = A.Field
        let fields: [(PartialKeyPath<A>, Int32)] = [
            (\A.sums, F.sums), (\A.output, F.output), (\A.pixels, F.pixels), (\A.blocks, F.blocks),
            (\A.sumsPixelBytes, F.sumsPixelBytes), (\A.outputPixelBytes, F.outputPixelBytes), (\A.bias, F.bias),
            (\A.multipliers, F.multipliers), (\A.activationMin, F.activationMin),
            (\A.activationMax, F.activationMax), (\A.lastLaneMask, F.lastLaneMask), (\A.roundingTerms, F.roundingTerms)]
        for (path, offset) in fields { XCTAssertEqual(MemoryLayout<A>.offset(of: path), Int(offset), "\(path)") }
    }

    /// The process generates AVX2 kernels exactly when the policy allows that level.
    func testAVX2KernelsAreGeneratedAndChosen() throws {
        let policy = CodeGenerationPolicy.current
        print("GeneratedKernelTests: \(GeneratedKernels.summary)")
        guard let features = CPUFeatures.current, features.supportedLevel >= .avx2 else {
            throw XCTSkip("this CPU has no AVX2+FMA: the AVX2 kernels cannot run here")
        }
        guard policy.level >= .avx2 else {
            XCTAssertNil(GeneratedKernels.current, "generation is off (\(policy)): portable kernels must run")
            XCTAssertFalse(QuantizedGEMMKernel.compiled.contains(.generated))
            XCTAssertFalse(FloatConvKernelShape.candidates.contains { $0.shape == .generated6x16 })
            throw XCTSkip("code generation is capped below AVX2 here (\(policy))")
        }
        let kernels = try XCTUnwrap(GeneratedKernels.current)
        let gemm = try XCTUnwrap(kernels.gemm8x16)
        for output in QuantizedGEMM8x16AVX2.Output.allCases {
            XCTAssertNotNil(gemm.kernel(.int16Pairs, output))
            // Byte weights widened as they load, wherever the pairs run without VNNI.
            XCTAssertEqual(gemm.kernel(.int8WeightPairs, output) != nil, !gemm.avxVNNI)
            XCTAssertEqual(gemm.kernel(.uint8WeightPairs, output) != nil, !gemm.avxVNNI)
        }
        // AVX-VNNI kernels exactly where the level allows them and the CPU has them.
        XCTAssertEqual(gemm.avxVNNI, policy.level >= .avxvnni && features.avxvnni)
        XCTAssertEqual(gemm.kernel(.uint8Quads, .int8) != nil, gemm.avxVNNI)
        XCTAssertEqual(QuantizedGEMM.prefersInt8Quads, kernels.vnniGEMM != nil || gemm.avxVNNI)
        XCTAssertNotNil(kernels.floatConv6x16)
        XCTAssertNotNil(kernels.depthwiseTiles16)
        XCTAssertNotNil(kernels.depthwiseExactTiles16)
        // Below AVX-512, a remainder of 4 to 15 depthwise channels runs in the 8- and 4-channel tiles.
        XCTAssertEqual(kernels.depthwiseRemainderTiles != nil, policy.level < .avx512)
        XCTAssertEqual(kernels.depthwiseExactRemainderTiles != nil, policy.level < .avx512)
        let tiles = try XCTUnwrap(DepthwiseGeneratedRow.tiles(for: DepthwiseRowOptions(fusedMultiplyAdd: false)))
        XCTAssertEqual((1...40).map { tiles.channelCount($0) },
                       policy.level < .avx512 ? (1...40).map { $0 / 4 * 4 } : Array(1...40))
        // Float rows are finished in the tiles where every channel runs in them.
        #if !LITEVISION_AVX512
        XCTAssertEqual((1...40).filter { DepthwiseRowOptions.finishesFloatRows(channels: $0) },
                       policy.level < .avx512 ? (1...40).filter { $0 % 4 == 0 } : Array(1...40))
        #endif
        XCTAssertNotNil(kernels.depthwiseRequantizeUInt8)
        XCTAssertNotNil(kernels.depthwiseRequantizeInt8)
        XCTAssertTrue(QuantizedGEMMKernel.compiled.contains(.generated))
        #if !LITEVISION_AVX512
        XCTAssertEqual(QuantizedGEMMKernel.best, .generated)
        XCTAssertEqual(QuantizedGEMM.packsPairWeightsAsBytes, !gemm.avxVNNI && kernels.vnniGEMM == nil)
        let splitsZMM = CPUFeatures.current?.splitsZMMOperations == true
        let expected: FloatConvKernelShape = policy.level >= .avx512 ? (splitsZMM ? .generated8x16 : .generated8x32) : .generated6x16
        XCTAssertEqual(FloatConvKernelShape.native(outputDepth: 64, depth: 576), expected)
        #endif
    }

    /// At `.avx512vnni` the integer GEMM is the VNNI kernel, in every layout, and int8/uint8
    /// convolutions pack for the quad layouts; below it, the ymm kernels (AVX-VNNI where the CPU
    /// has it, which also packs for the quads).
    func testAVX512VNNIKernelsAreGeneratedAndChosen() throws {
        guard let features = CPUFeatures.current, features.supportedLevel >= .avx512vnni else {
            throw XCTSkip("this CPU has no AVX512-VNNI (with OS zmm state): the VNNI kernels cannot run here")
        }
        let kernels = try GeneratedKernels(level: .avx512vnni)
        XCTAssertNotNil(kernels.vnniGEMM)
        XCTAssertNil(try GeneratedKernels(level: .avx512).vnniGEMM)
        XCTAssertNil(try GeneratedKernels(level: .avx2).vnniGEMM)
        XCTAssertNotNil(kernels.depthwiseRequantize512)
        XCTAssertNotNil(kernels.depthwiseFinishingTiles16)
        XCTAssertNotNil(kernels.depthwiseRequantizingTiles16)
        XCTAssertNotNil(try GeneratedKernels(level: .avx2).depthwiseFinishingTiles16, "the AVX2 tiles finish float rows too")
        XCTAssertNil(try GeneratedKernels(level: .avx2).depthwiseRequantize512)
        XCTAssertNil(kernels.depthwiseRemainderTiles, "AVX-512 tiles mask their last block")
        XCTAssertEqual(kernels.depthwiseQuads != nil, features.avx512vbmi, "tap-quad depthwise rows wherever VBMI builds them")
        XCTAssertNil(try GeneratedKernels(level: .avx512).depthwiseQuads, "tap quads need AVX512-VNNI")
        guard CodeGenerationPolicy.current.generatesCode, CodeGenerationPolicy.current.level >= .avx512vnni else {
            // Below AVX512-VNNI, quads are chosen only for the AVX-VNNI ymm kernels.
            XCTAssertEqual(QuantizedGEMM.prefersInt8Quads, GeneratedKernels.current?.gemm8x16?.avxVNNI == true)
            throw XCTSkip("code generation is capped below AVX512-VNNI here (\(CodeGenerationPolicy.current)): "
                          + "the VNNI kernels were generated but not chosen; run without LITEVISION_ISA to choose them")
        }
        XCTAssertNotNil(GeneratedKernels.current?.vnniGEMM)
        XCTAssertNotNil(GeneratedKernels.current?.floatConv8x32)
        XCTAssertTrue(QuantizedGEMM.prefersInt8Quads)
    }

    func testOffsetArgumentBlockLayoutMatchesTheGeneratedCode() {
        typealias A = GeneratedOffsetArguments
        typealias F = A.Field
        let fields: [(PartialKeyPath<A>, Int32)] = [
            (\A.source, F.source), (\A.destination, F.destination), (\A.count, F.count), (\A.offset, F.offset)]
        for (path, offset) in fields { XCTAssertEqual(MemoryLayout<A>.offset(of: path), Int(offset), "\(path)") }
    }

    /// The generated 8-bit to exact-float conversion equals the portable loop on every count
    /// around the vector widths, extreme bytes and offsets, at every level this CPU has; it
    /// never writes past the whole vectors it converts.
    func testOffsetConversionMatchesThePortableLoop() throws {
        guard let cpu = CPUFeatures.current?.supportedLevel, cpu >= .avx2 else {
            throw XCTSkip("this CPU has no AVX2+FMA: the generated conversion cannot run here")
        }
        var rng = SeededGenerator(seed: 77)
        for level in InstructionSetLevel.allCases where level >= .avx2 && level <= cpu {
            let kernels = try GeneratedKernels(level: level)
            defer { withExtendedLifetime(kernels) {} }
            for signed in [false, true] {
                let kernel = try XCTUnwrap(signed ? kernels.offsetInt8ToFloat : kernels.offsetUInt8ToFloat)
                XCTAssertEqual(kernel.lanes, level >= .avx512 ? 16 : 8)
                for count in 0...70 {
                    let bytes = (0..<count).map { i in i % 5 == 0 ? UInt8(i % 2 == 0 ? 0 : 255) : UInt8(rng.int(0...255)) }
                    let offset: Int32 = [-255, -128, 0, 127, 128][rng.int(0...4)]
                    let expected = bytes.map { Float(signed ? Int32(Int8(bitPattern: $0)) : Int32($0)) + Float(offset) }
                    var actual = [Float](repeating: .nan, count: count + 16)
                    bytes.withUnsafeBufferPointer { source in
                        actual.withUnsafeMutableBufferPointer { destination in
                            var arguments = GeneratedOffsetArguments(
                                source: UnsafeRawPointer(source.baseAddress ?? UnsafePointer(bitPattern: 1)!),
                                destination: UnsafeMutableRawPointer(destination.baseAddress!), count: count, offset: Float(offset))
                            withUnsafePointer(to: &arguments) { kernel.function(UnsafeRawPointer($0)) }
                        }
                    }
                    let converted = count / kernel.lanes * kernel.lanes
                    XCTAssertEqual(Array(actual[0..<converted]), Array(expected[0..<converted]), "\(level) signed \(signed) count \(count)")
                    XCTAssertTrue(actual[converted...].allSatisfy(\.isNaN), "\(level) wrote past \(converted) of \(count)")
                }
            }
        }
    }

    func testPreluArgumentBlockLayoutMatchesTheGeneratedCode() {
        typealias A = GeneratedPreluArguments
        typealias F = A.Field
        let fields: [(PartialKeyPath<A>, Int32)] = [
            (\A.x, F.x), (\A.alpha, F.alpha), (\A.output, F.output), (\A.rows, F.rows),
            (\A.stepsPerRow, F.stepsPerRow), (\A.rowStride, F.rowStride)]
        for (path, offset) in fields { XCTAssertEqual(MemoryLayout<A>.offset(of: path), Int(offset), "\(path)") }
    }

    /// The generated float PRELU equals `x ≥ 0 ? x : α · x` bit for bit (NaNs, signed zeros,
    /// infinities, a NaN α) on every row width around the vector widths, at every level this CPU
    /// has; it writes the whole vectors of each row and nothing past them.
    func testPreluMatchesThePortableExpressionBitForBit() throws {
        guard let cpu = CPUFeatures.current?.supportedLevel, cpu >= .avx2 else {
            throw XCTSkip("this CPU has no AVX2+FMA: the generated PRELU cannot run here")
        }
        var rng = SeededGenerator(seed: 91)
        let specials: [Float] = [.nan, -0.0, 0.0, .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
                                 Float(bitPattern: 0x7FA0_0001)]   // a signaling NaN: the product quiets it
        for level in InstructionSetLevel.allCases where level >= .avx2 && level <= cpu {
            let kernels = try GeneratedKernels(level: level)
            defer { withExtendedLifetime(kernels) {} }
            let kernel = try XCTUnwrap(kernels.preluFloat)
            XCTAssertEqual(kernel.lanes, level >= .avx512 ? 16 : 8)
            for width in [8, 15, 16, 17, 40, 64, 71] {
                let rows = rng.int(1...4)
                var x = rng.floats(rows * width, in: -3...3), alpha = rng.floats(width, in: -2...2)
                for k in stride(from: 0, to: x.count, by: 5) { x[k] = specials[k % specials.count] }
                alpha[width / 2] = .nan
                var out = [Float](repeating: 7, count: x.count)
                x.withUnsafeBufferPointer { xs in alpha.withUnsafeBufferPointer { alphas in out.withUnsafeMutableBufferPointer { ys in
                    var arguments = GeneratedPreluArguments(x: UnsafeRawPointer(xs.baseAddress!), alpha: UnsafeRawPointer(alphas.baseAddress!),
                                                            output: UnsafeMutableRawPointer(ys.baseAddress!), rows: rows,
                                                            stepsPerRow: width / kernel.lanes, rowStride: 4 * width)
                    withUnsafePointer(to: &arguments) { kernel.function(UnsafeRawPointer($0)) }
                } } }
                let computed = width / kernel.lanes * kernel.lanes
                for r in 0..<rows {
                    for c in 0..<width {
                        let v = x[r * width + c], got = out[r * width + c]
                        let want = c < computed ? (v >= 0 ? v : v * alpha[c]) : 7
                        XCTAssertEqual(got.bitPattern, want.bitPattern, "\(level) width \(width) row \(r) column \(c): x \(v), α \(alpha[c])")
                    }
                }
            }
        }
    }

    /// The generated AVX512-VBMI byte table equals the per-byte lookup on every count around its
    /// 64-byte step, on random tables and on tables whose halves differ only in the top index bit.
    func testByteTableLookupMatchesThePortableLoop() throws {
        guard let cpu = CPUFeatures.current, cpu.supportedLevel >= .avx512, cpu.avx512vbmi else {
            throw XCTSkip("this CPU has no AVX512-VBMI (with AVX-512): the generated byte table cannot run here")
        }
        let kernels = try GeneratedKernels(level: .avx512)   // owns the code: kept alive to the end
        defer { withExtendedLifetime(kernels) {} }
        XCTAssertNil(try GeneratedKernels(level: .avx2).byteTableLookup64)
        try checkByteTableLookup(try XCTUnwrap(kernels.byteTableLookup64), lanes: ByteTableLookup64AVX512VBMI.lanes)
    }

    /// The generated AVX2 byte table (CPUs without AVX512-VBMI) likewise, around its 32-byte step;
    /// the public entry point takes it where the VBMI form is absent.
    func testAVX2ByteTableLookupMatchesThePortableLoop() throws {
        guard let cpu = CPUFeatures.current?.supportedLevel, cpu >= .avx2 else {
            throw XCTSkip("this CPU has no AVX2+FMA: the generated byte table cannot run here")
        }
        let kernels = try GeneratedKernels(level: .avx2)   // owns the code: kept alive to the end
        defer { withExtendedLifetime(kernels) {} }
        XCTAssertNil(kernels.byteTableLookup64)
        let kernel = try XCTUnwrap(kernels.byteTableLookup32)
        XCTAssertEqual(ByteTableLookup.generatedKernel(kernels)?.lanes, ByteTableLookup32AVX2.lanes)
        try checkByteTableLookup(kernel, lanes: ByteTableLookup32AVX2.lanes)
    }

    /// `kernel` against the per-byte lookup (and `ByteTableLookup.apply`, generated bulk with its
    /// portable tail), on every count around `lanes` and on 0…255 in order; it never writes past
    /// its whole steps.
    private func checkByteTableLookup(_ kernel: @convention(c) (UnsafeRawPointer) -> Void, lanes: Int) throws {
        var rng = SeededGenerator(seed: 78)
        let tables: [[UInt8]] = [(0..<256).map { _ in UInt8(rng.int(0...255)) }, (0..<256).map { UInt8($0 ^ 0x80) },
                                 (0..<256).map { UInt8(255 - $0) }]
        for entries in tables {
            for count in [0, 1, lanes - 1, lanes, lanes + 1, 2 * lanes - 1, 2 * lanes, 200, 256, 1000] {
                let bytes = (0..<count).map { i in UInt8(i < 256 ? i : rng.int(0...255)) }
                var actual = [UInt8](repeating: 0xA5, count: count + 64)
                bytes.withUnsafeBufferPointer { source in
                    actual.withUnsafeMutableBufferPointer { destination in
                        entries.withUnsafeBufferPointer { table in
                            var arguments = GeneratedByteTableArguments(
                                source: UnsafeRawPointer(source.baseAddress ?? UnsafePointer(bitPattern: 1)!),
                                destination: UnsafeMutableRawPointer(destination.baseAddress!), count: count,
                                table: UnsafeRawPointer(table.baseAddress!))
                            withUnsafePointer(to: &arguments) { kernel(UnsafeRawPointer($0)) }
                        }
                    }
                }
                let mapped = count / lanes * lanes
                XCTAssertEqual(Array(actual[0..<mapped]), bytes[0..<mapped].map { entries[Int($0)] }, "count \(count)")
                XCTAssertTrue(actual[mapped...].allSatisfy { $0 == 0xA5 }, "wrote past \(mapped) of \(count)")
                // The public entry point: generated bulk and portable tail together.
                var viaLookup = [UInt8](repeating: 0, count: count)
                let lookup = ByteTableLookup(entries)
                bytes.withUnsafeBufferPointer { x in
                    viaLookup.withUnsafeMutableBufferPointer { out in
                        if count > 0 { lookup.apply(range: 0..<count, x.baseAddress!, out.baseAddress!) }
                    }
                }
                XCTAssertEqual(viaLookup, bytes.map { entries[Int($0)] }, "apply, count \(count)")
            }
        }
    }

    /// No code below AVX2; the fallback is the portable Swift kernels.
    func testBaselineLevelGeneratesNothing() throws {
        let kernels = try GeneratedKernels(level: .sse2)
        XCTAssertTrue(kernels.kernelNames.isEmpty)
        XCTAssertNil(kernels.gemm8x16)
        XCTAssertNil(kernels.floatConv6x16)
        XCTAssertNil(kernels.depthwiseTiles16)
        XCTAssertNil(kernels.depthwiseExactTiles16)
        XCTAssertNil(kernels.depthwiseRequantizeUInt8)
    }
}
