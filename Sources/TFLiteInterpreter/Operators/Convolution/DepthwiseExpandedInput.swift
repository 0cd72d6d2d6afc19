import TFLiteKernels

/// The input of a DEPTHWISE_CONV_2D with a depth multiplier, expanded at invoke into node scratch
/// with each channel repeated `multiplier` times (`DepthMultiplierExpansion`), which the
/// multiplier-1 plan of the layer then reads as its input.
struct DepthwiseExpandedInput {
    /// The layer's own geometry (input depth `cin`, output depth `cin · multiplier`).
    let geometry: ConvolutionGeometry
    /// The input's element type (copied as bit patterns).
    let element: Element
    private let scratch: ScratchArray<UInt32>

    /// The element types a multiplier-1 plan takes.
    enum Element {
        case float32, uint8, int8

        /// Bytes per element.
        var size: Int { self == .float32 ? 4 : 1 }
    }

    /// Policy: the expanded input is at most this many times the output (about the stride's
    /// square: 4 at stride 2, plus what VALID windows leave out): a layer whose windows cover
    /// little of a large input (a big stride, or a filter spanning most of it) would copy far
    /// more than it computes, and keeps the reference kernels.
    static let maximumOutputMultiple = 16

    /// Whether `g` has a depth multiplier and the policy above expands its input.
    static func takes(_ g: ConvolutionGeometry) -> Bool {
        let product = { (factors: [Int]) in factors.reduce(1) { SharedMemoryBudget.bytes($0, $1) } }  // saturating
        let expanded = product([g.batches, g.inputHeight, g.inputWidth, g.outputDepth])
        let output = product([maximumOutputMultiple, g.batches, g.outputHeight, g.outputWidth, g.outputDepth])
        return g.depthMultiplier > 1 && expanded < Int.max && expanded <= output
    }

    /// The geometry the multiplier-1 plan of `g` runs on: `g` with the expanded input's depth.
    static func expandedGeometry(_ g: ConvolutionGeometry) -> ConvolutionGeometry {
        var expanded = g
        expanded.inputDepth = g.outputDepth
        return expanded
    }

    /// The expansion of `g`'s input of `element`s, its scratch requested in `node`'s.
    /// Precondition: `takes(g)`.
    init(_ g: ConvolutionGeometry, element: Element, node: NodeContext) throws {
        precondition(Self.takes(g), "depthwise expansion of a layer the policy does not take")
        geometry = g
        self.element = element
        let elements = g.batches * g.inputHeight * g.inputWidth * g.outputDepth
        scratch = try node.requestScratch(UInt32.self, count: (SharedMemoryBudget.bytes(elements, element.size) + 3) / 4,
                                          "the input with its channels repeated \(g.depthMultiplier) times")
    }

    /// Expands `o`'s input across `threads` and returns `o` reading the expansion instead.
    func expand(_ o: ConvolutionOperands, threads: ThreadPool) -> ConvolutionOperands {
        let g = geometry
        let (rows, pixelsPerRow) = (g.batches * g.inputHeight, g.inputWidth)
        let minChunk = WorkSplitPolicy.minChunk(work: WorkSplitPolicy.movedBytes,
                                                workPerUnit: pixelsPerRow * g.outputDepth * element.size)
        let destination = scratch.pointer
        if element.size == 1 {
            let bytes = element == .int8 ? UnsafeMutableRawPointer(o.input(Int8.self)) : UnsafeMutableRawPointer(o.input(UInt8.self))
            let (x, y) = (bytes.assumingMemoryBound(to: UInt8.self), UnsafeMutableRawPointer(destination).assumingMemoryBound(to: UInt8.self))
            threads.parallelFor(rows, minChunk: minChunk) { part in
                let first = part.lowerBound * pixelsPerRow
                DepthMultiplierExpansion.expand(x + first * g.inputDepth, channels: g.inputDepth, multiplier: g.depthMultiplier,
                                                pixels: part.count * pixelsPerRow, into: y + first * g.outputDepth)
            }
        } else {
            let x = UnsafeMutableRawPointer(o.input(Float.self)).assumingMemoryBound(to: UInt32.self)
            threads.parallelFor(rows, minChunk: minChunk) { part in
                let first = part.lowerBound * pixelsPerRow
                DepthMultiplierExpansion.expand(x + first * g.inputDepth, channels: g.inputDepth, multiplier: g.depthMultiplier,
                                                pixels: part.count * pixelsPerRow, into: destination + first * g.outputDepth)
            }
        }
        return o.reading(UnsafeMutableRawPointer(destination))
    }
}
