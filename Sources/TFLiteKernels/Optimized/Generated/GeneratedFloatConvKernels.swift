/// The generated float tiles behind the `FloatConvTileKernel` contract, so
/// `Conv2DOptimized.floatIndirect` drives them like the Swift kernels: `FloatConv6x16AVX` and
/// `FloatConv8x32AVX512`, each with separate roundings and with fused multiply-adds. The
/// AVX-512 tiles mask a partial last panel's lanes; the AVX2 tile stores a half panel's 8 lanes
/// itself, and any other partial panel goes through workspace buffers of a whole panel, one tile
/// per call, so it always reads and writes whole panels.
protocol GeneratedFloatTileKernel: FloatConvTileKernel {
    /// This process's generated code for the tile. Precondition: generated (see `FloatConvKernelShape.candidates`).
    static var generated: @convention(c) (UnsafeRawPointer) -> Void { get }
    /// Whether the tile masks the lanes of a partial panel and runs whole 1 × 1 tiles in one
    /// call (`GeneratedFloatTileArguments.laneMask`, `pointwiseTiles`): the AVX-512 tiles.
    static var masksLanes: Bool { get }
    /// Whether the tile stores only the first half of its panel for the `laneMask` of that half
    /// (the AVX2 tile, which does not mask lanes).
    static var storesHalfPanels: Bool { get }
}

extension GeneratedFloatTileKernel {
    static var storesHalfPanels: Bool { false }

    /// Whether a panel of `lanes` valid channels runs in place (`generatedTileRunsInPlace`).
    static func runsInPlace(lanes: Int) -> Bool {
        generatedTileRunsInPlace(lanes: lanes, panelWidth: panelWidth, masksLanes: masksLanes, storesHalfPanels: storesHalfPanels)
    }
}

/// Whether a generated tile of `panelWidth` channels runs a panel of `lanes` valid channels in
/// place, reading and writing those lanes only: it masks lanes, the panel is whole, or it is
/// half a panel of a tile that `storesHalfPanels`.
func generatedTileRunsInPlace(lanes: Int, panelWidth: Int, masksLanes: Bool, storesHalfPanels: Bool) -> Bool {
    masksLanes || lanes >= panelWidth || (storesHalfPanels && 2 * lanes == panelWidth)
}

extension GeneratedFloatTileKernel {
    @inline(__always)
    static func tile(runs: UnsafePointer<UnsafePointer<Float>>, taps: Int, inputDepth: Int,
                     weights: UnsafePointer<Float>, epilogue: FloatConvEpilogue,
                     output: UnsafeMutablePointer<Float>, rowStride: Int, count: Int) {
        runGeneratedFloatTile(generated, rows: rows, panelWidth: panelWidth, masksLanes: masksLanes, runs: runs,
                              taps: taps, inputDepth: inputDepth, weights: weights, epilogue: epilogue, output: output,
                              rowStride: rowStride, count: count, storesHalfPanels: storesHalfPanels)
    }

    static var runsPointwiseTiles: Bool { true }

    @inline(__always)
    static func pointwiseTiles(_ tiles: Int, input: UnsafePointer<Float>, inputDepth: Int, weights: UnsafePointer<Float>,
                               epilogue: FloatConvEpilogue, output: UnsafeMutablePointer<Float>, rowStride: Int) {
        guard runsInPlace(lanes: epilogue.lanes) else {
            // A partial panel of a tile that does not mask: one tile per call, through the
            // whole-panel buffers, each tile's rows consecutive pixels.
            withUnsafeTemporaryAllocation(of: UnsafePointer<Float>.self, capacity: rows) { runs in
                var tileEpilogue = epilogue
                for t in 0..<tiles {
                    for r in 0..<rows { runs[r] = input + (t * rows + r) * inputDepth }
                    tileEpilogue.residual = epilogue.residual.map { $0 + t * rows * epilogue.residualStride }
                    tile(runs: UnsafePointer(runs.baseAddress!), taps: 1, inputDepth: inputDepth, weights: weights,
                         epilogue: tileEpilogue, output: output + t * rows * rowStride, rowStride: rowStride, count: rows)
                }
            }
            return
        }
        withUnsafePointer(to: input) { first in
            runGeneratedFloatTile(generated, rows: rows, panelWidth: panelWidth, masksLanes: masksLanes, runs: first,
                                  taps: 1, inputDepth: inputDepth, weights: weights, epilogue: epilogue, output: output,
                                  rowStride: rowStride, count: rows, storesHalfPanels: storesHalfPanels, pointwiseTiles: tiles)
        }
    }
}

/// `FloatConv6x16AVX` (AVX2 and up).
enum GeneratedFloatConvKernel6x16: GeneratedFloatTileKernel {
    static var masksLanes: Bool { false }
    static var storesHalfPanels: Bool { true }
    static var rows: Int { 6 }
    static var panelWidth: Int { 16 }
    static var generated: @convention(c) (UnsafeRawPointer) -> Void { GeneratedKernels.current!.floatConv6x16! }
}

/// `FloatConv6x16AVX` with fused multiply-adds (AVX2 and up).
enum GeneratedFusedFloatConvKernel6x16: GeneratedFloatTileKernel {
    static var masksLanes: Bool { false }
    static var storesHalfPanels: Bool { true }
    static var rows: Int { 6 }
    static var panelWidth: Int { 16 }
    static var generated: @convention(c) (UnsafeRawPointer) -> Void { GeneratedKernels.current!.floatConv6x16Fused! }
}

/// `FloatConv8x32AVX512` (AVX-512 and up).
enum GeneratedFloatConvKernel8x32: GeneratedFloatTileKernel {
    static var masksLanes: Bool { true }
    static var rows: Int { 8 }
    static var panelWidth: Int { 32 }
    static var generated: @convention(c) (UnsafeRawPointer) -> Void { GeneratedKernels.current!.floatConv8x32! }
}

/// `FloatConv8x32AVX512` with fused multiply-adds (AVX-512 and up).
enum GeneratedFusedFloatConvKernel8x32: GeneratedFloatTileKernel {
    static var masksLanes: Bool { true }
    static var rows: Int { 8 }
    static var panelWidth: Int { 32 }
    static var generated: @convention(c) (UnsafeRawPointer) -> Void { GeneratedKernels.current!.floatConv8x32Fused! }
}

/// `FloatConv8x32AVX512` with one panel: 8 × 16 (AVX-512 and up).
enum GeneratedFloatConvKernel8x16: GeneratedFloatTileKernel {
    static var masksLanes: Bool { true }
    static var rows: Int { 8 }
    static var panelWidth: Int { 16 }
    static var generated: @convention(c) (UnsafeRawPointer) -> Void { GeneratedKernels.current!.floatConv8x16! }
}

/// `FloatConv8x32AVX512` with one panel and fused multiply-adds (AVX-512 and up).
enum GeneratedFusedFloatConvKernel8x16: GeneratedFloatTileKernel {
    static var masksLanes: Bool { true }
    static var rows: Int { 8 }
    static var panelWidth: Int { 16 }
    static var generated: @convention(c) (UnsafeRawPointer) -> Void { GeneratedKernels.current!.floatConv8x16Fused! }
}

/// Floats a generated tile of `rows` × `panelWidth` pads a partial panel in
/// (`FloatConvEpilogue.partialPanel`): a panel of bias, `rows` output rows and `rows` residual rows.
func partialPanelFloatCount(rows: Int, panelWidth: Int) -> Int { panelWidth * (1 + 2 * rows) }

/// Runs generated float tile `kernel` (`rows` × `panelWidth`) on one tile, or with
/// `pointwiseTiles > 0` on that many whole tiles of a 1 × 1 layer whose pixel `p` is at
/// `runs[0] + p · inputDepth` (panels that run in place). Panels run in place where
/// `generatedTileRunsInPlace` (masked lanes, whole panels, half panels of a tile that
/// `storesHalfPanels`); the others go through whole-panel buffers for the output and the
/// residual, in `epilogue.partialPanel` (or a temporary of their own without it). A missing
/// bias reads zeros from there too.
///
/// - Precondition: the `FloatConvTileKernel.tile` contract: `taps ≥ 1`, `inputDepth ≥ 1`,
///   `1 ≤ count ≤ rows`, `rowStride ≥ min(panelWidth, epilogue.lanes)` (masking kernels and half
///   panels) or `≥ panelWidth` (the others, in place) when more than one row is stored,
///   an activation range (and, with a residual, the ADD's range) that is not empty; `runs`
///   holds `taps · rows` runs of `inputDepth` floats (pointwise: `runs[0]` the first of the
///   tiles' consecutive pixels, `taps = 1`, whole tiles), `weights` the panel, the residual
///   `count` rows of `epilogue.lanes` floats `rowStride` apart. Checked under
///   `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it
///   (`GeneratedFloatTileArguments.violation(rows:panelWidth:masksLanes:halfPanels:)`, once per call).
@inline(never)
func runGeneratedFloatTile(_ kernel: @convention(c) (UnsafeRawPointer) -> Void, rows: Int, panelWidth: Int,
                           masksLanes: Bool, runs: UnsafePointer<UnsafePointer<Float>>, taps: Int, inputDepth: Int,
                           weights: UnsafePointer<Float>, epilogue: FloatConvEpilogue,
                           output: UnsafeMutablePointer<Float>, rowStride: Int, count: Int, storesHalfPanels: Bool = false,
                           pointwiseTiles: Int = 0) {
    let lanes = epilogue.lanes
    let inPlace = generatedTileRunsInPlace(lanes: lanes, panelWidth: panelWidth, masksLanes: masksLanes,
                                           storesHalfPanels: storesHalfPanels)
    KernelPrecondition.check(pointwiseTiles == 0 || (inPlace && count == rows),
                             "pointwise tiles need whole tiles of a panel that runs in place")
    var residual = epilogue.residual, residualStride = epilogue.residualStride
    func run(bias: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, rowStride: Int) {
        var arguments = GeneratedFloatTileArguments(
            runs: pointwiseTiles > 0 ? UnsafeRawPointer(runs[0]) : UnsafeRawPointer(runs), taps: taps,
            depthBytes: inputDepth * 4, weights: UnsafeRawPointer(weights),
            bias: UnsafeRawPointer(bias), output: UnsafeMutableRawPointer(output), rowStrideBytes: rowStride * 4,
            count: count, activationMin: epilogue.activationMin, activationMax: epilogue.activationMax,
            residual: residual.map(UnsafeRawPointer.init), residualMin: epilogue.residualMin,
            residualMax: epilogue.residualMax, laneMask: lanes >= 32 ? .max : (1 << UInt32(lanes)) - 1,
            pointwiseTiles: pointwiseTiles, residualStrideBytes: residualStride * 4)
        KernelPrecondition.holds(arguments.violation(rows: rows, panelWidth: panelWidth, masksLanes: masksLanes,
                                                     halfPanels: storesHalfPanels))
        withUnsafeMutablePointer(to: &arguments) { kernel(UnsafeRawPointer($0)) }
    }
    if let bias = epilogue.bias, inPlace {
        run(bias: bias, output: output, rowStride: rowStride)
        return
    }
    let paddedFloats = partialPanelFloatCount(rows: rows, panelWidth: panelWidth)
    let room = epilogue.partialPanel.map { KernelWorkspace(start: UnsafeMutableRawPointer($0), byteCount: KernelWorkspace.bytes(Float.self, count: paddedFloats)) }
    KernelWorkspace.using(room, orTemporary: KernelWorkspace.bytes(Float.self, count: paddedFloats)) { workspace in
        let bias = workspace.take(Float.self, count: paddedFloats)
        let scratch = bias + panelWidth, residualRows = scratch + rows * panelWidth
        for l in 0..<panelWidth { bias[l] = l < lanes ? epilogue.bias?[l] ?? 0 : 0 }
        if inPlace {
            run(bias: bias, output: output, rowStride: rowStride)
            return
        }
        if let source = residual {
            // The residual's partial rows, padded to whole panels like the output.
            residualRows.initialize(repeating: 0, count: count * panelWidth)
            for r in 0..<count { (residualRows + r * panelWidth).update(from: source + r * residualStride, count: lanes) }
            (residual, residualStride) = (UnsafePointer(residualRows), panelWidth)
        }
        run(bias: bias, output: scratch, rowStride: panelWidth)
        for r in 0..<count {
            (output + r * rowStride).update(from: scratch + r * panelWidth, count: lanes)
        }
    }
}
