/// Where a source region lands in the input tensor: the region actually sampled (after a
/// center crop), the content size and letterbox padding, and the resulting transform.
struct SamplingLayout {
    /// Upright image width.
    let uprightWidth: Int
    /// Upright image height.
    let uprightHeight: Int
    /// Width of the tensor area filled with image content.
    let contentWidth: Int
    /// Height of the tensor area filled with image content.
    let contentHeight: Int
    /// Left padding (letterbox).
    let padX: Int
    /// Top padding (letterbox).
    let padY: Int
    /// Padding color, for letterboxing.
    let fillColor: RGBColor?
    /// The map from tensor to upright image coordinates.
    let transform: InputTransform

    /// Validates `region` (nil = whole image) and fits it into `output` as `resize` says.
    init(uprightWidth: Int, uprightHeight: Int, output: InputTensorSpec, region: ImageRect?,
         resize: ResizeMode) throws {
        let full = ImageRect(x: 0, y: 0, width: Double(uprightWidth), height: Double(uprightHeight))
        var source = region ?? full
        guard source.x.isFinite, source.y.isFinite, source.width.isFinite, source.height.isFinite,
              source.width > 0, source.height > 0, !source.intersection(full).isEmpty else {
            throw ImageError.invalidRegion("\(source) does not overlap the \(uprightWidth)x\(uprightHeight) image")
        }
        let outWidth = output.width, outHeight = output.height
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
            // min() first: the scale is infinite for vanishingly small regions.
            contentWidth = max(1, Int(min(Double(outWidth), (source.width * scale).rounded())))
            contentHeight = max(1, Int(min(Double(outHeight), (source.height * scale).rounded())))
            padX = (outWidth - contentWidth) / 2
            padY = (outHeight - contentHeight) / 2
            fillColor = fill
        }
        self.uprightWidth = uprightWidth
        self.uprightHeight = uprightHeight
        self.contentWidth = contentWidth
        self.contentHeight = contentHeight
        self.padX = padX
        self.padY = padY
        self.fillColor = fillColor
        transform = InputTransform(inputWidth: outWidth, inputHeight: outHeight, region: source,
                                   scaleX: Double(contentWidth) / source.width,
                                   scaleY: Double(contentHeight) / source.height, padX: padX, padY: padY)
    }
}
