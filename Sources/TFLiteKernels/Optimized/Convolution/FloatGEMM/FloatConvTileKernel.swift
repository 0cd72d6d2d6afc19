/// A register-blocked float convolution microkernel: `rows` output pixels × `panelWidth` output
/// channels accumulate in registers while the kernel walks the packed weights of one panel.
/// The shapes are plain Swift SIMD, so every one compiles and is tested on every target;
/// `FloatConvKernelShape.native(outputDepth:)` picks the one a build runs for a layer.
protocol FloatConvTileKernel {
    /// Output pixels per tile.
    static var rows: Int { get }
    /// Output channels per weight panel.
    static var panelWidth: Int { get }
    /// Accumulates one tile over `taps` filter taps of `inputDepth` channels and stores it.
    /// `runs[t * rows + r]` is pixel `r`'s input run for tap `t` (`inputDepth` floats, zeros in
    /// the padding); `weights` is the panel (`taps · inputDepth` steps of `panelWidth` floats).
    /// Rows `0 ..< count` are written at `output + r · rowStride`.
    static func tile(runs: UnsafePointer<UnsafePointer<Float>>, taps: Int, inputDepth: Int,
                     weights: UnsafePointer<Float>, epilogue: FloatConvEpilogue,
                     output: UnsafeMutablePointer<Float>, rowStride: Int, count: Int)

    /// Whether `pointwiseTiles` runs (the kernel loops over whole 1 × 1 tiles itself).
    static var runsPointwiseTiles: Bool { get }

    /// Runs `tiles` whole tiles of a 1 × 1 layer in one call, pixel `p` reading `input + p ·
    /// inputDepth` and writing `output + p · rowStride`. Precondition: `runsPointwiseTiles`.
    static func pointwiseTiles(_ tiles: Int, input: UnsafePointer<Float>, inputDepth: Int, weights: UnsafePointer<Float>,
                               epilogue: FloatConvEpilogue, output: UnsafeMutablePointer<Float>, rowStride: Int)
}

extension FloatConvTileKernel {
    static var runsPointwiseTiles: Bool { false }

    static func pointwiseTiles(_ tiles: Int, input: UnsafePointer<Float>, inputDepth: Int, weights: UnsafePointer<Float>,
                               epilogue: FloatConvEpilogue, output: UnsafeMutablePointer<Float>, rowStride: Int) {
        preconditionFailure("\(Self.self) runs no pointwise tiles")
    }
}
