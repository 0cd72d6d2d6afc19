import MachineCode

/// The float convolution microkernel shapes, and which one a build uses for a layer.
///
/// Measured on a Zen 5 core (GFLOP/s on 1×1 and 3×3 layers of deeplabv3's sizes):
/// - AVX-512 tuned builds: 8 × 32 ≈ 225 (16 zmm accumulators), 6 × 16 ≈ 180, 6 × 8 ≈ 105;
///   the widest panel wins unless padding the output depth to it wastes more than it gains; with
///   fewer than 64 multiply steps per output (depth = taps · input channels) its larger tile
///   costs more than it gains (cin 24: 8 × 32 ≈ 100, 6 × 16 ≈ 128), so it is not used there.
/// - The default x86-64 build (SSE2: 16 xmm, no FMA, `a * b + c` is a multiply and an add):
///   6 × 8 ≈ 47 (12 xmm accumulators, no spills), 6 × 16 ≈ 37, 8 × 32 ≈ 33.
/// - Other targets (arm64 NEON with 32 registers, AVX2 tuned builds): 6 × 16 (24 NEON or 12 ymm
///   accumulators), 6 × 8 for output depths of 8 or less.
enum FloatConvKernelShape: CaseIterable {
    /// `FloatConvKernel8x32`.
    case rows8x32
    /// `FloatConvKernel6x16`.
    case rows6x16
    /// `FloatConvKernel6x8`.
    case rows6x8
    /// `GeneratedFloatConvKernel6x16` (AVX code generated at run time), where available.
    case generated6x16
    /// `GeneratedFloatConvKernel8x32` (AVX-512 code generated at run time), where available.
    case generated8x32
    /// `GeneratedFloatConvKernel8x16` (the same, one 16-channel panel), where available.
    case generated8x16

    /// Output pixels per tile.
    var rows: Int {
        switch self {
        case .rows8x32: FloatConvKernel8x32.rows
        case .rows6x16: FloatConvKernel6x16.rows
        case .rows6x8: FloatConvKernel6x8.rows
        case .generated6x16: GeneratedFloatConvKernel6x16.rows
        case .generated8x32: GeneratedFloatConvKernel8x32.rows
        case .generated8x16: GeneratedFloatConvKernel8x16.rows
        }
    }

    /// Output channels per weight panel.
    var panelWidth: Int {
        switch self {
        case .rows8x32: FloatConvKernel8x32.panelWidth
        case .rows6x16: FloatConvKernel6x16.panelWidth
        case .rows6x8: FloatConvKernel6x8.panelWidth
        case .generated6x16: GeneratedFloatConvKernel6x16.panelWidth
        case .generated8x32: GeneratedFloatConvKernel8x32.panelWidth
        case .generated8x16: GeneratedFloatConvKernel8x16.panelWidth
        }
    }

    /// This build's shapes with their relative throughput, and the generated AVX kernel where
    /// this CPU has one (ymm registers: twice the lanes of the SSE2 6 × 8 per instruction, and
    /// no spills).
    static let candidates: [(shape: FloatConvKernelShape, rate: Int)] = {
        let generated = GeneratedKernels.current?.floatConv6x16 != nil
        #if LITEVISION_AVX512
        return [(.rows8x32, 225), (.rows6x16, 180), (.rows6x8, 105)]
        #elseif arch(x86_64) && !LITEVISION_TUNED
        // On a CPU that splits zmm operations (AMD Zen 4) the 8 × 16 tile, whose input is a
        // broadcast memory operand, outruns the 8 × 32, whose separate broadcasts take a vector
        // pipe: deeplabv3's 33 × 33 × 480 → 80 layer 0.87 → 0.72 ms there, deeplabv3 15.8 → 15.3.
        let splitsZMM = CPUFeatures.current?.splitsZMMOperations == true
        let wide: [(shape: FloatConvKernelShape, rate: Int)] =
            GeneratedKernels.current?.floatConv8x32 != nil ? [(.generated8x32, 6), (.generated8x16, splitsZMM ? 7 : 5)] : []
        return wide + (generated ? [(.generated6x16, 4), (.rows6x8, 1)] : [(.rows6x8, 1)])
        #else
        return generated ? [(.generated6x16, 11), (.rows6x16, 10), (.rows6x8, 6)] : [(.rows6x16, 10), (.rows6x8, 6)]
        #endif
    }()

    /// Fewest multiply steps per output (`depth`) for an 8 × 32 shape: 64 for the Swift kernel
    /// (tuned builds); 16 for the generated one, whose fused multiply-adds leave it faster than
    /// the 6 × 16 from there on (measured on an AVX-512 Xeon: face_detection_full_range −5%,
    /// deeplabv3 −6% with its 16- to 32-channel layers moved to it).
    static func wideMinimumDepth(_ shape: FloatConvKernelShape) -> Int { shape == .generated8x32 ? 16 : 64 }

    /// The shape this build runs for a layer of `outputDepth` channels with `depth` weights per
    /// channel: the least estimated time (channels padded to the panel width ÷ throughput).
    static func native(outputDepth: Int, depth: Int) -> FloatConvKernelShape {
        var best = candidates[0]
        var bestCost = Double.infinity
        for candidate in candidates where candidate.shape.panelWidth < 32 || depth >= wideMinimumDepth(candidate.shape) {
            let padded = (outputDepth + candidate.shape.panelWidth - 1) / candidate.shape.panelWidth * candidate.shape.panelWidth
            let cost = Double(padded) / Double(candidate.rate)
            if cost < bestCost { best = candidate; bestCost = cost }
        }
        return best.shape
    }
}
