import MachineCode

/// The two entry paths the generated float tiles share (`FloatConv6x16AVX`,
/// `FloatConv8x32AVX512`), around each tile's own multiply step and epilogue:
/// - one tile: the tap loop over the pointer table at `runs` (a pointer per pixel and tap),
///   then the epilogue of rows `0 ..< count`;
/// - with `pointwiseTiles > 0`: that many whole 1 × 1 tiles, pixel `r` of a tile at
///   `runs + r · depthBytes`, the epilogue of every row, then `runs`, `output`, the residual
///   pointer and `pointwiseTiles` written back to the argument block for the next tile.
/// The argument block is `GeneratedFloatTileArguments`, in `rdi`.
enum GeneratedFloatTileBody {
    /// The general registers the paths use. `end` holds the run length in bytes (`depthBytes`),
    /// `offset` the step's offset into the runs; `output` and `residual` are the epilogue's
    /// cursors (written back after a pointwise tile).
    struct Registers {
        var runs, taps, end, weights, offset, output, residual: GeneralRegister
        var pixels: [GeneralRegister]
    }

    /// Emits both paths inside a function whose exit is `done`: `zero` clears the
    /// accumulators, `step` adds one 32-bit step of every pixel's run (weights at
    /// `registers.weights`, advanced `weightBytes` per step), `epilogue` finishes the tile
    /// (checking `count` and leaving through its label when asked, else storing every row).
    static func emit(_ a: inout Assembler, _ r: Registers, weightBytes: Int32, done: Assembler.Label,
                     zero: (inout Assembler) -> Void, step: (inout Assembler) -> Void,
                     epilogue: (inout Assembler, _ checksCount: Bool, _ exit: Assembler.Label) -> Void) {
        typealias Field = GeneratedFloatTileArguments.Field
        let args = GeneralRegister.rdi
        a.mov(r.end, .mem(args, disp: Field.depthBytes))
        let pointwise = a.newLabel()
        a.mov(r.taps, .mem(args, disp: Field.pointwiseTiles))
        a.test(r.taps, r.taps)
        a.j(.notEqual, pointwise)

        // One tile: the tap loop over the pointer table.
        a.mov(r.runs, .mem(args, disp: Field.runs))
        a.mov(r.taps, .mem(args, disp: Field.taps))
        a.mov(r.weights, .mem(args, disp: Field.weights))
        zero(&a)
        let tap = a.newLabel(), steps = a.newLabel()
        a.bind(tap)
        for (row, p) in r.pixels.enumerated() { a.mov(p, .mem(r.runs, disp: Int32(8 * row))) }
        a.xor(r.offset, r.offset, width: .dword)
        a.bind(steps)
        step(&a)
        a.closeTapLoops(weights: r.weights, weightBytes: weightBytes, offset: r.offset, end: r.end, step: steps,
                        table: r.runs, tableBytes: Int32(8 * r.pixels.count), taps: r.taps, tap: tap)
        epilogue(&a, true, done)
        a.jmp(done)

        // Whole 1 × 1 tiles: pixel r of a tile at runs + r · depthBytes.
        a.bind(pointwise)
        let tile = a.newLabel(), pointwiseSteps = a.newLabel()
        a.bind(tile)
        a.mov(r.pixels[0], .mem(args, disp: Field.runs))
        for row in 1..<r.pixels.count {
            a.mov(r.pixels[row], r.pixels[row - 1])
            a.add(r.pixels[row], r.end)
        }
        a.mov(r.offset, r.pixels[r.pixels.count - 1])
        a.add(r.offset, r.end)
        a.mov(.mem(args, disp: Field.runs), r.offset)
        a.mov(r.weights, .mem(args, disp: Field.weights))
        zero(&a)
        a.xor(r.offset, r.offset, width: .dword)
        a.bind(pointwiseSteps)
        step(&a)
        a.closeDepthLoop(weights: r.weights, weightBytes: weightBytes, offset: r.offset, end: r.end, step: pointwiseSteps)
        epilogue(&a, false, done)
        a.mov(.mem(args, disp: Field.output), r.output)
        a.mov(.mem(args, disp: Field.residual), r.residual)
        a.mov(r.end, .mem(args, disp: Field.depthBytes))
        a.mov(r.taps, .mem(args, disp: Field.pointwiseTiles))
        a.dec(r.taps)
        a.mov(.mem(args, disp: Field.pointwiseTiles), r.taps)
        a.j(.notEqual, tile)
    }
}
