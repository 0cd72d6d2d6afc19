extension Conv2DOptimized {
    /// The float convolution driver for plain SSE2 x86-64 builds: every tile of 6 output pixels
    /// first copies its input window into `SIMD4` broadcasts (step-major, 6 per step), so the
    /// 6 × 8 kernel multiplies by aligned in-memory broadcasts instead of shuffling a scalar
    /// into every lane for every weight panel. Shuffles share the execution ports of the
    /// multiplies and adds (SSE2 has no FMA and no broadcast load); this leaves the ports to them.
    /// Worth it from 5 panels on (each broadcast is reused by every panel), or for very shallow
    /// layers (see `Conv2DOptimized.float`).
    ///
    /// `workspace` has `floatBroadcast6x8WorkspaceBytes(_:)` bytes for this call alone (the
    /// calling thread's, see ``KernelWorkspace``; every tile rewrites all it reads), or is nil:
    /// the call then takes a temporary of its own.
    static func floatBroadcast6x8(_ g: ConvolutionGeometry, activationMin: Float, activationMax: Float,
                                  input: UnsafePointer<Float>, packedFilter: UnsafePointer<Float>,
                                  bias: UnsafePointer<Float>?, zeros: UnsafePointer<Float>,
                                  output: UnsafeMutablePointer<Float>, tiles: Range<Int>,
                                  workspace: KernelWorkspace?) {
        let pixels = g.batches * g.outputHeight * g.outputWidth
        guard pixels > 0, g.inputDepth > 0, !tiles.isEmpty else { return }
        KernelWorkspace.using(workspace, orTemporary: floatBroadcast6x8WorkspaceBytes(g)) { workspace in
            broadcastTiles6x8(g, activationMin: activationMin, activationMax: activationMax, input: input,
                              packedFilter: packedFilter, bias: bias, zeros: zeros, output: output, tiles: tiles,
                              broadcasts: workspace.take(SIMD4<Float>.self, count: floatBroadcast6x8BroadcastCount(g)))
        }
    }

    /// `SIMD4<Float>` values `floatBroadcast6x8` broadcasts one tile of `g` into: 6 per
    /// multiply step (`filterHeight × filterWidth × inputDepth` steps).
    static func floatBroadcast6x8BroadcastCount(_ g: ConvolutionGeometry) -> Int {
        g.filterHeight * g.filterWidth * g.inputDepth * FloatConvKernel6x8.rows
    }

    /// Bytes of workspace a `floatBroadcast6x8` call on `g` takes: one tile's broadcasts.
    static func floatBroadcast6x8WorkspaceBytes(_ g: ConvolutionGeometry) -> Int {
        KernelWorkspace.bytes(SIMD4<Float>.self, count: floatBroadcast6x8BroadcastCount(g))
    }

    /// The tile loop of `floatBroadcast6x8` on `broadcasts` (its workspace, every value of it
    /// written by each tile before the kernel reads it).
    @inline(__always)
    private static func broadcastTiles6x8(_ g: ConvolutionGeometry, activationMin: Float, activationMax: Float,
                                          input: UnsafePointer<Float>, packedFilter: UnsafePointer<Float>,
                                          bias: UnsafePointer<Float>?, zeros: UnsafePointer<Float>,
                                          output: UnsafeMutablePointer<Float>, tiles: Range<Int>,
                                          broadcasts: UnsafeMutablePointer<SIMD4<Float>>) {
        let mr = 6, nr = 8
        let pixels = g.batches * g.outputHeight * g.outputWidth
        let cin = g.inputDepth, cout = g.outputDepth
        let taps = g.filterHeight * g.filterWidth
        let depth = taps * cin
        let panels = (cout + nr - 1) / nr
        for tile in tiles {
            let first = tile * mr
            let count = min(mr, pixels - first)
            var cursor = OutputPixelCursor(pixel: first, g)
            for r in 0..<mr {
                // Rows past the output repeat the last pixel; they are computed, not stored.
                if r > 0 && r < count { cursor.advance() }
                let y0 = cursor.row * g.strideHeight - g.padTop, x0 = cursor.column * g.strideWidth - g.padLeft
                let batchBase = input + cursor.batch * g.inputHeight * g.inputWidth * cin
                var dst = broadcasts + r
                for fy in 0..<g.filterHeight {
                    let iy = y0 + fy * g.dilationHeight
                    let rowInside = iy >= 0 && iy < g.inputHeight
                    for fx in 0..<g.filterWidth {
                        let ix = x0 + fx * g.dilationWidth
                        let run = rowInside && ix >= 0 && ix < g.inputWidth
                            ? batchBase + (iy * g.inputWidth + ix) * cin : zeros
                        for ic in 0..<cin {
                            dst.pointee = SIMD4(repeating: run[ic])
                            dst += mr
                        }
                    }
                }
            }
            let out = output + first * cout
            for panel in 0..<panels {
                let n0 = panel * nr
                let epilogue = FloatConvEpilogue(bias: bias.map { $0 + n0 }, lanes: min(nr, cout - n0),
                                                 activationMin: activationMin, activationMax: activationMax)
                FloatConvKernel6x8.tile(broadcasts: broadcasts, depth: depth, weights: packedFilter + panel * depth * nr,
                                        epilogue: epilogue, output: out + n0, rowStride: cout, count: count)
            }
        }
    }
}
