/// Weight layouts the optimized convolution microkernels read, built once at prepare.
///
/// A CONV_2D filter `[outputDepth, fh, fw, filterInputDepth]` becomes column panels of
/// `ConvPackedFilter.panelWidth` output channels: panel `p` holds, for every tap and input
/// channel in filter order, the 16 weights of channels `16p ..< 16p + 16` (zero beyond
/// `outputDepth`). FULLY_CONNECTED weights `[units, inputSize]` pack the same way as a 1×1 filter.
/// Float filters use the panel width of the float microkernel chosen for them (`packFloat`).
public enum ConvFilterPacking {
    /// Output channels per panel (one `SIMD16` register of results).
    public static let panelWidth = 16

    /// Number of panels for `outputDepth` channels.
    public static func panelCount(outputDepth: Int) -> Int { (outputDepth + panelWidth - 1) / panelWidth }

    /// Bytes `packFloat(_:outputDepth:depth:)` allocates, saturating at `Int.max` (for a budget
    /// check before packing).
    public static func packedFloatByteCount(outputDepth: Int, depth: Int) -> Int {
        packedFloatByteCount(outputDepth: outputDepth, depth: depth,
                             panelWidth: FloatConvKernelShape.native(outputDepth: outputDepth, depth: depth).panelWidth)
    }

    /// Bytes a packing into panels of `panelWidth` channels takes, saturating at `Int.max`.
    static func packedFloatByteCount(outputDepth: Int, depth: Int, panelWidth: Int) -> Int {
        let panels = (outputDepth + panelWidth - 1) / panelWidth
        var bytes = MemoryLayout<Float>.size
        for factor in [panels, depth, panelWidth] {
            let (product, overflow) = bytes.multipliedReportingOverflow(by: max(0, factor))
            if overflow { return Int.max }
            bytes = product
        }
        return bytes
    }

    /// Packs a float filter with `depth = fh·fw·filterInputDepth` weights per output channel
    /// for the float microkernel this build runs for `outputDepth` channels (`Conv2DOptimized.float`).
    /// - Precondition: `outputDepth ≥ 0`, `depth ≥ 0`; `filter` holds `outputDepth × depth` weights.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func packFloat(_ filter: UnsafePointer<Float>, outputDepth: Int, depth: Int) -> [Float] {
        packFloat(filter, outputDepth: outputDepth, depth: depth,
                  panelWidth: FloatConvKernelShape.native(outputDepth: outputDepth, depth: depth).panelWidth)
    }

    /// `packFloat(_:outputDepth:depth:)` into cache-line-aligned memory, written in place (no
    /// intermediate array): the form the interpreter keeps, packed at every model load.
    /// - Throws: `AlignedArrayAllocationError` when the system cannot provide the memory.
    public static func packFloatAligned(_ filter: UnsafePointer<Float>, outputDepth: Int, depth: Int) throws -> AlignedArray<Float> {
        try packFloatAligned(filter, outputDepth: outputDepth, depth: depth,
                             panelWidth: FloatConvKernelShape.native(outputDepth: outputDepth, depth: depth).panelWidth)
    }

    /// `packFloat(_:outputDepth:depth:panelWidth:)` into cache-line-aligned memory, written in place.
    /// - Throws: `AlignedArrayAllocationError` when the system cannot provide the memory.
    static func packFloatAligned(_ filter: UnsafePointer<Float>, outputDepth: Int, depth: Int,
                                 panelWidth: Int) throws -> AlignedArray<Float> {
        let panels = (outputDepth + panelWidth - 1) / panelWidth
        return try AlignedArray(zeroedCount: panels * depth * panelWidth) { dst in
            packFloat(filter, outputDepth: outputDepth, depth: depth, panelWidth: panelWidth, into: dst)
        }
    }

    /// Packs a float filter into panels of `panelWidth` output channels: panel `p` holds, for
    /// every tap and input channel in filter order, the weights of channels
    /// `panelWidth·p ..< panelWidth·(p + 1)` (zero beyond `outputDepth`).
    static func packFloat(_ filter: UnsafePointer<Float>, outputDepth: Int, depth: Int, panelWidth: Int) -> [Float] {
        let panels = (outputDepth + panelWidth - 1) / panelWidth
        var packed = [Float](repeating: 0, count: panels * depth * panelWidth)
        packed.withUnsafeMutableBufferPointer { dst in
            packFloat(filter, outputDepth: outputDepth, depth: depth, panelWidth: panelWidth, into: dst)
        }
        return packed
    }

    /// `packFloat` into `dst` (`panels · depth · panelWidth` elements, zero where padding goes:
    /// only the weights are written).
    static func packFloat(_ filter: UnsafePointer<Float>, outputDepth: Int, depth: Int, panelWidth: Int,
                          into dst: UnsafeMutableBufferPointer<Float>) {
        KernelPrecondition.check(outputDepth >= 0 && depth >= 0 && panelWidth >= 1,
                                 "packFloat: outputDepth \(outputDepth), depth \(depth), panel width \(panelWidth)")
        precondition(dst.count == (outputDepth + panelWidth - 1) / panelWidth * depth * panelWidth, "packFloat: destination size")
        // A panel at a time, in blocks of 16 weights per channel: the block's reads (a cache
        // line of each channel) and writes (16 rows of the panel) stay in the L1 cache, where
        // writing channel by channel spread the stores over the whole panel (0.58–0.63 against
        // 0.39–0.47 ns per weight on the AMD Zen 4, EPYC family 25 model 17).
        guard let base = dst.baseAddress else { return }  // no weights
        let block = 16
        for panelStart in stride(from: 0, to: outputDepth, by: panelWidth) {
            let lanes = min(panelWidth, outputDepth - panelStart)
            let rows = filter + panelStart * depth
            let panel = base + panelStart * depth
            for k in stride(from: 0, to: depth, by: block) {
                let count = min(block, depth - k)
                for lane in 0..<lanes {
                    let row = rows + lane * depth + k
                    let column = panel + k * panelWidth + lane
                    for j in 0..<count { column[j * panelWidth] = row[j] }
                }
            }
        }
    }

    /// A depthwise filter `[1, fh, fw, C]` as `w + offset` (exact small integers in `Float`),
    /// in the same layout.
    /// - Precondition: `count ≥ 0`; `filter` holds `count` weights.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func packDepthwiseInteger<Weight: FixedWidthInteger>(_ filter: UnsafePointer<Weight>, offset: Int32,
                                                                      count: Int) -> [Float] {
        packDepthwiseWeights(filter, offset: offset, count: count)
    }

    /// `packDepthwiseInteger` for uint8 weights, specialized here: callers in other modules
    /// would otherwise run the generic body, a witness call per weight, at every model load.
    public static func packDepthwiseInteger(_ filter: UnsafePointer<UInt8>, offset: Int32, count: Int) -> [Float] {
        packDepthwiseWeights(filter, offset: offset, count: count)
    }

    /// `packDepthwiseInteger` for int8 weights, specialized here (see the uint8 form).
    public static func packDepthwiseInteger(_ filter: UnsafePointer<Int8>, offset: Int32, count: Int) -> [Float] {
        packDepthwiseWeights(filter, offset: offset, count: count)
    }

    /// `packDepthwiseInteger` straight into aligned memory, the form the interpreter keeps (no
    /// intermediate array: packed at every model load, where a copy's page faults showed).
    /// - Throws: `AlignedArrayAllocationError` when the system cannot provide the memory.
    public static func packDepthwiseIntegerAligned(_ filter: UnsafePointer<UInt8>, offset: Int32,
                                                   count: Int) throws -> AlignedArray<Float> {
        KernelPrecondition.validCount(count)
        return try AlignedArray(count: count) { writeDepthwiseWeights(filter, offset: offset, into: $0) }
    }

    /// `packDepthwiseIntegerAligned` for int8 weights.
    public static func packDepthwiseIntegerAligned(_ filter: UnsafePointer<Int8>, offset: Int32,
                                                   count: Int) throws -> AlignedArray<Float> {
        KernelPrecondition.validCount(count)
        return try AlignedArray(count: count) { writeDepthwiseWeights(filter, offset: offset, into: $0) }
    }

    @inline(__always)
    static func packDepthwiseWeights<Weight: FixedWidthInteger>(_ filter: UnsafePointer<Weight>, offset: Int32,
                                                                 count: Int) -> [Float] {
        KernelPrecondition.validCount(count)
        return [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            writeDepthwiseWeights(filter, offset: offset, into: buffer)
            initialized = count
        }
    }

    /// Writes `w + offset` for the first `buffer.count` weights of `filter` into `buffer`.
    @inline(__always)
    static func writeDepthwiseWeights<Weight: FixedWidthInteger>(_ filter: UnsafePointer<Weight>, offset: Int32,
                                                                  into buffer: UnsafeMutableBufferPointer<Float>) {
        for i in 0..<buffer.count { buffer[i] = Float(Int32(truncatingIfNeeded: filter[i]) &+ offset) }
    }
}
