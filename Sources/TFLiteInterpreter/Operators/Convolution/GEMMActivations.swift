import TFLiteKernels

/// Where a packed GEMM reads its input: the layer's pixels, or (layers with few input channels)
/// gathered patch rows (`QuantizedConvPatches`), with the geometry the GEMM then runs on.
struct GEMMLayout {
    /// Whether the GEMM reads gathered patch rows instead of the input pixels.
    let patches: Bool
    /// The geometry the GEMM runs on: the layer's, or its patch form.
    let geometry: ConvolutionGeometry

    /// The layout the integer GEMM uses for layer `g`.
    init(_ g: ConvolutionGeometry) {
        patches = QuantizedConvPatches.prefersPatches(g)
        geometry = patches ? QuantizedConvPatches.patchGeometry(g) : g
    }

    /// What the weight packings read of the geometry, for the packed-weight cache's keys:
    /// output depth × taps × input depth of the GEMM.
    var packedShape: String {
        "\(geometry.outputDepth)x\(geometry.filterHeight * geometry.filterWidth)x\(geometry.inputDepth)"
    }

    /// Pixels of the GEMM's input (all batches, patch rows in patch form).
    var pixels: Int { geometry.batches * geometry.inputHeight * geometry.inputWidth }

    /// Elements of an activation buffer of this layout whose pixels hold `stride` values, the
    /// trailing padding pixel included (`Int16PairPacking.activationCount`,
    /// `Int8QuadPacking.activationCount`), saturating at `Int.max` for untrusted shapes (a patch
    /// buffer is output pixels × taps × input depth), which scratch requests then reject.
    func activationCount(stride: Int) -> Int { SharedMemoryBudget.bytes(pixels &+ 1, stride) }

    /// Whether each GEMM tile reads only the activation rows of its own pixels: patch rows, or a
    /// layer whose output pixel `p` reads input pixel `p` alone (`QuantizedGEMM.readsOwnPixelsOnly`).
    var tilesReadOwnRows: Bool { patches || QuantizedGEMM.readsOwnPixelsOnly(geometry) }

    /// Fills the GEMM's activation rows with `convert(batch, pixels)` (pixels of one image, rows
    /// `batch · rows + pixels` of the buffer) and runs `gemm` on every tile, split over `threads`.
    /// When ``tilesReadOwnRows``, in one split: each chunk converts its own tiles' rows, then runs
    /// those tiles on them while they are in its core's cache. Otherwise a tile's taps reach rows
    /// of other tiles: all rows are converted in a first split, the tiles run in a second.
    /// `convert` and `gemm` must only write memory of their own pixels and tiles; `gemm` gets the
    /// running thread's block of `workspace` for its kernel (``ThreadWorkspaceSlot``).
    func convertAndRun(threads: ThreadPool, workspace: ThreadWorkspaceSlot,
                       convert: (_ batch: Int, _ pixels: Range<Int>) -> Void,
                       gemm: (_ tiles: Range<Int>, _ workspace: KernelWorkspace) -> Void) {
        let g = geometry
        let rows = g.inputHeight * g.inputWidth
        let tiles = QuantizedGEMM.tileCount(g)
        guard tilesReadOwnRows else {
            for batch in 0..<g.batches {
                threads.parallelFor(rows, minChunk: WorkSplitPolicy.activationPackingMinChunk(depth: g.inputDepth)) { part in
                    convert(batch, part)
                }
            }
            threads.parallelFor(tiles, minChunk: WorkSplitPolicy.integerGEMMMinChunk(g)) { part, worker in
                gemm(part, workspace.workspace(worker))
            }
            return
        }
        // Here the GEMM's pixels are its input rows, `rows` per image.
        let pixels = g.batches * rows
        threads.parallelFor(tiles, minChunk: WorkSplitPolicy.integerGEMMMinChunk(g)) { part, worker in
            let first = part.lowerBound * QuantizedGEMM.tilePixels
            let end = min(pixels, part.upperBound * QuantizedGEMM.tilePixels)
            var pixel = first
            while pixel < end {
                let batch = pixel / rows, imageEnd = min(end, (batch + 1) * rows)
                convert(batch, (pixel - batch * rows)..<(imageEnd - batch * rows))
                pixel = imageEnd
            }
            gemm(part, workspace.workspace(worker))
        }
    }

    /// Zeroes the trailing padding pixel of the int16-pair activation buffer at `base`
    /// (`Int16PairPacking.activationCount(pixels:depth:)` elements), which padding taps read. The
    /// buffer is arena scratch that other nodes overwrite between invokes: every invoke calls this.
    func zeroPairedPaddingPixel(_ base: UnsafeMutablePointer<Int16>) {
        let stride = Int16PairPacking.pairedDepth(geometry.inputDepth)
        (base + pixels * stride).update(repeating: 0, count: stride)
    }
}
