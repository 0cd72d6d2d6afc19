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

    /// Like the ``RGBImage`` form of `fill`, for a ``VisionImage``. YUV frames are sampled
    /// straight from their planes (only the pixels the resampling reads are converted); packed
    /// formats are converted to RGB once. Either way the orientation is applied while sampling
    /// and the bytes equal those of preprocessing ``VisionImage/uprightRGB()``.
    public func fill(_ data: inout [UInt8], from image: VisionImage, region: ImageRect? = nil,
                     resize: ResizeMode = .stretch) throws -> InputTransform {
        guard image.format.isYUV else {
            return try fill(&data, stored: image.storedRGB(), orientation: image.orientation, region: region,
                            resize: resize)
        }
        let layout = try SamplingLayout(uprightWidth: image.uprightWidth, uprightHeight: image.uprightHeight,
                                        output: spec, region: region, resize: resize)
        let sampler = YUVBilinearSampler(image: image, layout: layout)
        render(&data, layout: layout) { j, row in sampler.sampleRow(j, into: row, offset: layout.padX * 3) }
        return layout.transform
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

    /// The RGB implementation: `stored` is shown upright through `orientation`; `region` is in
    /// upright coordinates.
    private func fill(_ data: inout [UInt8], stored image: RGBImage, orientation: ImageOrientation,
                      region: ImageRect?, resize: ResizeMode) throws -> InputTransform {
        let orientationTransform = OrientationTransform(orientation: orientation, storedWidth: image.width,
                                                        storedHeight: image.height)
        let layout = try SamplingLayout(uprightWidth: orientationTransform.uprightWidth,
                                        uprightHeight: orientationTransform.uprightHeight,
                                        output: spec, region: region, resize: resize)
        // Upright pixel (ux, uy) lives at stored byte offset rowBase(uy) + columnOffset(ux).
        let m = orientation.uprightToStoredCoefficients
        let storedOriginX = m.flipX ? image.width - 1 : 0, storedOriginY = m.flipY ? image.height - 1 : 0
        let columnStride = (m.c * image.width + m.a) * 3
        let rowStride = (m.d * image.width + m.b) * 3
        let rowOrigin = (storedOriginY * image.width + storedOriginX) * 3
        let source = layout.transform.region
        let columns = ResamplingAxis(start: source.x, length: source.width, outputCount: layout.contentWidth,
                                     sourceCount: layout.uprightWidth, byteStride: columnStride, byteOrigin: 0)
        let rows = ResamplingAxis(start: source.y, length: source.height, outputCount: layout.contentHeight,
                                  sourceCount: layout.uprightHeight, byteStride: rowStride, byteOrigin: rowOrigin)
        image.pixels.withUnsafeBufferPointer { src in
            render(&data, layout: layout) { j, row in
                BilinearSampler.sampleRow(src: src, top: rows.lower[j], bottom: rows.upper[j], fy: rows.fraction[j],
                                          columns: columns, into: row, offset: layout.padX * 3)
            }
        }
        return layout.transform
    }

    /// Fills `data` row by row: letterbox padding rows get the fill color, content rows are
    /// produced by `sampleContentRow(j, row)` (writing `contentWidth` RGB pixels at `padX`),
    /// and each row is converted to tensor elements.
    private func render(_ data: inout [UInt8], layout: SamplingLayout,
                        sampleContentRow: (Int, UnsafeMutableBufferPointer<UInt8>) -> Void) {
        let outWidth = spec.width, outHeight = spec.height
        if data.count != spec.byteCount {
            data = [UInt8](repeating: 0, count: spec.byteCount)
        }
        var rowPixels = [UInt8](repeating: 0, count: outWidth * 3)
        if let fillColor = layout.fillColor {
            for x in 0..<outWidth {
                rowPixels[x * 3] = fillColor.red
                rowPixels[x * 3 + 1] = fillColor.green
                rowPixels[x * 3 + 2] = fillColor.blue
            }
        }
        data.withUnsafeMutableBytes { output in
            rowPixels.withUnsafeMutableBufferPointer { rowBuffer in
                for y in 0..<outHeight where y < layout.padY || y >= layout.padY + layout.contentHeight {
                    writeRow(rowBuffer, into: output, row: y)
                }
                for j in 0..<layout.contentHeight {
                    sampleContentRow(j, rowBuffer)
                    writeRow(rowBuffer, into: output, row: layout.padY + j)
                }
            }
        }
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
