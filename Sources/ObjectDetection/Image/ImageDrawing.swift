extension RGBImage {
    /// Fills the pixel rectangle `[x, x+width) × [y, y+height)`, clipped to the image.
    public mutating func fill(x: Int, y: Int, width: Int, height: Int, color: RGBColor) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(self.width, x.saturatingAdd(width)), y1 = min(self.height, y.saturatingAdd(height))
        guard x0 < x1, y0 < y1 else { return }
        let rowWidth = self.width
        withMutablePixels { pixels in
            for row in y0..<y1 {
                var i = (row * rowWidth + x0) * 3
                for _ in x0..<x1 {
                    pixels[i] = color.red; pixels[i + 1] = color.green; pixels[i + 2] = color.blue
                    i += 3
                }
            }
        }
    }

    /// The pixel index bounds `(x0, y0, x1, y1)` (inclusive) covered by a continuous rectangle,
    /// or nil when it is empty or not finite.
    static func pixelBounds(of rect: ImageRect) -> (Int, Int, Int, Int)? {
        guard rect.x.isFinite, rect.y.isFinite, rect.width.isFinite, rect.height.isFinite,
              rect.width > 0, rect.height > 0 else { return nil }
        let limit = Double(Int32.max)
        func index(_ value: Double) -> Int { Int(min(limit, max(-limit, value))) }
        let x0 = index(rect.x.rounded(.down)), y0 = index(rect.y.rounded(.down))
        let x1 = index(rect.maxX.rounded(.up)) - 1, y1 = index(rect.maxY.rounded(.up)) - 1
        return (x0, y0, max(x0, x1), max(y0, y1))
    }

    /// Draws the outline of `rect` (continuous upright coordinates) with lines `thickness`
    /// pixels wide, inside the rectangle's pixel bounds, clipped to the image.
    public mutating func drawRectangle(_ rect: ImageRect, color: RGBColor, thickness: Int = 2) {
        guard let (x0, y0, x1, y1) = Self.pixelBounds(of: rect) else { return }
        let t = max(1, thickness)
        let w = x1 - x0 + 1, h = y1 - y0 + 1
        fill(x: x0, y: y0, width: w, height: min(t, h), color: color)             // top
        fill(x: x0, y: max(y0, y1 - t + 1), width: w, height: min(t, h), color: color)  // bottom
        fill(x: x0, y: y0, width: min(t, w), height: h, color: color)             // left
        fill(x: max(x0, x1 - t + 1), y: y0, width: min(t, w), height: h, color: color)  // right
    }

    /// Draws `text` with the built-in ``BitmapFont`` with its top-left corner at `(x, y)`,
    /// each font pixel `scale × scale` image pixels (scale clamped to 1...256), clipped to the image.
    public mutating func drawText(_ text: String, x: Int, y: Int, color: RGBColor, scale: Int = 1) {
        let s = min(256, max(1, scale))
        var penX = x
        for character in text {
            if penX >= width { break }
            let glyph = BitmapFont.glyph(for: character)
            for (row, bits) in glyph.enumerated() where bits != 0 {
                for column in 0..<BitmapFont.glyphWidth where bits & (0x10 >> UInt8(column)) != 0 {
                    fill(x: penX + column * s, y: y + row * s, width: s, height: s, color: color)
                }
            }
            penX += BitmapFont.advance * s
        }
    }

    /// Draws `text` on a filled background box attached to the top-left corner of `box`:
    /// above the box when there is room, otherwise just inside it. The text is black or white,
    /// whichever contrasts more with `background`.
    public mutating func drawLabel(_ text: String, for box: ImageRect, background: RGBColor, scale: Int = 1) {
        guard let (x0, y0, _, _) = Self.pixelBounds(of: box), !text.isEmpty else { return }
        let s = min(256, max(1, scale))
        let padding = s
        let (textWidth, textHeight) = BitmapFont.size(of: text, scale: s)
        let boxWidth = textWidth + 2 * padding, boxHeight = textHeight + 2 * padding
        let top = y0 - boxHeight >= 0 ? y0 - boxHeight : max(0, y0)
        let left = min(max(0, x0), max(0, width - boxWidth))
        fill(x: left, y: top, width: boxWidth, height: boxHeight, color: background)
        let luma = 299 * Int(background.red) + 587 * Int(background.green) + 114 * Int(background.blue)
        drawText(text, x: left + padding, y: top + padding, color: luma > 140_000 ? .black : .white, scale: s)
    }
}

extension Int {
    /// `self + other`, saturating at the bounds instead of trapping.
    fileprivate func saturatingAdd(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
