import Foundation

/// SSD anchor generation as MediaPipe's `SsdAnchorsCalculator` defines it, for models whose
/// raw box regressions are decoded outside the graph (BlazeFace and friends).
public struct SSDAnchorOptions: Sendable, Equatable {
    /// Number of feature-map layers.
    public var layerCount: Int
    /// Smallest anchor scale.
    public var minScale: Double
    /// Largest anchor scale.
    public var maxScale: Double
    /// Model input height.
    public var inputHeight: Int
    /// Model input width.
    public var inputWidth: Int
    /// Anchor centre offset within a cell (0.5 = centre).
    public var anchorOffset: Double
    /// Feature-map stride per layer.
    public var strides: [Int]
    /// Aspect ratios generated per cell.
    public var aspectRatios: [Double]
    /// Extra anchor with the geometric-mean scale and this aspect ratio (0 = none).
    public var interpolatedScaleAspectRatio: Double
    /// Unit-size anchors (width and height 1), as BlazeFace uses.
    public var fixedAnchorSize: Bool

    /// Creates anchor options.
    public init(layerCount: Int, minScale: Double, maxScale: Double, inputHeight: Int, inputWidth: Int,
                anchorOffset: Double = 0.5, strides: [Int], aspectRatios: [Double] = [1.0],
                interpolatedScaleAspectRatio: Double = 1.0, fixedAnchorSize: Bool = true) {
        self.layerCount = layerCount; self.minScale = minScale; self.maxScale = maxScale
        self.inputHeight = inputHeight; self.inputWidth = inputWidth; self.anchorOffset = anchorOffset
        self.strides = strides; self.aspectRatios = aspectRatios
        self.interpolatedScaleAspectRatio = interpolatedScaleAspectRatio; self.fixedAnchorSize = fixedAnchorSize
    }

    /// BlazeFace short range (128×128, 896 anchors).
    public static let faceShortRange = SSDAnchorOptions(
        layerCount: 4, minScale: 0.1484375, maxScale: 0.75, inputHeight: 128, inputWidth: 128,
        strides: [8, 16, 16, 16])
    /// BlazeFace full range (192×192, 2304 anchors).
    public static let faceFullRange = SSDAnchorOptions(
        layerCount: 1, minScale: 0.1484375, maxScale: 0.75, inputHeight: 192, inputWidth: 192,
        strides: [4], interpolatedScaleAspectRatio: 0.0)
    /// BlazeFace back camera (256×256, 896 anchors).
    public static let faceBackCamera = SSDAnchorOptions(
        layerCount: 4, minScale: 0.15625, maxScale: 0.75, inputHeight: 256, inputWidth: 256,
        strides: [16, 32, 32, 32])
}

/// One anchor: centre and size in normalized input coordinates.
public struct SSDAnchor: Sendable, Equatable {
    /// Centre x in [0, 1].
    public var centerX: Double
    /// Centre y in [0, 1].
    public var centerY: Double
    /// Width (1 for fixed-size anchors).
    public var width: Double
    /// Height (1 for fixed-size anchors).
    public var height: Double
}

extension SSDAnchorOptions {
    private func scale(at layer: Int) -> Double {
        layerCount == 1 ? (minScale + maxScale) / 2
            : minScale + (maxScale - minScale) * Double(layer) / Double(layerCount - 1)
    }

    /// Generates the anchors in the order the model's outputs use.
    /// Layers that share a stride are merged into one feature map, as MediaPipe does.
    public func anchors() -> [SSDAnchor] {
        var result: [SSDAnchor] = []
        var layer = 0
        while layer < min(layerCount, strides.count) {
            var sizes: [(w: Double, h: Double)] = []
            var last = layer
            while last < min(layerCount, strides.count), strides[last] == strides[layer] {
                let s = scale(at: last)
                for ratio in aspectRatios {
                    sizes.append((s * ratio.squareRoot(), s / ratio.squareRoot()))
                }
                if interpolatedScaleAspectRatio > 0 {
                    let next = last == layerCount - 1 ? 1.0 : scale(at: last + 1)
                    let si = (s * next).squareRoot(), r = interpolatedScaleAspectRatio.squareRoot()
                    sizes.append((si * r, si / r))
                }
                last += 1
            }
            let stride = Double(strides[layer])
            let rows = Int((Double(inputHeight) / stride).rounded(.up))
            let cols = Int((Double(inputWidth) / stride).rounded(.up))
            for y in 0..<rows {
                for x in 0..<cols {
                    for size in sizes {
                        result.append(SSDAnchor(
                            centerX: (Double(x) + anchorOffset) / Double(cols),
                            centerY: (Double(y) + anchorOffset) / Double(rows),
                            width: fixedAnchorSize ? 1 : size.w, height: fixedAnchorSize ? 1 : size.h))
                    }
                }
            }
            layer = last
        }
        return result
    }
}
