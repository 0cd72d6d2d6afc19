// The shared core of SLICE and STRIDED_SLICE: copy an n-dimensional strided window of the
// input into a contiguous output.

/// A strided window of an input: for each dimension a start, an element count and a step
/// (negative steps walk backwards), over the input's row-major strides.
public struct StridedWindow: Sendable, Equatable {
    /// Offset of the window's first element in the input, in elements.
    public let baseOffset: Int
    /// Elements per dimension (the output shape before dropping shrunk axes).
    public let counts: [Int]
    /// Step per dimension in input elements (`step × inputStride`).
    public let elementSteps: [Int]

    /// Creates a window from per-dimension starts, counts and steps over `inputShape`.
    /// Precondition: every visited index is inside the input.
    public init(inputShape: [Int], starts: [Int], counts: [Int], steps: [Int]) {
        let rank = inputShape.count
        var strides = [Int](repeating: 1, count: rank)
        var s = 1
        for d in stride(from: rank - 1, through: 0, by: -1) { strides[d] = s; s *= inputShape[d] }
        baseOffset = (0..<rank).reduce(0) { $0 + starts[$1] * strides[$1] }
        self.counts = counts
        elementSteps = (0..<rank).map { steps[$0] * strides[$0] }
    }

    /// Number of elements in the window.
    public var elementCount: Int { counts.reduce(1, *) }
}

/// Copies a `StridedWindow` of the input into a contiguous output, any element type.
public enum StridedCopyReference {
    /// Copies `window` of `input` to `output` (`window.elementCount` elements).
    public static func run(_ window: StridedWindow, elementSize: Int,
                           input: UnsafeRawPointer, output: UnsafeMutableRawPointer) {
        if window.elementCount == 0 { return }
        ElementSize.dispatch(elementSize, Operation(window: window, input: input, output: output))
    }

    struct Operation: ElementMovingOperation {
        let window: StridedWindow
        let input: UnsafeRawPointer
        let output: UnsafeMutableRawPointer

        /// A plain loop nest, one level per dimension (recursion over `d`), with each element's
        /// input offset computed from its own indices — deliberately independent of the
        /// incremental `StridedOdometer` of the optimized copies, so comparing the two can catch
        /// a counter bug in either.
        func run<T>(_ carrier: T.Type) {
            let src = input.assumingMemoryBound(to: T.self)
            let dst = output.assumingMemoryBound(to: T.self)
            let counts = window.counts, steps = window.elementSteps
            if counts.isEmpty { dst.pointee = src[window.baseOffset]; return }
            var written = 0
            func copy(dimension d: Int, offset: Int) {
                if d == counts.count - 1 {
                    for j in 0..<counts[d] { dst[written + j] = src[offset + j * steps[d]] }
                    written += counts[d]
                    return
                }
                for i in 0..<counts[d] { copy(dimension: d + 1, offset: offset + i * steps[d]) }
            }
            copy(dimension: 0, offset: window.baseOffset)
        }
    }
}
