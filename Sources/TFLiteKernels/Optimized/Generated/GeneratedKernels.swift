import MachineCode

/// The microkernels generated at run time for this CPU (runtime CPU dispatch): machine code
/// emitted by `MachineCode.Assembler` for the level `CodeGenerationPolicy.current` allows, in one
/// W^X `ExecutableCode` block.
///
/// Generated once per process and level on first use (a few microseconds, a few KB) and shared
/// by every interpreter: the kernels take shapes as arguments, so no layer needs code of its own.
/// Each entry is nil where the level has no generated kernel; callers then run the portable
/// Swift kernels.
public final class GeneratedKernels: Sendable {
    /// The level the code was generated for.
    public let level: InstructionSetLevel
    /// Names of the generated kernels (for `bench` and `tflite-dump --engine`).
    public let kernelNames: [String]
    /// `QuantizedGEMM8x16AVX2`: the pair layouts (int16 and byte weights) with AVX2, or int16
    /// pairs and quads with AVX-VNNI where the CPU has it (at `.avxvnni` and up).
    let gemm8x16: GEMM8x16Kernels?
    /// `FloatConv6x16AVX`, products and sums rounded separately / fused multiply-adds.
    let floatConv6x16: FloatConv6x16AVX.Function?
    let floatConv6x16Fused: FloatConv6x16AVX.Function?
    /// `FloatConv8x32AVX512` (at `.avx512` and up), separate roundings / fused multiply-adds.
    let floatConv8x32: FloatConv8x32AVX512.Function?
    let floatConv8x32Fused: FloatConv8x32AVX512.Function?
    /// `FloatConv8x32AVX512` with one 16-channel panel (8 × 16), separate roundings / fused multiply-adds.
    let floatConv8x16: FloatConv8x32AVX512.Function?
    let floatConv8x16Fused: FloatConv8x32AVX512.Function?
    /// `DepthwiseConvTiles16AVX`.
    let depthwiseTiles16: DepthwiseConvTiles16AVX.Function?
    /// `DepthwiseConvTiles16AVX` for exact (quantized) sums: fused multiply-adds.
    let depthwiseExactTiles16: DepthwiseConvTiles16AVX.Function?
    /// `DepthwiseConvTiles16AVX` finishing float rows in registers (bias, clamp), separate
    /// roundings / fused multiply-adds: for layers whose every channel runs in generated tiles
    /// (all at `.avx512` and up; below it, with the remainder tiles, channel counts that are
    /// multiples of 4).
    let depthwiseFinishingTiles16: DepthwiseConvTiles16AVX.Function?
    let depthwiseFinishingExactTiles16: DepthwiseConvTiles16AVX.Function?
    /// `DepthwiseConvTiles16AVX` requantizing 8-bit rows in registers (at `.avx512` and up).
    let depthwiseRequantizingTiles16: DepthwiseConvTiles16AVX.Function?
    /// The 8-bit depthwise rows in tap quads (at `.avx512vnni`, on CPUs with AVX512-VBMI).
    let depthwiseQuads: DepthwiseQuadKernels?
    /// `DepthwiseConvTiles16AVX` on 8- and 4-channel blocks (ymm and xmm, below `.avx512`, where
    /// the 16-channel tiles do not mask channels), for a remainder of 4 to 15 channels:
    /// separate roundings / exact sums.
    let depthwiseRemainderTiles: DepthwiseRemainderTiles?
    let depthwiseExactRemainderTiles: DepthwiseRemainderTiles?
    /// The same, finishing float rows in registers (`finish`), as `depthwiseFinishingTiles16`.
    let depthwiseFinishingRemainderTiles: DepthwiseRemainderTiles?
    let depthwiseFinishingExactRemainderTiles: DepthwiseRemainderTiles?
    /// True when `depthwiseTiles16` and `depthwiseExactTiles16` honour their `laneMask` (the AVX-512 form), so a last block
    /// of fewer than 16 channels runs in it too.
    var depthwiseTilesMaskChannels: Bool { level >= .avx512 }
    /// `DepthwiseFloatFinish16AVX` (bias and clamp of float depthwise rows); `masksChannels`: the
    /// AVX-512 form, which takes any channel count (the AVX2 form needs multiples of 8).
    let depthwiseFloatFinish: (function: DepthwiseFloatFinish16AVX.Function, masksChannels: Bool)?
    /// `DepthwiseRequantize16AVX2` for uint8 / int8 outputs.
    let depthwiseRequantizeUInt8: DepthwiseRequantize16AVX2.Function?
    let depthwiseRequantizeInt8: DepthwiseRequantize16AVX2.Function?
    /// `DepthwiseRequantize16AVX512` (at `.avx512` and up): every channel, uint8 and int8 outputs.
    let depthwiseRequantize512: DepthwiseRequantize16AVX512.Function?
    /// `OffsetBytesToFloatAVX` for uint8 / int8 inputs, with the values converted per step.
    let offsetUInt8ToFloat: (function: OffsetBytesToFloatAVX.Function, lanes: Int)?
    let offsetInt8ToFloat: (function: OffsetBytesToFloatAVX.Function, lanes: Int)?
    /// `PreluFloatAVX`, with the values computed per step.
    let preluFloat: (function: PreluFloatAVX.Function, lanes: Int)?
    /// `FlipSignBitsAVX` (ymm at AVX2, zmm at `.avx512` and up) and the bytes it converts per step.
    let flipSignBits: (function: FlipSignBitsAVX.Function, bytesPerStep: Int)?
    /// `FlipSignBitsPixelSumsAVX` (ymm at AVX2, zmm at `.avx512` and up) and its vector bytes.
    let flipSignBitsPixelSums: (function: FlipSignBitsPixelSumsAVX.Function, vectorBytes: Int)?
    /// `ByteTableLookup64AVX512VBMI` (at `.avx512` and up, on CPUs with AVX512-VBMI).
    let byteTableLookup64: ByteTableLookup64AVX512VBMI.Function?
    /// `ByteTableLookup32AVX2` (every level from `.avx2`; where `byteTableLookup64` exists, that one runs).
    let byteTableLookup32: ByteTableLookup32AVX2.Function?
    /// `QuantizedGEMM8x32AVX512VNNI` (every layout; at `.avx512vnni`).
    let vnniGEMM: VNNIQuantizedGEMMKernels?
    /// `QuantizedPairLinear16AVX` for int8 / uint8 codes (ymm at AVX2, zmm at `.avx512` and up).
    let pairLinear: (signed: QuantizedPairLinear16AVX.Function, unsigned: QuantizedPairLinear16AVX.Function)?
    /// `QuantizedAdd16AVX512` for int8 and uint8, adding and subtracting (at `.avx512`).
    let quantizedAdd: QuantizedAddKernels?
    /// `HybridInputQuantizeAVX` (ymm at AVX2, zmm at `.avx512` and up): the bounds pass with
    /// its values per step, and the quantizing pass (16 values per step).
    let hybridQuantize: (bounds: HybridInputQuantizeAVX.Function, quantize: HybridInputQuantizeAVX.Function, lanes: Int)?
    /// `HybridFloatEpilogueAVX` (ymm at AVX2, zmm at `.avx512` and up).
    let hybridEpilogue: HybridFloatEpilogueAVX.Function?
    /// `ExactLogisticAVX` (doubles in ymm halves at AVX2, in zmm at `.avx512` and up), plain and
    /// multiplying by the input.
    let exactLogistic: (plain: ExactLogisticAVX.Function, timesInput: ExactLogisticAVX.Function)?
    /// `ResizeBilinearRowAVX` (ymm at AVX2, zmm at `.avx512` and up) and its channels per step.
    let resizeBilinearRow: (function: ResizeBilinearRowAVX.Function, lanes: Int)?
    /// `QuantizedSoftmax16AVX512`'s two passes (at `.avx512`).
    let softmax: (int8Exponentials: QuantizedSoftmax16AVX512.Function, uint8Exponentials: QuantizedSoftmax16AVX512.Function,
                  scaling: QuantizedSoftmax16AVX512.Function)?
    private let code: ExecutableCode?

    /// Generates the kernels of `level` (none for `.sse2`).
    /// - Throws: `ExecutableCode.Failure` when the OS refuses executable pages.
    public init(level: InstructionSetLevel) throws {
        self.level = level
        guard level >= .avx2 else {
            (kernelNames, gemm8x16, flipSignBits, flipSignBitsPixelSums) = ([], nil, nil, nil)
            (floatConv6x16, depthwiseTiles16, depthwiseExactTiles16, depthwiseRequantizeUInt8, depthwiseRequantizeInt8, code)
                = (nil, nil, nil, nil, nil, nil)
            (vnniGEMM, floatConv8x32, offsetUInt8ToFloat, offsetInt8ToFloat, byteTableLookup64) = (nil, nil, nil, nil, nil)
            (floatConv6x16Fused, floatConv8x32Fused, depthwiseFloatFinish, depthwiseRequantize512) = (nil, nil, nil, nil)
            (depthwiseFinishingTiles16, depthwiseFinishingExactTiles16, depthwiseRequantizingTiles16) = (nil, nil, nil)
            (floatConv8x16, floatConv8x16Fused, depthwiseRemainderTiles, depthwiseExactRemainderTiles) = (nil, nil, nil, nil)
            (depthwiseFinishingRemainderTiles, depthwiseFinishingExactRemainderTiles, pairLinear) = (nil, nil, nil)
            (quantizedAdd, softmax, byteTableLookup32, depthwiseQuads, resizeBilinearRow) = (nil, nil, nil, nil, nil)
            (hybridQuantize, exactLogistic, hybridEpilogue, preluFloat) = (nil, nil, nil, nil)
            return
        }
        var a = Assembler()
        let vectorWidth: VectorRegister.Width = level >= .avx512 ? .zmm : .ymm
        let avxVNNI = level >= .avxvnni && CPUFeatures.current?.avxvnni == true
        let gemm8x16Entries = GEMM8x16Kernels.emit(avxVNNI: avxVNNI, into: &a)
        let floatEntry = a.count
        FloatConv6x16AVX.emit(fused: false, into: &a)
        let floatFusedEntry = a.count
        FloatConv6x16AVX.emit(fused: true, into: &a)
        let depthwiseEntry = a.count
        DepthwiseConvTiles16AVX.emit(width: vectorWidth, into: &a)
        let depthwiseExactEntry = a.count
        DepthwiseConvTiles16AVX.emit(width: vectorWidth, exactSums: true, into: &a)
        // (channels, exact sums, finish, entry) of the remainder tiles.
        var remainderEntries: [(channels: Int, exactSums: Bool, finish: Bool, entry: Int)] = []
        for (channels, width) in [(8, VectorRegister.Width.ymm), (4, .xmm)] where level < .avx512 {
            for finish in [false, true] {
                for exactSums in [false, true] {
                    remainderEntries.append((channels, exactSums, finish, a.count))
                    DepthwiseConvTiles16AVX.emit(width: width, channels: channels, exactSums: exactSums, finish: finish, into: &a)
                }
            }
        }
        let finishingTilesEntry = a.count
        DepthwiseConvTiles16AVX.emit(width: vectorWidth, finish: true, into: &a)
        let finishingExactTilesEntry = a.count
        DepthwiseConvTiles16AVX.emit(width: vectorWidth, exactSums: true, finish: true, into: &a)
        let requantizingTilesEntry = a.count
        if level >= .avx512 { DepthwiseConvTiles16AVX.emit(width: vectorWidth, exactSums: true, requantize: true, into: &a) }
        let tapQuads = level >= .avx512vnni && CPUFeatures.current?.avx512vbmi == true
        let quadTilesEntry = a.count
        if tapQuads { DepthwiseQuadTiles16AVX512VNNI.emit(weightParts: 1, into: &a) }
        let splitQuadTilesEntry = a.count
        if tapQuads { DepthwiseQuadTiles16AVX512VNNI.emit(weightParts: 2, into: &a) }
        let uint8QuadRowsEntry = a.count
        if tapQuads { DepthwiseTapQuadsAVX512VBMI.emit(flipsSignBits: false, into: &a) }
        let int8QuadRowsEntry = a.count
        if tapQuads { DepthwiseTapQuadsAVX512VBMI.emit(flipsSignBits: true, into: &a) }
        let finishEntry = a.count
        DepthwiseFloatFinish16AVX.emit(width: vectorWidth, into: &a)
        let requantizeUInt8Entry = a.count
        DepthwiseRequantize16AVX2.emit(signed: false, into: &a)
        let requantizeInt8Entry = a.count
        DepthwiseRequantize16AVX2.emit(signed: true, into: &a)
        let requantize512Entry = a.count
        if level >= .avx512 { DepthwiseRequantize16AVX512.emit(into: &a) }
        let offsetUInt8Entry = a.count
        OffsetBytesToFloatAVX.emit(signed: false, width: vectorWidth, into: &a)
        let offsetInt8Entry = a.count
        OffsetBytesToFloatAVX.emit(signed: true, width: vectorWidth, into: &a)
        let preluEntry = a.count
        PreluFloatAVX.emit(width: vectorWidth, into: &a)
        let flipEntry = a.count
        FlipSignBitsAVX.emit(width: vectorWidth, into: &a)
        let pixelSumsEntry = a.count
        FlipSignBitsPixelSumsAVX.emit(width: vectorWidth, into: &a)
        let pairLinearSignedEntry = a.count
        QuantizedPairLinear16AVX.emit(signed: true, width: vectorWidth, into: &a)
        let pairLinearUnsignedEntry = a.count
        QuantizedPairLinear16AVX.emit(signed: false, width: vectorWidth, into: &a)
        let byteTable = level >= .avx512 && CPUFeatures.current?.avx512vbmi == true
        let byteTableEntry = a.count
        if byteTable { ByteTableLookup64AVX512VBMI.emit(into: &a) }
        let byteTable32Entry = a.count
        ByteTableLookup32AVX2.emit(into: &a)
        let vnniEntries = level >= .avx512vnni ? VNNIQuantizedGEMMKernels.emit(into: &a) : nil
        let addEntries = level >= .avx512 ? QuantizedAddKernels.emit(into: &a) : nil
        let softmaxInt8Entry = a.count
        if level >= .avx512 { QuantizedSoftmax16AVX512.emitExponentials(signed: true, into: &a) }
        let softmaxUInt8Entry = a.count
        if level >= .avx512 { QuantizedSoftmax16AVX512.emitExponentials(signed: false, into: &a) }
        let softmaxScalingEntry = a.count
        if level >= .avx512 { QuantizedSoftmax16AVX512.emitScaling(into: &a) }
        let float512Entry = a.count
        if level >= .avx512 { FloatConv8x32AVX512.emit(fused: false, into: &a) }
        let float512FusedEntry = a.count
        if level >= .avx512 { FloatConv8x32AVX512.emit(fused: true, into: &a) }
        let float8x16Entry = a.count
        if level >= .avx512 { FloatConv8x32AVX512.emit(fused: false, panels: 1, into: &a) }
        let float8x16FusedEntry = a.count
        if level >= .avx512 { FloatConv8x32AVX512.emit(fused: true, panels: 1, into: &a) }
        let resizeEntry = a.count
        ResizeBilinearRowAVX.emit(width: vectorWidth, into: &a)
        let hybridBoundsEntry = a.count
        HybridInputQuantizeAVX.emitBounds(width: vectorWidth, into: &a)
        let hybridQuantizeEntry = a.count
        HybridInputQuantizeAVX.emitQuantize(width: vectorWidth, into: &a)
        let hybridEpilogueEntry = a.count
        HybridFloatEpilogueAVX.emit(width: vectorWidth, into: &a)
        let logisticEntry = a.count
        ExactLogisticAVX.emit(width: vectorWidth, into: &a)
        let logisticProductEntry = a.count
        ExactLogisticAVX.emit(width: vectorWidth, timesInput: true, into: &a)
        let code = try ExecutableCode(try a.finish())
        self.code = code
        code.describeForProfilers(
            gemm8x16Entries.map { ("QuantizedGEMM8x16+\(avxVNNI ? "AVXVNNI" : "AVX2").\($0.name)", $0.offset) }
            + [("FloatConv6x16+AVX", floatEntry), ("FloatConv6x16+AVX.fused", floatFusedEntry),
             ("DepthwiseConvTiles16.float", depthwiseEntry), ("DepthwiseConvTiles16.exactSums", depthwiseExactEntry),
             ("DepthwiseConvTiles16.float.finishing", finishingTilesEntry),
             ("DepthwiseConvTiles16.exactSums.finishing", finishingExactTilesEntry),
             ("DepthwiseConvTiles16.requantizing", requantizingTilesEntry),
             ("DepthwiseQuadTiles16", quadTilesEntry), ("DepthwiseQuadTiles16.split", splitQuadTilesEntry),
             ("DepthwiseTapQuads.uint8", uint8QuadRowsEntry),
             ("DepthwiseTapQuads.int8", int8QuadRowsEntry), ("DepthwiseFloatFinish16", finishEntry),
             ("DepthwiseRequantize16+AVX2.uint8", requantizeUInt8Entry), ("DepthwiseRequantize16+AVX2.int8", requantizeInt8Entry),
             ("DepthwiseRequantize16+AVX512", requantize512Entry),
             ("OffsetBytesToFloat.uint8", offsetUInt8Entry), ("OffsetBytesToFloat.int8", offsetInt8Entry),
             ("PreluFloat+\(vectorWidth == .zmm ? "AVX512" : "AVX2")", preluEntry),
             ("FlipSignBits+\(vectorWidth == .zmm ? "AVX512" : "AVX2")", flipEntry),
             ("FlipSignBitsPixelSums+\(vectorWidth == .zmm ? "AVX512" : "AVX2")", pixelSumsEntry), ("ByteTableLookup64+AVX512VBMI", byteTableEntry),
             ("ByteTableLookup32+AVX2", byteTable32Entry),
             ("QuantizedPairLinear16.int8", pairLinearSignedEntry), ("QuantizedPairLinear16.uint8", pairLinearUnsignedEntry)]
            + (vnniEntries ?? []).enumerated().map { ("QuantizedGEMM8x32+AVX512VNNI.\($0.offset)", $0.element) }
            + (addEntries ?? []).enumerated().map { ("QuantizedAdd16+AVX512.\($0.offset)", $0.element) }
            + [("QuantizedSoftmax16+AVX512.int8", softmaxInt8Entry), ("QuantizedSoftmax16+AVX512.uint8", softmaxUInt8Entry),
               ("QuantizedSoftmax16+AVX512.scaling", softmaxScalingEntry)]
            + [("FloatConv8x32+AVX512", float512Entry), ("FloatConv8x32+AVX512.fused", float512FusedEntry),
               ("FloatConv8x16+AVX512", float8x16Entry), ("FloatConv8x16+AVX512.fused", float8x16FusedEntry),
               ("ResizeBilinearRow\(ResizeBilinearRowAVX.lanes(vectorWidth))+\(vectorWidth == .zmm ? "AVX512" : "AVX2")", resizeEntry),
               ("HybridInputQuantize16.bounds", hybridBoundsEntry), ("HybridInputQuantize16.quantize", hybridQuantizeEntry),
               ("HybridFloatEpilogue16+\(vectorWidth == .zmm ? "AVX512" : "AVX2")", hybridEpilogueEntry),
               ("ExactLogistic8+\(vectorWidth == .zmm ? "AVX512" : "AVX2")", logisticEntry),
               ("ExactLogistic8+\(vectorWidth == .zmm ? "AVX512" : "AVX2").timesInput", logisticProductEntry)]
            + remainderEntries.map {
                ("DepthwiseConvTiles\($0.channels).\($0.exactSums ? "exactSums" : "float")\($0.finish ? ".finishing" : "")", $0.entry)
            })
        gemm8x16 = GEMM8x16Kernels(code: code, entries: gemm8x16Entries.map(\.offset), avxVNNI: avxVNNI)
        floatConv6x16 = unsafeBitCast(code.address(at: floatEntry), to: FloatConv6x16AVX.Function.self)
        floatConv6x16Fused = unsafeBitCast(code.address(at: floatFusedEntry), to: FloatConv6x16AVX.Function.self)
        depthwiseTiles16 = unsafeBitCast(code.address(at: depthwiseEntry), to: DepthwiseConvTiles16AVX.Function.self)
        depthwiseExactTiles16 = unsafeBitCast(code.address(at: depthwiseExactEntry), to: DepthwiseConvTiles16AVX.Function.self)
        func remainderTiles(exactSums: Bool, finish: Bool = false) -> DepthwiseRemainderTiles? {
            func tiles(_ channels: Int) -> DepthwiseConvTiles16AVX.Function? {
                remainderEntries.first { $0.channels == channels && $0.exactSums == exactSums && $0.finish == finish }.map {
                    unsafeBitCast(code.address(at: $0.entry), to: DepthwiseConvTiles16AVX.Function.self)
                }
            }
            guard let eight = tiles(8), let four = tiles(4) else { return nil }
            return DepthwiseRemainderTiles(eight: eight, four: four)
        }
        depthwiseRemainderTiles = remainderTiles(exactSums: false)
        depthwiseExactRemainderTiles = remainderTiles(exactSums: true)
        depthwiseFinishingRemainderTiles = remainderTiles(exactSums: false, finish: true)
        depthwiseFinishingExactRemainderTiles = remainderTiles(exactSums: true, finish: true)
        depthwiseFinishingTiles16 = unsafeBitCast(code.address(at: finishingTilesEntry), to: DepthwiseConvTiles16AVX.Function.self)
        depthwiseFinishingExactTiles16 = unsafeBitCast(code.address(at: finishingExactTilesEntry), to: DepthwiseConvTiles16AVX.Function.self)
        depthwiseRequantizingTiles16 = level >= .avx512
            ? unsafeBitCast(code.address(at: requantizingTilesEntry), to: DepthwiseConvTiles16AVX.Function.self) : nil
        depthwiseQuads = tapQuads
            ? DepthwiseQuadKernels(
                tiles: unsafeBitCast(code.address(at: quadTilesEntry), to: DepthwiseQuadTiles16AVX512VNNI.Function.self),
                splitTiles: unsafeBitCast(code.address(at: splitQuadTilesEntry), to: DepthwiseQuadTiles16AVX512VNNI.Function.self),
                uint8Rows: unsafeBitCast(code.address(at: uint8QuadRowsEntry), to: DepthwiseTapQuadsAVX512VBMI.Function.self),
                int8Rows: unsafeBitCast(code.address(at: int8QuadRowsEntry), to: DepthwiseTapQuadsAVX512VBMI.Function.self)) : nil
        depthwiseFloatFinish = (unsafeBitCast(code.address(at: finishEntry), to: DepthwiseFloatFinish16AVX.Function.self),
                                vectorWidth == .zmm)
        depthwiseRequantizeUInt8 = unsafeBitCast(code.address(at: requantizeUInt8Entry), to: DepthwiseRequantize16AVX2.Function.self)
        depthwiseRequantizeInt8 = unsafeBitCast(code.address(at: requantizeInt8Entry), to: DepthwiseRequantize16AVX2.Function.self)
        depthwiseRequantize512 = level >= .avx512
            ? unsafeBitCast(code.address(at: requantize512Entry), to: DepthwiseRequantize16AVX512.Function.self) : nil
        let lanes = OffsetBytesToFloatAVX.lanes(vectorWidth)
        offsetUInt8ToFloat = (unsafeBitCast(code.address(at: offsetUInt8Entry), to: OffsetBytesToFloatAVX.Function.self), lanes)
        offsetInt8ToFloat = (unsafeBitCast(code.address(at: offsetInt8Entry), to: OffsetBytesToFloatAVX.Function.self), lanes)
        preluFloat = (unsafeBitCast(code.address(at: preluEntry), to: PreluFloatAVX.Function.self), PreluFloatAVX.lanes(vectorWidth))
        flipSignBits = (unsafeBitCast(code.address(at: flipEntry), to: FlipSignBitsAVX.Function.self),
                        FlipSignBitsAVX.bytesPerStep(vectorWidth))
        flipSignBitsPixelSums = (unsafeBitCast(code.address(at: pixelSumsEntry), to: FlipSignBitsPixelSumsAVX.Function.self),
                                 vectorWidth.bytes)
        byteTableLookup64 = byteTable
            ? unsafeBitCast(code.address(at: byteTableEntry), to: ByteTableLookup64AVX512VBMI.Function.self) : nil
        byteTableLookup32 = unsafeBitCast(code.address(at: byteTable32Entry), to: ByteTableLookup32AVX2.Function.self)
        vnniGEMM = vnniEntries.map { VNNIQuantizedGEMMKernels(code: code, entries: $0) }
        quantizedAdd = addEntries.map { QuantizedAddKernels(code: code, entries: $0) }
        pairLinear = (unsafeBitCast(code.address(at: pairLinearSignedEntry), to: QuantizedPairLinear16AVX.Function.self),
                      unsafeBitCast(code.address(at: pairLinearUnsignedEntry), to: QuantizedPairLinear16AVX.Function.self))
        softmax = level >= .avx512
            ? (unsafeBitCast(code.address(at: softmaxInt8Entry), to: QuantizedSoftmax16AVX512.Function.self),
               unsafeBitCast(code.address(at: softmaxUInt8Entry), to: QuantizedSoftmax16AVX512.Function.self),
               unsafeBitCast(code.address(at: softmaxScalingEntry), to: QuantizedSoftmax16AVX512.Function.self)) : nil
        floatConv8x32 = level >= .avx512
            ? unsafeBitCast(code.address(at: float512Entry), to: FloatConv8x32AVX512.Function.self) : nil
        floatConv8x32Fused = level >= .avx512
            ? unsafeBitCast(code.address(at: float512FusedEntry), to: FloatConv8x32AVX512.Function.self) : nil
        floatConv8x16 = level >= .avx512
            ? unsafeBitCast(code.address(at: float8x16Entry), to: FloatConv8x32AVX512.Function.self) : nil
        floatConv8x16Fused = level >= .avx512
            ? unsafeBitCast(code.address(at: float8x16FusedEntry), to: FloatConv8x32AVX512.Function.self) : nil
        resizeBilinearRow = (unsafeBitCast(code.address(at: resizeEntry), to: ResizeBilinearRowAVX.Function.self),
                             ResizeBilinearRowAVX.lanes(vectorWidth))
        hybridQuantize = (unsafeBitCast(code.address(at: hybridBoundsEntry), to: HybridInputQuantizeAVX.Function.self),
                          unsafeBitCast(code.address(at: hybridQuantizeEntry), to: HybridInputQuantizeAVX.Function.self),
                          HybridInputQuantizeAVX.lanes(vectorWidth))
        hybridEpilogue = unsafeBitCast(code.address(at: hybridEpilogueEntry), to: HybridFloatEpilogueAVX.Function.self)
        exactLogistic = (unsafeBitCast(code.address(at: logisticEntry), to: ExactLogisticAVX.Function.self),
                         unsafeBitCast(code.address(at: logisticProductEntry), to: ExactLogisticAVX.Function.self))
        let quadNames: [String] = depthwiseQuads == nil ? [] : [
            "DepthwiseQuadTiles16+AVX512VNNI (uint8, int8; one or two weight parts), DepthwiseTapQuads+AVX512VBMI"]
        kernelNames = (vnniGEMM == nil ? [] : ["QuantizedGEMM8x32+AVX512VNNI (pairs, quads, uint8-weight quads; sums, requantizing)"])
            + (floatConv8x32 == nil ? [] : ["FloatConv8x32+AVX512, FloatConv8x16+AVX512 (separate roundings, fused multiply-add)"])
            + (byteTableLookup64 == nil ? ["ByteTableLookup32+AVX2"] : ["ByteTableLookup64+AVX512VBMI"]) + quadNames
            + (quantizedAdd == nil ? [] : ["QuantizedAdd16+AVX512 (int8, uint8; add, subtract)"])
            + (softmax == nil ? [] : ["QuantizedSoftmax16+AVX512 (int8, uint8)"])
            + [avxVNNI ? "QuantizedGEMM8x16+AVXVNNI (pairs, quads, uint8-weight quads; sums, uint8, int8 requantizing)"
                       : "QuantizedGEMM8x16+AVX2 (pairs; sums, uint8, int8 requantizing)", "FloatConv6x16+AVX (separate roundings, fused multiply-add)",
               "DepthwiseConvTiles16+\(vectorWidth == .zmm ? "AVX512" : "AVX") (float; exact sums, FMA\(vectorWidth == .zmm ? "" : "; 8- and 4-channel blocks"))",
               "DepthwiseFloatFinish16+\(vectorWidth == .zmm ? "AVX512" : "AVX")",
               depthwiseRequantize512 == nil ? "DepthwiseRequantize16+AVX2 (uint8, int8)" : "DepthwiseRequantize16+AVX512", "OffsetBytesToFloat+\(vectorWidth == .zmm ? "AVX512" : "AVX2")",
               "PreluFloat+\(vectorWidth == .zmm ? "AVX512" : "AVX2")",
               "FlipSignBits+\(vectorWidth == .zmm ? "AVX512" : "AVX2") (and pixel sums)",
               "QuantizedPairLinear16+\(vectorWidth == .zmm ? "AVX512" : "AVX2") (int8, uint8)",
               "ResizeBilinearRow\(ResizeBilinearRowAVX.lanes(vectorWidth))+\(vectorWidth == .zmm ? "AVX512" : "AVX2")",
               "HybridInputQuantize16+\(vectorWidth == .zmm ? "AVX512" : "AVX2")",
               "HybridFloatEpilogue16+\(vectorWidth == .zmm ? "AVX512" : "AVX2")",
               "ExactLogistic8+\(vectorWidth == .zmm ? "AVX512" : "AVX2") (plain, times input)"]
    }

    /// The kernels for this process's policy, or nil when it generates none (portable kernels).
    public static let current: GeneratedKernels? = {
        let policy = CodeGenerationPolicy.current
        guard policy.generatesCode, let kernels = try? GeneratedKernels(level: policy.level),
              !kernels.kernelNames.isEmpty else { return nil }
        return kernels
    }()

    /// One line saying which kernels run: the policy, and the generated kernels if any.
    public static var summary: String {
        let policy = CodeGenerationPolicy.current
        guard let kernels = current else { return "kernels: portable Swift; code generation \(policy)" }
        return "kernels: generated for \(kernels.level) (\(policy.reason)): \(kernels.kernelNames.joined(separator: ", "))"
    }
}
