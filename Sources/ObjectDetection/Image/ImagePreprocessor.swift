/// How an image region is fitted into the input tensor.
public enum ResizeMode: Sendable, Hashable {
    /// Scale each axis independently to fill the tensor (aspect ratio not kept).
    case stretch
    /// Shrink the region to the tensor's aspect ratio around its center, then scale
    /// (the usual classifier "center crop").
    case centerCrop
    /// Scale uniformly to fit, center, and pad the rest with `fill` (YOLO-style letterbox;
    /// Ultralytics uses gray 114).
    case letterbox(fill: RGBColor)
}

/// The tensor bytes produced by preprocessing and the transform that maps results back.
public struct PreprocessedInput: Sendable {
    /// NHWC tensor data (batch 1) in the spec's element type; floats little-endian.
    public var data: [UInt8]
    /// Maps input-tensor coordinates to upright image coordinates.
    public var transform: InputTransform
}

/// Turns an upright image region into the bytes of a model's image input tensor: crop, resize
/// (bilinear), color conversion, normalization and quantization, in one pass.
///
/// Sampling convention (half-pixel centers, as TensorFlow `resize_bilinear(half_pixel_centers:
/// true)` and OpenCV `INTER_LINEAR` without antialiasing): output pixel `(i, j)` of a region
/// `(rx, ry, rw, rh)` mapped onto `ow × oh` tensor pixels samples the image at
/// `x = rx + (i + 0.5)·rw/ow − 0.5`, `y = ry + (j + 0.5)·rh/oh − 0.5`, interpolating linearly
/// between the four nearest pixel centers; coordinates outside the image are clamped to the
/// border pixels. Each interpolated channel is rounded to 8 bits (half up) before color
/// conversion and normalization, exactly as if a resized 8-bit image were fed to the model.
///
/// Independent of the interpreter: the detection layer copies ``PreprocessedInput/data`` into
/// the input tensor.
public struct ImagePreprocessor: Sendable {
    /// The input tensor description.
    public let spec: InputTensorSpec
    private let byteTable: [UInt8]
    private let floatTable: [Float]

    /// Creates a preprocessor; throws ``ImageError/invalidParameters(_:)`` for an unusable spec.
    public init(spec: InputTensorSpec) throws {
        try spec.validate()
        self.spec = spec
        (byteTable, floatTable) = spec.lookupTables()
    }

    /// Preprocesses `region` (upright coordinates; nil = whole image) of an image.
    ///
    /// The orientation is applied while sampling (no rotated copy of the frame is made).
    public func makeInput(from image: VisionImage, region: ImageRect? = nil,
                          resize: ResizeMode = .stretch) throws -> PreprocessedInput {
        var data = [UInt8]()
        let transform = try fill(&data, from: image, region: region, resize: resize)
        return PreprocessedInput(data: data, transform: transform)
    }

    /// Like the ``RGBImage`` form of `fill` for a ``VisionImage``: converts the
    /// stored buffer to RGB once and samples it through the orientation.
    public func fill(_ data: inout [UInt8], from image: VisionImage, region: ImageRect? = nil,
                     resize: ResizeMode = .stretch) throws -> InputTransform {
        try fill(&data, stored: image.storedRGB(), orientation: image.orientation, region: region, resize: resize)
    }

    /// Preprocesses `region` (nil = whole image) of an upright RGB image.
    public func makeInput(from image: RGBImage, region: ImageRect? = nil,
                          resize: ResizeMode = .stretch) throws -> PreprocessedInput {
        var data = [UInt8]()
        let transform = try fill(&data, from: image, region: region, resize: resize)
        return PreprocessedInput(data: data, transform: transform)
    }

    /// Writes the tensor bytes into `data` (resized to ``InputTensorSpec/byteCount``; reuse
    /// the same array across frames to avoid reallocation) and returns the transform.
    /// - Throws: ``ImageError/invalidRegion(_:)`` when the region is empty, not finite, or does
    ///   not overlap the image.
    public func fill(_ data: inout [UInt8], from image: RGBImage, region: ImageRect? = nil,
                     resize: ResizeMode = .stretch) throws -> InputTransform {
        try fill(&data, stored: image, orientation: .up, region: region, resize: resize)
    }

    /// The shared implementation: `stored` is shown upright through `orientation`; `region`
    /// is in upright coordinates.
    private func fill(_ data: inout [UInt8], stored image: RGBImage, orientation: ImageOrientation,
                      region: ImageRect?, resize: ResizeMode) throws -> InputTransform {
        let orientationTransform = OrientationTransform(orientation: orientation, storedWidth: image.width,
                                                        storedHeight: image.height)
        let uprightWidth = orientationTransform.uprightWidth, uprightHeight = orientationTransform.uprightHeight
        let full = ImageRect(x: 0, y: 0, width: Double(uprightWidth), height: Double(uprightHeight))
        var source = region ?? full
        guard source.x.isFinite, source.y.isFinite, source.width.isFinite, source.height.isFinite,
              source.width > 0, source.height > 0, !source.intersection(full).isEmpty else {
            throw ImageError.invalidRegion("\(source) does not overlap the \(uprightWidth)x\(uprightHeight) image")
        }
        let outWidth = spec.width, outHeight = spec.height
        var contentWidth = outWidth, contentHeight = outHeight, padX = 0, padY = 0
        var fillColor: RGBColor?
        switch resize {
        case .stretch:
            break
        case .centerCrop:
            let targetAspect = Double(outWidth) / Double(outHeight)
            if source.width / source.height > targetAspect {
                let newWidth = source.height * targetAspect
                source = ImageRect(x: source.midX - newWidth / 2, y: source.y, width: newWidth, height: source.height)
            } else {
                let newHeight = source.width / targetAspect
                source = ImageRect(x: source.x, y: source.midY - newHeight / 2, width: source.width, height: newHeight)
            }
        case let .letterbox(fill):
            let scale = min(Double(outWidth) / source.width, Double(outHeight) / source.height)
            contentWidth = max(1, min(outWidth, Int((source.width * scale).rounded())))
            contentHeight = max(1, min(outHeight, Int((source.height * scale).rounded())))
            padX = (outWidth - contentWidth) / 2
            padY = (outHeight - contentHeight) / 2
            fillColor = fill
        }
        let transform = InputTransform(inputWidth: outWidth, inputHeight: outHeight, region: source,
                                       scaleX: Double(contentWidth) / source.width,
                                       scaleY: Double(contentHeight) / source.height, padX: padX, padY: padY)
        let byteCount = spec.byteCount
        if data.count != byteCount {
            data = [UInt8](repeating: 0, count: byteCount)
        }
        // Resample the content area into 8-bit RGB rows, then convert each row to tensor elements.
        // Upright pixel (ux, uy) lives at stored byte offset rowBase(uy) + columnOffset(ux).
        let m = orientation.uprightToStoredCoefficients
        let storedOriginX = m.flipX ? image.width - 1 : 0, storedOriginY = m.flipY ? image.height - 1 : 0
        let columnStride = (m.c * image.width + m.a) * 3
        let rowStride = (m.d * image.width + m.b) * 3
        let rowOrigin = (storedOriginY * image.width + storedOriginX) * 3
        let columns = ResamplingAxis(start: source.x, length: source.width, outputCount: contentWidth,
                                     sourceCount: uprightWidth, byteStride: columnStride, byteOrigin: 0)
        let rows = ResamplingAxis(start: source.y, length: source.height, outputCount: contentHeight,
                                  sourceCount: uprightHeight, byteStride: rowStride, byteOrigin: rowOrigin)
        var rowPixels = [UInt8](repeating: 0, count: outWidth * 3)
        if let fillColor {
            for x in 0..<outWidth {
                rowPixels[x * 3] = fillColor.red
                rowPixels[x * 3 + 1] = fillColor.green
                rowPixels[x * 3 + 2] = fillColor.blue
            }
        }
        data.withUnsafeMutableBytes { output in
            image.pixels.withUnsafeBufferPointer { src in
                rowPixels.withUnsafeMutableBufferPointer { rowBuffer in
                    // Padding rows first (letterbox only): the whole row is the fill color.
                    for y in 0..<outHeight where y < padY || y >= padY + contentHeight {
                        writeRow(rowBuffer, into: output, row: y)
                    }
                    for j in 0..<contentHeight {
                        BilinearSampler.sampleRow(src: src, top: rows.lower[j], bottom: rows.upper[j],
                                                  fy: rows.fraction[j], columns: columns, into: rowBuffer,
                                                  offset: padX * 3)
                        writeRow(rowBuffer, into: output, row: padY + j)
                    }
                }
            }
        }
        return transform
    }

    /// Converts one row of `spec.width` RGB pixels into tensor elements at `row`.
    private func writeRow(_ pixels: UnsafeMutableBufferPointer<UInt8>, into output: UnsafeMutableRawBufferPointer,
                          row: Int) {
        let width = spec.width
        let channels = spec.channels
        let order = spec.colorOrder
        let base = row * width * channels
        if spec.elementType == .float32 {
            floatTable.withUnsafeBufferPointer { table in
                for x in 0..<width {
                    let r = Int(pixels[x * 3]), g = Int(pixels[x * 3 + 1]), b = Int(pixels[x * 3 + 2])
                    let o = (base + x * channels) * 4
                    switch order {
                    case .rgb:
                        output.storeBytes(of: table[r], toByteOffset: o, as: Float.self)
                        output.storeBytes(of: table[256 + g], toByteOffset: o + 4, as: Float.self)
                        output.storeBytes(of: table[512 + b], toByteOffset: o + 8, as: Float.self)
                    case .bgr:
                        output.storeBytes(of: table[b], toByteOffset: o, as: Float.self)
                        output.storeBytes(of: table[256 + g], toByteOffset: o + 4, as: Float.self)
                        output.storeBytes(of: table[512 + r], toByteOffset: o + 8, as: Float.self)
                    case .grayscale:
                        output.storeBytes(of: table[(77 * r + 150 * g + 29 * b + 128) >> 8], toByteOffset: o,
                                          as: Float.self)
                    }
                }
            }
        } else {
            byteTable.withUnsafeBufferPointer { table in
                for x in 0..<width {
                    let r = Int(pixels[x * 3]), g = Int(pixels[x * 3 + 1]), b = Int(pixels[x * 3 + 2])
                    let o = base + x * channels
                    switch order {
                    case .rgb:
                        output[o] = table[r]; output[o + 1] = table[256 + g]; output[o + 2] = table[512 + b]
                    case .bgr:
                        output[o] = table[b]; output[o + 1] = table[256 + g]; output[o + 2] = table[512 + r]
                    case .grayscale:
                        output[o] = table[(77 * r + 150 * g + 29 * b + 128) >> 8]
                    }
                }
            }
        }
    }
}

/// Precomputed source byte offsets and weights along one axis for half-pixel-center bilinear
/// sampling.
struct ResamplingAxis {
    /// Byte offset of the lower source pixel per output index.
    var lower: [Int]
    /// Byte offset of the upper source pixel (the lower one again at the border).
    var upper: [Int]
    /// Weight of `upper`.
    var fraction: [Float]

    /// Maps `outputCount` samples onto `[start, start + length)` of an axis with `sourceCount`
    /// pixels; source pixel `i` is at byte offset `byteOrigin + i · byteStride`.
    init(start: Double, length: Double, outputCount: Int, sourceCount: Int, byteStride: Int, byteOrigin: Int) {
        lower = [Int](repeating: 0, count: outputCount)
        upper = [Int](repeating: 0, count: outputCount)
        fraction = [Float](repeating: 0, count: outputCount)
        let step = length / Double(outputCount)
        let last = Double(sourceCount - 1)
        for i in 0..<outputCount {
            let position = min(last, max(0, start + (Double(i) + 0.5) * step - 0.5))
            let low = Int(position.rounded(.down))
            lower[i] = byteOrigin + low * byteStride
            upper[i] = byteOrigin + min(low + 1, sourceCount - 1) * byteStride
            fraction[i] = Float(position - Double(low))
        }
    }
}

/// The bilinear inner loop.
enum BilinearSampler {
    /// Samples one output row (3 channels per pixel) from the source rows starting at byte
    /// offsets `top` and `bottom`.
    @inline(__always)
    static func sampleRow(src: UnsafeBufferPointer<UInt8>, top: Int, bottom: Int, fy: Float,
                          columns: ResamplingAxis, into row: UnsafeMutableBufferPointer<UInt8>, offset: Int) {
        columns.lower.withUnsafeBufferPointer { lower in
            columns.upper.withUnsafeBufferPointer { upper in
                columns.fraction.withUnsafeBufferPointer { fraction in
                    var o = offset
                    for i in 0..<lower.count {
                        let x0 = lower[i], x1 = upper[i]
                        let fx = fraction[i]
                        let a = SIMD4<Float>(Float(src[top + x0]), Float(src[top + x0 + 1]), Float(src[top + x0 + 2]), 0)
                        let b = SIMD4<Float>(Float(src[top + x1]), Float(src[top + x1 + 1]), Float(src[top + x1 + 2]), 0)
                        let c = SIMD4<Float>(Float(src[bottom + x0]), Float(src[bottom + x0 + 1]), Float(src[bottom + x0 + 2]), 0)
                        let d = SIMD4<Float>(Float(src[bottom + x1]), Float(src[bottom + x1 + 1]), Float(src[bottom + x1 + 2]), 0)
                        let upperRow = (b - a) * fx + a
                        let lowerRow = (d - c) * fx + c
                        let value = (lowerRow - upperRow) * fy + upperRow + 0.5
                        row[o] = UInt8(value[0])
                        row[o + 1] = UInt8(value[1])
                        row[o + 2] = UInt8(value[2])
                        o += 3
                    }
                }
            }
        }
    }
}
