/// A connected region of a foreground mask.
public struct MaskRegion: Sendable, Equatable {
    /// Bounding box in mask cells: x, y, width, height.
    public var minX: Int, minY: Int, maxX: Int, maxY: Int
    /// Number of cells.
    public var area: Int
    /// Mean foreground probability of its cells.
    public var meanConfidence: Float
    /// Most frequent class among its cells.
    public var dominantClass: Int
}

/// Finds 8-connected regions of the cells whose class is not `background` in an
/// `height × width` argmax map, dropping regions smaller than `minArea` cells.
/// - Complexity: O(width × height).
public func connectedRegions(classMap: [Int32], confidence: [Float], width: Int, height: Int,
                             background: Int32 = 0, minArea: Int = 1) -> [MaskRegion] {
    precondition(classMap.count == width * height && confidence.count == width * height)
    var label = [Int32](repeating: -1, count: width * height)
    var regions: [MaskRegion] = []
    var stack: [Int] = []
    var classCounts: [Int32: Int] = [:]
    for start in 0..<(width * height) where classMap[start] != background && label[start] < 0 {
        let id = Int32(regions.count)
        var region = MaskRegion(minX: width, minY: height, maxX: -1, maxY: -1, area: 0, meanConfidence: 0, dominantClass: 0)
        var confidenceSum: Float = 0
        classCounts.removeAll(keepingCapacity: true)
        label[start] = id
        stack.append(start)
        while let p = stack.popLast() {
            let x = p % width, y = p / width
            region.minX = min(region.minX, x); region.maxX = max(region.maxX, x)
            region.minY = min(region.minY, y); region.maxY = max(region.maxY, y)
            region.area += 1
            confidenceSum += confidence[p]
            classCounts[classMap[p], default: 0] += 1
            for dy in -1...1 {
                let ny = y + dy
                guard ny >= 0, ny < height else { continue }
                for dx in -1...1 {
                    let nx = x + dx
                    guard nx >= 0, nx < width else { continue }
                    let q = ny * width + nx
                    if classMap[q] != background && label[q] < 0 { label[q] = id; stack.append(q) }
                }
            }
        }
        region.meanConfidence = confidenceSum / Float(region.area)
        region.dominantClass = Int(classCounts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }!.key)
        regions.append(region)
    }
    return regions.filter { $0.area >= minArea }
}

extension MaskRegion {
    /// Prominence (see ``prominence(areaFraction:centerX:centerY:confidence:)``) of the
    /// region's cells, centred on its bounding box, at its mean confidence.
    func prominence(width: Int, height: Int) -> Float {
        ObjectDetection.prominence(areaFraction: Float(area) / Float(width * height),
                                   centerX: Float(minX + maxX + 1) / 2 / Float(width),
                                   centerY: Float(minY + maxY + 1) / 2 / Float(height), confidence: meanConfidence)
    }

    /// The region's bounding box normalized to the mask.
    func normalizedRect(width: Int, height: Int) -> ImageRect {
        ImageRect(x: Double(minX) / Double(width), y: Double(minY) / Double(height),
               width: Double(maxX - minX + 1) / Double(width), height: Double(maxY - minY + 1) / Double(height))
    }
}

/// Prominence of an object: the square root of the image fraction it covers, weighted by its
/// closeness to the image centre (`centerX`, `centerY` normalized to 0...1; ×1 at the centre,
/// ×0.5 in a corner) and by `confidence`. Large, central, confident objects rank first, as the
/// SDK's "most prominent object".
func prominence(areaFraction: Float, centerX cx: Float, centerY cy: Float, confidence: Float) -> Float {
    let distance = ((cx - 0.5) * (cx - 0.5) + (cy - 0.5) * (cy - 0.5)).squareRoot()  // 0 ... 0.71
    let centrality = 1 - distance / 0.7072
    return areaFraction.squareRoot() * (0.5 + 0.5 * centrality) * confidence
}
