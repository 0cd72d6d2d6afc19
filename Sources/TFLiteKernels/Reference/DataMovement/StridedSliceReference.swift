// STRIDED_SLICE: begin/end/stride per axis with begin, end, ellipsis, new-axis and
// shrink-axis masks and the `offset` flag, resolved exactly as the reference kernel does.

/// The operator's options and index tensors.
public struct StridedSliceParameters: Sendable, Equatable {
    /// Begin index per sliced axis.
    public var begin: [Int32]
    /// End index per sliced axis (relative to `begin` when `offset` is set).
    public var end: [Int32]
    /// Stride per sliced axis (non-zero).
    public var strides: [Int32]
    /// Bit i: ignore `begin[i]`, start at the first (or last, for negative strides) element.
    public var beginMask: Int32
    /// Bit i: ignore `end[i]`, run to the end of the axis.
    public var endMask: Int32
    /// Bit i: entry i stands for all axes not otherwise named.
    public var ellipsisMask: Int32
    /// Bit i: entry i inserts a new axis of size 1.
    public var newAxisMask: Int32
    /// Bit i: entry i takes one element and removes the axis.
    public var shrinkAxisMask: Int32
    /// When true, `end` is a size added to `begin`.
    public var offset: Bool

    /// Creates the parameters.
    public init(begin: [Int32], end: [Int32], strides: [Int32], beginMask: Int32 = 0, endMask: Int32 = 0,
                ellipsisMask: Int32 = 0, newAxisMask: Int32 = 0, shrinkAxisMask: Int32 = 0, offset: Bool = false) {
        self.begin = begin; self.end = end; self.strides = strides
        self.beginMask = beginMask; self.endMask = endMask; self.ellipsisMask = ellipsisMask
        self.newAxisMask = newAxisMask; self.shrinkAxisMask = shrinkAxisMask; self.offset = offset
    }
}

/// A strided slice resolved for one input shape.
public struct StridedSlicePlan: Sendable, Equatable {
    /// Output shape (shrunk axes removed, new axes inserted).
    public let outputShape: [Int]
    /// The window of the input to copy.
    public let window: StridedWindow

    /// Resolves the masks against `inputShape` as the reference's prepare does.
    public init(inputShape: [Int], parameters p: StridedSliceParameters) throws(DataMovementParameterError) {
        let count = p.begin.count
        guard p.end.count == count, p.strides.count == count else {
            throw DataMovementParameterError("STRIDED_SLICE: begin, end and strides differ in length")
        }
        guard count <= 16, inputShape.count <= 16 else {
            throw DataMovementParameterError("STRIDED_SLICE: too many dimensions")
        }
        func bit(_ mask: Int32, _ i: Int) -> Bool { i >= 0 && i < 32 && (mask >> Int32(i)) & 1 != 0 }
        let inputRank = inputShape.count

        // New axes that are not also ellipsis entries add dimensions.
        var addedAxes = 0
        for i in 0..<count where !bit(p.ellipsisMask, i) && bit(p.newAxisMask, i) { addedAxes += 1 }
        let effectiveRank = inputRank + addedAxes

        // Expand the ellipsis (the first set bit) over the unnamed axes.
        var ellipsisBits = [Bool](repeating: false, count: effectiveRank)
        var newAxisBits = [Bool](repeating: false, count: effectiveRank)
        var ellipsisStart = effectiveRank, expandedEllipsis = 0
        var i = 0
        while i < effectiveRank {
            if bit(p.ellipsisMask, i) {
                ellipsisStart = i
                let ellipsisEnd = max(i + 1, min(i + 1 + addedAxes + inputRank - count, effectiveRank))
                expandedEllipsis = ellipsisEnd - ellipsisStart - 1
                while i < ellipsisEnd { ellipsisBits[i] = true; i += 1 }
                continue
            }
            if bit(p.newAxisMask, i - expandedEllipsis) { newAxisBits[i] = true }
            i += 1
        }

        // Per effective axis: start, stop, stride, masks and the axis size.
        var starts = [Int](repeating: 0, count: effectiveRank)
        var stops = [Int](repeating: 0, count: effectiveRank)
        var strides = [Int](repeating: 1, count: effectiveRank)
        var beginMasked = [Bool](repeating: false, count: effectiveRank)
        var endMasked = [Bool](repeating: false, count: effectiveRank)
        var shrink = [Bool](repeating: false, count: effectiveRank)
        var sizes = [Int](repeating: 1, count: effectiveRank)
        var addedEllipsis = 0, addedNewAxes = 0
        for i in 0..<effectiveRank {
            if ellipsisBits[i] {
                addedEllipsis = max(0, i - ellipsisStart)
                beginMasked[i] = true; endMasked[i] = true
                guard i - addedNewAxes < inputRank else { throw DataMovementParameterError("STRIDED_SLICE: bad ellipsis") }
                sizes[i] = inputShape[i - addedNewAxes]
            } else if newAxisBits[i] {
                starts[i] = 0; stops[i] = 1; sizes[i] = 1
                addedNewAxes += 1
            } else if i >= count + expandedEllipsis {
                beginMasked[i] = true; endMasked[i] = true
                guard i - addedNewAxes < inputRank else { throw DataMovementParameterError("STRIDED_SLICE: bad axes") }
                sizes[i] = inputShape[i - addedNewAxes]
            } else {
                let k = i - addedEllipsis
                guard k >= 0, k < count, i - addedNewAxes < inputRank else {
                    throw DataMovementParameterError("STRIDED_SLICE: index tables do not match the input rank")
                }
                starts[i] = Int(p.begin[k])
                stops[i] = p.offset ? Int(p.begin[k]) + Int(p.end[k]) : Int(p.end[k])
                strides[i] = Int(p.strides[k])
                beginMasked[i] = bit(p.beginMask, k)
                endMasked[i] = bit(p.endMask, k)
                shrink[i] = bit(p.shrinkAxisMask, k)
                sizes[i] = inputShape[i - addedNewAxes]
            }
        }

        var outputShape: [Int] = []
        var windowStarts: [Int] = [], counts: [Int] = []
        for axis in 0..<effectiveRank {
            let stride = strides[axis]
            guard stride != 0 else { throw DataMovementParameterError("STRIDED_SLICE: stride value has to be non-zero") }
            let size = sizes[axis]
            // Start for the axis.
            var start = starts[axis]
            if beginMasked[axis] { start = stride > 0 ? Int(Int32.min) : Int(Int32.max) }
            if start < 0 { start += size }
            start = stride > 0 ? Self.clamp(start, 0, size) : Self.clamp(start, -1, size - 1)
            // Stop for the axis.
            var stop: Int
            if shrink[axis] {
                stop = start + 1
            } else {
                stop = stops[axis]
                if endMasked[axis] { stop = stride > 0 ? Int(Int32.max) : Int(Int32.min) }
                if stop < 0 { stop += size }
                stop = stride > 0 ? Self.clamp(stop, 0, size) : Self.clamp(stop, -1, size - 1)
            }
            if size == 0 { start = 0; stop = 0 }
            var dim = Int((Float(stop - start) / Float(stride)).rounded(.up))
            if dim < 0 { dim = 0 }
            if shrink[axis] {
                guard start >= 0, start < size else {
                    throw DataMovementParameterError("STRIDED_SLICE: shrunk axis \(axis) index out of range")
                }
                dim = 1
            } else {
                outputShape.append(dim)
            }
            if dim > 0 {
                let last = start + (dim - 1) * stride
                guard start >= 0, start < size, last >= 0, last < size else {
                    throw DataMovementParameterError("STRIDED_SLICE: window leaves axis \(axis)")
                }
            }
            windowStarts.append(dim > 0 ? start : 0)
            counts.append(dim)
        }
        self.outputShape = outputShape
        // The effective input shape has the new axes inserted with size 1.
        window = StridedWindow(inputShape: sizes, starts: windowStarts, counts: counts, steps: strides)
    }

    static func clamp(_ v: Int, _ lo: Int, _ hi: Int) -> Int { hi < v ? hi : (v < lo ? lo : v) }

    /// Number of output elements.
    public var elementCount: Int { window.elementCount }
}

/// Reference STRIDED_SLICE kernel (any element type).
public enum StridedSliceReference {
    /// Copies the planned slice of `input` into `output`.
    /// - Precondition: `elementSize` one the data-movement kernels support; `input` holds the
    ///   sliced tensor, `output` `plan.elementCount` elements. Checked under
    ///   `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func run(_ plan: StridedSlicePlan, elementSize: Int,
                           input: UnsafeRawPointer, output: UnsafeMutableRawPointer) {
        KernelPrecondition.check(ElementSize.isSupported(elementSize), "STRIDED_SLICE element size \(elementSize)")
        StridedCopyReference.run(plan.window, elementSize: elementSize, input: input, output: output)
    }
}
