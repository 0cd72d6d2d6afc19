/// Measures how the camera moved between consecutive frames: the translation that best aligns
/// a downscaled luminance grid of the previous frame with the current one.
///
/// Each frame is reduced to a grid of cell means (about ``gridWidth`` cells across, each cell
/// sampled on at most 4×4 points), cells inside the given object boxes are left out (moving
/// objects must not drag the estimate), and the shift is searched coarse to fine: a 2×2-pooled
/// grid over ±``maximumShift`` of the width, then the full grid ±2 cells around it, then a
/// parabola through the neighbouring sums of squared differences for sub-cell precision.
/// When no shift aligns clearly better than none (a flat or still scene) the result is no motion.
///
/// - Complexity: O(W·H / cell²) to build the grid (a few thousand samples for VGA) plus
///   O(cells · shifts) for the search; well under a millisecond for a 640×480 frame.
public struct GlobalMotionEstimator: Sendable {
    /// Cells across the grid (the cell side is `frame width / gridWidth` pixels, at least 1).
    public let gridWidth: Int
    /// Largest motion searched per frame, as a fraction of the frame width.
    public let maximumShift: Double
    private var previous: Grid?

    /// Luminance cell means and which cells are left out.
    struct Grid: Sendable {
        var width: Int
        var height: Int
        /// Cell side in pixels.
        var cell: Int
        var values: [Float]
        var excluded: [Bool]
    }

    /// An estimator with `gridWidth` cells across (clamped to 8...320) and a search range of
    /// `maximumShift` × frame width per frame (clamped to 0.01...0.5).
    public init(gridWidth: Int = 80, maximumShift: Double = 0.1) {
        self.gridWidth = min(320, max(8, gridWidth))
        self.maximumShift = maximumShift.isFinite ? min(0.5, max(0.01, maximumShift)) : 0.1
    }

    /// Forgets the previous frame (start of a new stream).
    public mutating func reset() { previous = nil }

    /// The camera motion from the previous frame to this one (nil for the first frame, after a
    /// change of frame size, or when the buffer does not hold the stated geometry).
    ///
    /// - Parameters:
    ///   - pixels: interleaved 8-bit samples, `bytesPerRow` per row; `channels` 1 (gray), 3 (RGB)
    ///     or 4 (RGBA/BGRA: the first three are used).
    ///   - excluding: boxes of independently moving objects in this frame, left out of the match.
    public mutating func estimate(pixels: [UInt8], width: Int, height: Int, bytesPerRow: Int, channels: Int,
                                  excluding boxes: [BoundingBox] = []) -> CameraMotion? {
        guard let grid = Self.grid(pixels: pixels, width: width, height: height, bytesPerRow: bytesPerRow,
                                   channels: channels, gridWidth: gridWidth, excluding: boxes) else {
            previous = nil
            return nil
        }
        defer { previous = grid }
        guard let before = previous, before.width == grid.width, before.height == grid.height,
              before.cell == grid.cell else { return nil }
        guard let shift = Self.align(before, grid, maximumShift: maximumShift) else { return .identity }
        return .translation(dx: shift.x * Double(grid.cell), dy: shift.y * Double(grid.cell))
    }

    /// The grid of a frame, or nil when the geometry is invalid or too small for a grid.
    static func grid(pixels: [UInt8], width: Int, height: Int, bytesPerRow: Int, channels: Int, gridWidth: Int,
                     excluding boxes: [BoundingBox]) -> Grid? {
        guard width > 0, height > 0, (1...4).contains(channels), channels != 2,
              width <= pixels.count, height <= pixels.count, bytesPerRow >= width * channels,
              bytesPerRow <= pixels.count else { return nil }
        let (rows, overflow) = (height - 1).multipliedReportingOverflow(by: bytesPerRow)
        guard !overflow, rows <= pixels.count - width * channels else { return nil }
        let cell = max(1, width / gridWidth)
        let gw = width / cell, gh = height / cell
        guard gw >= 8, gh >= 8 else { return nil }
        let step = max(1, cell / 4)
        var values = [Float](repeating: 0, count: gw * gh)
        for gy in 0..<gh {
            for gx in 0..<gw {
                var sum = 0, count = 0
                var y = gy * cell
                while y < (gy + 1) * cell {
                    var p = y * bytesPerRow + gx * cell * channels
                    var x = 0
                    while x < cell {
                        if channels >= 3 {
                            sum += (77 * Int(pixels[p]) + 150 * Int(pixels[p + 1]) + 29 * Int(pixels[p + 2])) >> 8
                        } else {
                            sum += Int(pixels[p])
                        }
                        count += 1
                        x += step
                        p += step * channels
                    }
                    y += step
                }
                values[gy * gw + gx] = Float(sum) / Float(count)
            }
        }
        var excluded = [Bool](repeating: false, count: gw * gh)
        for box in boxes where box.isValid {
            let x0 = max(0, Int((box.x / Double(cell)).rounded(.down)))
            let y0 = max(0, Int((box.y / Double(cell)).rounded(.down)))
            let x1 = min(gw, Int((box.maxX / Double(cell)).rounded(.up)))
            let y1 = min(gh, Int((box.maxY / Double(cell)).rounded(.up)))
            guard x1 > x0, y1 > y0 else { continue }
            for gy in y0..<y1 { for gx in x0..<x1 { excluded[gy * gw + gx] = true } }
        }
        return Grid(width: gw, height: gh, cell: cell, values: values, excluded: excluded)
    }

    /// The sub-cell shift (in cells of `current`) that moves `before` onto `current`, or nil
    /// when no shift is clearly better than none.
    static func align(_ before: Grid, _ current: Grid, maximumShift: Double) -> (x: Double, y: Double)? {
        let coarseBefore = pooled(before), coarseCurrent = pooled(current)
        let range = max(1, Int((maximumShift * Double(coarseCurrent.width)).rounded(.up)))
        var best = (x: 0, y: 0, cost: Float.infinity)
        for sy in -range...range {
            for sx in -range...range {
                let cost = meanSquaredDifference(coarseBefore, coarseCurrent, sx, sy)
                if cost < best.cost { best = (sx, sy, cost) }
            }
        }
        var fine = (x: 0, y: 0, cost: Float.infinity)
        for sy in (2 * best.y - 2)...(2 * best.y + 2) {
            for sx in (2 * best.x - 2)...(2 * best.x + 2) {
                let cost = meanSquaredDifference(before, current, sx, sy)
                if cost < fine.cost { fine = (sx, sy, cost) }
            }
        }
        let still = meanSquaredDifference(before, current, 0, 0)
        guard fine.cost.isFinite, (fine.x != 0 || fine.y != 0), fine.cost < 0.9 * still else { return nil }
        func refine(_ minus: Float, _ center: Float, _ plus: Float) -> Double {
            let curvature = minus - 2 * center + plus
            guard minus.isFinite, plus.isFinite, curvature > 0 else { return 0 }
            return Double(min(0.5, max(-0.5, (minus - plus) / (2 * curvature))))
        }
        let dx = refine(meanSquaredDifference(before, current, fine.x - 1, fine.y), fine.cost,
                        meanSquaredDifference(before, current, fine.x + 1, fine.y))
        let dy = refine(meanSquaredDifference(before, current, fine.x, fine.y - 1), fine.cost,
                        meanSquaredDifference(before, current, fine.x, fine.y + 1))
        return (Double(fine.x) + dx, Double(fine.y) + dy)
    }

    /// Mean squared difference between `current` at `(x + sx, y + sy)` and `before` at `(x, y)`
    /// over the cells both include; infinity when under a quarter of the cells overlap.
    static func meanSquaredDifference(_ before: Grid, _ current: Grid, _ sx: Int, _ sy: Int) -> Float {
        let w = current.width, h = current.height
        guard abs(sx) < w, abs(sy) < h else { return .infinity }
        var sum: Float = 0
        var count = 0
        for y in max(0, -sy)..<min(h, h - sy) {
            let rowBefore = y * w, rowCurrent = (y + sy) * w + sx
            for x in max(0, -sx)..<min(w, w - sx) where !before.excluded[rowBefore + x] && !current.excluded[rowCurrent + x] {
                let d = current.values[rowCurrent + x] - before.values[rowBefore + x]
                sum = d * d + sum
                count += 1
            }
        }
        return count * 4 >= w * h ? sum / Float(count) : .infinity
    }

    /// The grid at half resolution (2×2 means; a cell is left out when any of its four is).
    static func pooled(_ grid: Grid) -> Grid {
        let w = grid.width / 2, h = grid.height / 2
        var values = [Float](repeating: 0, count: w * h), excluded = [Bool](repeating: false, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let i = 2 * y * grid.width + 2 * x, j = i + grid.width
                values[y * w + x] = (grid.values[i] + grid.values[i + 1] + grid.values[j] + grid.values[j + 1]) / 4
                excluded[y * w + x] = grid.excluded[i] || grid.excluded[i + 1] || grid.excluded[j] || grid.excluded[j + 1]
            }
        }
        return Grid(width: w, height: h, cell: grid.cell * 2, values: values, excluded: excluded)
    }
}
