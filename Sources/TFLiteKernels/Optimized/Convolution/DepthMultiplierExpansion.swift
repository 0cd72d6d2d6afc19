/// The input of a DEPTHWISE_CONV_2D with a depth multiplier `m > 1`, repeated so that the layer
/// runs on the multiplier-1 kernels (`DepthwiseConv2DOptimized`). Output channel `c·m + j`
/// reads input channel `c` with filter column `c·m + j` (TFLite's layout); on the expanded
/// input, whose channel `c·m + j` holds a copy of channel `c`, every output channel reads the
/// channel of its own index with the same filter column and bias, so the multiplier-1 kernels
/// add the same products in the same order: the results are those of the multiplier-`m` layer,
/// bit for bit (padding included: a padded tap reads no input either way).
///
/// The copies are bit patterns (`UInt8` for 8-bit tensors, `UInt32` for float ones), so NaN
/// payloads and negative zeros pass unchanged.
public enum DepthMultiplierExpansion {
    /// Writes `pixels` pixels of `channels` bytes from `input` to `output` as pixels of
    /// `channels · multiplier` bytes, byte `c` of a pixel repeated at `c·multiplier ..< (c+1)·multiplier`.
    /// Preconditions: `input` holds `pixels · channels` bytes, `output` `pixels · channels ·
    /// multiplier`, and they do not overlap; `multiplier ≥ 1`. O(output).
    public static func expand(_ input: UnsafePointer<UInt8>, channels: Int, multiplier: Int, pixels: Int,
                              into output: UnsafeMutablePointer<UInt8>) {
        repeatElements(input, count: pixels * channels, multiplier: multiplier, into: output)
    }

    /// `expand` for 32-bit elements (float tensors, as bit patterns).
    public static func expand(_ input: UnsafePointer<UInt32>, channels: Int, multiplier: Int, pixels: Int,
                              into output: UnsafeMutablePointer<UInt32>) {
        repeatElements(input, count: pixels * channels, multiplier: multiplier, into: output)
    }

    /// Writes each of `count` elements `multiplier` times in a row. Pixels are contiguous, so a
    /// run of pixels is one run of elements whatever its channel count.
    @inline(__always)
    private static func repeatElements<T>(_ input: UnsafePointer<T>, count: Int, multiplier: Int,
                                          into output: UnsafeMutablePointer<T>) {
        precondition(count >= 0 && multiplier >= 1, "depth multiplier expansion: \(count) elements, multiplier \(multiplier)")
        var out = output
        for i in 0..<count {
            out.initialize(repeating: input[i], count: multiplier)
            out += multiplier
        }
    }
}
