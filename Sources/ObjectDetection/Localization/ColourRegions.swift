import Foundation

/// An image split into regions of similar colour: evidence from the pixels themselves, used to
/// snap the coarse boxes of class activation maps to the object they point at
/// (``snappedBox(_:minimumInside:minimumArea:maximumArea:)``).
///
/// Built in two steps on a copy of the image reduced to at most ``Settings/longestSide`` pixels
/// (area averaging) and smoothed with a Gaussian (σ = ``Settings/sigma``):
/// 1. graph-based segmentation (Felzenszwalb & Huttenlocher, IJCV 2004): pixels are nodes,
///    8-neighbours are joined by edges weighted by their RGB distance; edges are taken from the
///    lightest, and two components merge when the edge is no heavier than either component's
///    largest inner edge plus `k / size` (``Settings/k``); components under
///    ``Settings/minimumSize`` pixels are then merged into a neighbour;
/// 2. region merging: neighbouring components whose mean colours lie closer than
///    ``Settings/mergeDistance`` are one region (transitively, so a smooth gradient such as a
///    sky at dusk, cut into bands by step 1, becomes one region, while an object that stands out
///    from its surroundings keeps its own).
///
/// Deterministic: ties between equal edge weights are broken by edge order.
struct ColourRegions {
    /// Tunables (defaults measured on the sample photos).
    struct Settings {
        /// Longest side of the reduced image the regions are computed on.
        var longestSide = 320
        /// Gaussian smoothing before segmentation, in reduced-image pixels.
        var sigma: Float = 0.8
        /// Scale of the graph segmentation (larger: larger components).
        var k: Float = 300
        /// Components smaller than this (reduced-image pixels) join a neighbour.
        var minimumSize = 20
        /// RGB distance (0–255 per channel) under which neighbouring components' mean colours
        /// make them one region.
        var mergeDistance: Float = 25
    }

    /// Reduced-image size.
    let width: Int, height: Int
    /// Reduced-image pixels per original pixel (≤ 1).
    let scale: Double
    /// Region index of each reduced-image pixel, row-major, `0..<regionCount`.
    let labels: [Int32]
    /// Number of regions.
    let regionCount: Int

    /// Segments `image` (see the type's description).
    init(_ image: RGBImage, settings: Settings = Settings()) {
        let s = min(1, Double(settings.longestSide) / Double(max(image.width, image.height)))
        let w = max(1, Int((Double(image.width) * s).rounded())), h = max(1, Int((Double(image.height) * s).rounded()))
        width = w
        height = h
        scale = s
        let colours = Self.smoothed(Self.reduced(image, width: w, height: h), width: w, height: h, sigma: settings.sigma)
        let components = Self.graphSegments(colours, width: w, height: h, k: settings.k, minimumSize: settings.minimumSize)
        (labels, regionCount) = Self.merged(components, colours: colours, width: w, height: h, distance: settings.mergeDistance)
    }

    /// The box of the regions `box` (original-image pixels) holds: the union of the bounding
    /// boxes of the regions with at least `minimumInside` of their pixels inside `box` and
    /// between `minimumArea` and `maximumArea` of the image's pixels, in original-image pixels.
    /// A region that only passes through the box, or covers much of the image (the background
    /// around an object: sky, table, wall) is left out; the object's own region is kept whole,
    /// also where it reaches beyond the box.
    /// - Returns: the box, its fill (the fraction of its pixels that belong to the regions
    ///   taken) and `box`'s fill (the fraction of `box`'s pixels that do), or nil when no
    ///   region qualifies.
    func snappedBox(_ box: ImageRect, minimumInside: Double, minimumArea: Double,
                    maximumArea: Double) -> (rect: ImageRect, fill: Float, boxFill: Float)? {
        let x0 = max(0, Int(box.x * scale)), y0 = max(0, Int(box.y * scale))
        let x1 = min(width, Int((box.maxX * scale).rounded(.up))), y1 = min(height, Int((box.maxY * scale).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return nil }
        var total = [Int](repeating: 0, count: regionCount), inside = total
        var minX = [Int](repeating: width, count: regionCount), minY = [Int](repeating: height, count: regionCount)
        var maxX = [Int](repeating: -1, count: regionCount), maxY = maxX
        for y in 0..<height {
            for x in 0..<width {
                let r = Int(labels[y * width + x])
                total[r] += 1
                if x >= x0 && x < x1 && y >= y0 && y < y1 { inside[r] += 1 }
                minX[r] = min(minX[r], x); maxX[r] = max(maxX[r], x)
                minY[r] = min(minY[r], y); maxY[r] = max(maxY[r], y)
            }
        }
        let smallest = minimumArea * Double(width * height), largest = maximumArea * Double(width * height)
        var bounds: (Int, Int, Int, Int)?, covered = 0, coveredInside = 0
        for r in 0..<regionCount where Double(total[r]) >= smallest && Double(total[r]) <= largest
            && Double(inside[r]) >= minimumInside * Double(total[r]) {
            let b = bounds ?? (minX[r], minY[r], maxX[r], maxY[r])
            bounds = (min(b.0, minX[r]), min(b.1, minY[r]), max(b.2, maxX[r]), max(b.3, maxY[r]))
            covered += total[r]
            coveredInside += inside[r]
        }
        guard let (bx0, by0, bx1, by1) = bounds else { return nil }
        let rect = ImageRect(x: Double(bx0) / scale, y: Double(by0) / scale,
                             width: Double(bx1 + 1 - bx0) / scale, height: Double(by1 + 1 - by0) / scale)
        return (rect, Float(covered) / Float((bx1 + 1 - bx0) * (by1 + 1 - by0)),
                Float(coveredInside) / Float((x1 - x0) * (y1 - y0)))
    }

    /// `image` reduced to `width × height` by area averaging (each reduced pixel the mean of
    /// the original pixels whose centres fall in it), as floats, RGB interleaved.
    static func reduced(_ image: RGBImage, width w: Int, height h: Int) -> [Float] {
        var sum = [Float](repeating: 0, count: w * h * 3), count = [Float](repeating: 0, count: w * h)
        image.pixels.withUnsafeBufferPointer { p in
            for y in 0..<image.height {
                let ry = min(h - 1, y * h / image.height)
                for x in 0..<image.width {
                    let r = ry * w + min(w - 1, x * w / image.width), i = (y * image.width + x) * 3
                    sum[r * 3] += Float(p[i]); sum[r * 3 + 1] += Float(p[i + 1]); sum[r * 3 + 2] += Float(p[i + 2])
                    count[r] += 1
                }
            }
        }
        for r in 0..<(w * h) where count[r] > 0 { for c in 0..<3 { sum[r * 3 + c] /= count[r] } }
        return sum
    }

    /// Separable Gaussian smoothing (radius ⌈3σ⌉, edges clamped) of interleaved RGB floats.
    static func smoothed(_ colours: [Float], width w: Int, height h: Int, sigma: Float) -> [Float] {
        guard sigma > 0 else { return colours }
        let radius = Int((3 * sigma).rounded(.up))
        var kernel = (-radius...radius).map { d in expf(-Float(d * d) / (2 * sigma * sigma)) }
        let total = kernel.reduce(0, +)
        kernel = kernel.map { $0 / total }
        var across = [Float](repeating: 0, count: colours.count), result = across
        for y in 0..<h {
            for x in 0..<w {
                for (j, kv) in kernel.enumerated() {
                    let q = (y * w + min(w - 1, max(0, x + j - radius))) * 3, p = (y * w + x) * 3
                    for c in 0..<3 { across[p + c] += kv * colours[q + c] }
                }
            }
        }
        for y in 0..<h {
            for x in 0..<w {
                for (j, kv) in kernel.enumerated() {
                    let q = (min(h - 1, max(0, y + j - radius)) * w + x) * 3, p = (y * w + x) * 3
                    for c in 0..<3 { result[p + c] += kv * across[q + c] }
                }
            }
        }
        return result
    }

    /// Step 1: graph-based segmentation; the root pixel of each pixel's component.
    static func graphSegments(_ colours: [Float], width w: Int, height h: Int, k: Float, minimumSize: Int) -> [Int] {
        func distance(_ p: Int, _ q: Int) -> Float {
            let dr = colours[p * 3] - colours[q * 3], dg = colours[p * 3 + 1] - colours[q * 3 + 1]
            let db = colours[p * 3 + 2] - colours[q * 3 + 2]
            return (dr * dr + dg * dg + db * db).squareRoot()
        }
        // Edges as sort keys: the weight's bits (a non-negative float's bits order as the float
        // does) above the edge — its direction (bits 30–31) and first pixel p (bits 0–29), the
        // other pixel being p + the direction's offset. Keys are made direction by direction,
        // row by row, so their low words ascend: equal weights keep edge order, and a stable
        // sort by the weight bits sorts them. (No edge list: looking ends up in one, in sorted
        // order, missed the cache on every edge.)
        precondition(w * h < 1 << 30, "ColourRegions: \(w)×\(h) pixels do not fit the edge keys")
        let directions = [(1, 0), (0, 1), (1, 1), (-1, 1)]
        let offsets = directions.map { $0.1 * w + $0.0 }
        var keys: [UInt64] = []
        keys.reserveCapacity(w * h * 4)
        for (d, (dx, dy)) in directions.enumerated() {
            for y in 0..<(h - dy) {
                for x in max(0, -dx)..<(w - max(0, dx)) {
                    let p = y * w + x, q = p + offsets[d]
                    keys.append(UInt64(distance(p, q).bitPattern) << 32 | UInt64(d) << 30 | UInt64(p))
                }
            }
        }
        HighWordRadixSort.sort(&keys)
        func ends(_ key: UInt64) -> (p: Int, q: Int) {
            let p = Int(truncatingIfNeeded: key & 0x3FFF_FFFF)
            return (p, p + offsets[Int(truncatingIfNeeded: key >> 30) & 3])
        }
        var sets = DisjointSets(count: w * h)
        var threshold = [Float](repeating: k, count: w * h)
        for key in keys {
            let weight = Float(bitPattern: UInt32(key >> 32)), (p, q) = ends(key)
            let a = sets.find(p), b = sets.find(q)
            guard a != b, weight <= threshold[a], weight <= threshold[b] else { continue }
            let root = sets.union(a, b)
            threshold[root] = weight + k / Float(sets.size(of: root))
        }
        for key in keys {
            let (p, q) = ends(key)
            let a = sets.find(p), b = sets.find(q)
            if a != b && (sets.size(of: a) < minimumSize || sets.size(of: b) < minimumSize) { _ = sets.union(a, b) }
        }
        return (0..<(w * h)).map { sets.find($0) }
    }

    /// Step 2: components (root per pixel) whose 4-neighbouring mean colours lie closer than
    /// `distance` joined transitively; region index per pixel and the number of regions.
    static func merged(_ components: [Int], colours: [Float], width w: Int, height h: Int,
                       distance: Float) -> ([Int32], Int) {
        var index = [Int](repeating: -1, count: components.count), n = 0
        let dense = components.map { root -> Int in
            if index[root] < 0 { index[root] = n; n += 1 }
            return index[root]
        }
        var mean = [Float](repeating: 0, count: n * 3), count = [Float](repeating: 0, count: n)
        for (p, c) in dense.enumerated() {
            for ch in 0..<3 { mean[c * 3 + ch] += colours[p * 3 + ch] }
            count[c] += 1
        }
        for c in 0..<n { for ch in 0..<3 { mean[c * 3 + ch] /= count[c] } }
        var sets = DisjointSets(count: n)
        func visit(_ a: Int, _ b: Int) {
            guard a != b else { return }
            var d: Float = 0
            for ch in 0..<3 { let v = mean[a * 3 + ch] - mean[b * 3 + ch]; d += v * v }
            if d.squareRoot() < distance { _ = sets.union(sets.find(a), sets.find(b)) }
        }
        for y in 0..<h {
            for x in 0..<w {
                if x + 1 < w { visit(dense[y * w + x], dense[y * w + x + 1]) }
                if y + 1 < h { visit(dense[y * w + x], dense[(y + 1) * w + x]) }
            }
        }
        var regionOf = [Int32](repeating: -1, count: n), regions: Int32 = 0
        let labels = dense.map { c -> Int32 in
            let root = sets.find(c)
            if regionOf[root] < 0 { regionOf[root] = regions; regions += 1 }
            return regionOf[root]
        }
        return (labels, Int(regions))
    }
}
