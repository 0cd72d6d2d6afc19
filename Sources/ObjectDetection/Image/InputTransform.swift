/// The affine map between model-input pixel coordinates and upright image coordinates that a
/// preprocessing step applied (crop, scale, letterbox padding).
///
/// `imageX = regionX + (inputX − padX) / scaleX`, `imageY = regionY + (inputY − padY) / scaleY`,
/// in continuous pixel coordinates (see ``ImageRect``).
public struct InputTransform: Sendable, Hashable {
    /// Input tensor width.
    public let inputWidth: Int
    /// Input tensor height.
    public let inputHeight: Int
    /// The upright image region that was resampled.
    public let region: ImageRect
    /// Input pixels per image pixel, horizontally.
    public let scaleX: Double
    /// Input pixels per image pixel, vertically.
    public let scaleY: Double
    /// Left padding in input pixels (letterbox), 0 otherwise.
    public let padX: Int
    /// Top padding in input pixels (letterbox), 0 otherwise.
    public let padY: Int

    /// Creates a transform.
    public init(inputWidth: Int, inputHeight: Int, region: ImageRect, scaleX: Double, scaleY: Double,
                padX: Int, padY: Int) {
        self.inputWidth = inputWidth
        self.inputHeight = inputHeight
        self.region = region
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.padX = padX
        self.padY = padY
    }

    /// The part of the input tensor holding image content (the rest is letterbox padding).
    public var contentRect: ImageRect {
        ImageRect(x: Double(padX), y: Double(padY), width: region.width * scaleX, height: region.height * scaleY)
    }

    /// Maps an input-tensor point to the upright image.
    public func imagePoint(inputX: Double, inputY: Double) -> (x: Double, y: Double) {
        (region.x + (inputX - Double(padX)) / scaleX, region.y + (inputY - Double(padY)) / scaleY)
    }

    /// Maps an upright image point to the input tensor.
    public func inputPoint(imageX: Double, imageY: Double) -> (x: Double, y: Double) {
        ((imageX - region.x) * scaleX + Double(padX), (imageY - region.y) * scaleY + Double(padY))
    }

    /// Maps a rectangle in input-tensor pixels to the upright image.
    public func imageRect(fromInput rect: ImageRect) -> ImageRect {
        let p0 = imagePoint(inputX: rect.x, inputY: rect.y)
        let p1 = imagePoint(inputX: rect.maxX, inputY: rect.maxY)
        return ImageRect(corners: p0.x, p0.y, p1.x, p1.y)
    }

    /// Maps a rectangle given in coordinates normalized to the input size (0...1, as SSD and
    /// YOLO heads produce) to the upright image.
    public func imageRect(fromNormalizedInput rect: ImageRect) -> ImageRect {
        let w = Double(inputWidth), h = Double(inputHeight)
        return imageRect(fromInput: ImageRect(x: rect.x * w, y: rect.y * h, width: rect.width * w,
                                              height: rect.height * h))
    }

    /// Maps an upright image rectangle to input-tensor pixels.
    public func inputRect(fromImage rect: ImageRect) -> ImageRect {
        let p0 = inputPoint(imageX: rect.x, imageY: rect.y)
        let p1 = inputPoint(imageX: rect.maxX, imageY: rect.maxY)
        return ImageRect(corners: p0.x, p0.y, p1.x, p1.y)
    }
}
