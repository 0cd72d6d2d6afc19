/// The generated AVX 6 × 16 float tile (`FloatConv6x16AVX`) behind the `FloatConvTileKernel`
/// contract, so `Conv2DOptimized.floatIndirect` drives it like the Swift kernels. A partial last
/// panel (fewer than 16 channels) and a missing bias go through 16-lane stack buffers, so the
/// generated code always reads and writes whole panels.
/// Precondition: `GeneratedKernels.current?.floatConv6x16` is non-nil.
enum GeneratedFloatConvKernel6x16: FloatConvTileKernel {
    static var rows: Int { 6 }
    static var panelWidth: Int { 16 }

    @inline(__always)
    static func tile(runs: UnsafePointer<UnsafePointer<Float>>, taps: Int, inputDepth: Int,
                     weights: UnsafePointer<Float>, epilogue: FloatConvEpilogue,
                     output: UnsafeMutablePointer<Float>, rowStride: Int, count: Int) {
        let kernel = GeneratedKernels.current!.floatConv6x16!
        func run(bias: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, rowStride: Int) {
            var arguments = GeneratedFloatTileArguments(
                runs: UnsafeRawPointer(runs), taps: taps, depthBytes: inputDepth * 4, weights: UnsafeRawPointer(weights),
                bias: UnsafeRawPointer(bias), output: UnsafeMutableRawPointer(output), rowStrideBytes: rowStride * 4,
                count: count, activationMin: epilogue.activationMin, activationMax: epilogue.activationMax)
            withUnsafePointer(to: &arguments) { kernel(UnsafeRawPointer($0)) }
        }
        let lanes = epilogue.lanes
        if lanes == 16, let bias = epilogue.bias {
            run(bias: bias, output: output, rowStride: rowStride)
            return
        }
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 16 + 6 * 16) { buffer in
            let bias = buffer.baseAddress!, scratch = bias + 16
            for l in 0..<16 { bias[l] = l < lanes ? epilogue.bias?[l] ?? 0 : 0 }
            if lanes == 16 {
                run(bias: bias, output: output, rowStride: rowStride)
                return
            }
            run(bias: bias, output: scratch, rowStride: 16)
            for r in 0..<count {
                (output + r * rowStride).update(from: scratch + r * 16, count: lanes)
            }
        }
    }
}
