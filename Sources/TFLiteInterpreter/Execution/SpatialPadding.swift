/// Explicit padding of the two spatial axes of an NHWC tensor: rows above and below, columns
/// left and right, all non-negative. A convolution given it runs its own windows (SAME or VALID)
/// over its input extended by these rows and columns
/// (``ConvolutionAxis/init(inputSize:filterSize:stride:dilation:padding:extendBefore:extendAfter:)``).
struct SpatialPadding: Equatable {
    /// Rows before the first input row.
    let top: Int
    /// Rows after the last input row.
    let bottom: Int
    /// Columns before the first input column.
    let left: Int
    /// Columns after the last input column.
    let right: Int

    /// The spatial part of a PAD's `[4, 2]` paddings of an NHWC tensor (`before[d]`, `after[d]`
    /// for dimension `d`), or nil unless the PAD pads only height and width: batch and channel
    /// paddings zero, every padding non-negative.
    init?(nhwcBefore before: [Int], after: [Int]) {
        guard before.count == 4, after.count == 4, before[0] == 0, after[0] == 0, before[3] == 0, after[3] == 0,
              (before + after).allSatisfy({ $0 >= 0 }) else { return nil }
        (top, bottom, left, right) = (before[1], after[1], before[2], after[2])
    }
}
