/// The hot region of a class activation map: where the evidence for a class lies.
struct ActivationRegion: Equatable {
    /// Bounding box, normalized to the map (0...1 across its width and height).
    var rect: ImageRect
    /// Fraction of the box's samples that belong to the region (1 for a filled rectangle).
    var fill: Float
    /// The map's raw maximum (before normalization).
    var peak: Float

    /// Finds the region of `map` (`height × width` cells, row-major).
    ///
    /// The map is sampled bilinearly on a `resolution × resolution` grid (cell `i`'s value sits
    /// at its centre, `(i + 0.5) / width`; beyond the outer centres the edge value holds),
    /// normalized to [0, 1] by its minimum and maximum, and the 4-connected samples at or above
    /// `threshold` that contain the maximum form the region.
    /// - Returns: nil when the map is flat (nothing stands out).
    init?(map: [Float], width: Int, height: Int, threshold: Float, resolution: Int = 56) {
        guard let grid = Self.normalizedGrid(map: map, width: width, height: height, resolution: resolution) else { return nil }
        let n = resolution
        let best = grid.indices.max { grid[$0] < grid[$1] || (grid[$0] == grid[$1] && $0 > $1) }!
        var inside = [Bool](repeating: false, count: n * n)
        var stack = [best]
        inside[best] = true
        var (minX, minY, maxX, maxY, count) = (n, n, -1, -1, 0)
        while let p = stack.popLast() {
            let x = p % n, y = p / n
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            count += 1
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let nx = x + dx, ny = y + dy
                guard nx >= 0, nx < n, ny >= 0, ny < n else { continue }
                let q = ny * n + nx
                if !inside[q] && grid[q] >= threshold { inside[q] = true; stack.append(q) }
            }
        }
        let w = maxX - minX + 1, h = maxY - minY + 1
        rect = ImageRect(x: Double(minX) / Double(n), y: Double(minY) / Double(n),
                         width: Double(w) / Double(n), height: Double(h) / Double(n))
        fill = Float(count) / Float(w * h)
        peak = map.max()!
    }

    /// `map` sampled bilinearly on a `resolution × resolution` grid (row-major; cell `i`'s value
    /// at its centre, the edge value beyond the outer centres) and normalized to [0, 1] by its
    /// minimum and maximum; nil when the map is flat.
    static func normalizedGrid(map: [Float], width: Int, height: Int, resolution: Int) -> [Float]? {
        precondition(map.count == width * height && width > 0 && height > 0 && resolution > 0)
        guard let lo = map.min(), let hi = map.max(), hi - lo > 1e-6 else { return nil }
        let n = resolution
        var grid = [Float](repeating: 0, count: n * n)
        func axis(_ i: Int, _ cells: Int) -> (Int, Int, Float) {
            let u = min(max((Float(i) + 0.5) / Float(n) * Float(cells) - 0.5, 0), Float(cells - 1))
            let i0 = Int(u), i1 = min(i0 + 1, cells - 1)
            return (i0, i1, u - Float(i0))
        }
        for y in 0..<n {
            let (y0, y1, fy) = axis(y, height)
            for x in 0..<n {
                let (x0, x1, fx) = axis(x, width)
                let top = map[y0 * width + x0] * (1 - fx) + map[y0 * width + x1] * fx
                let bottom = map[y1 * width + x0] * (1 - fx) + map[y1 * width + x1] * fx
                grid[y * n + x] = ((top * (1 - fy) + bottom * fy) - lo) / (hi - lo)
            }
        }
        return grid
    }
}
