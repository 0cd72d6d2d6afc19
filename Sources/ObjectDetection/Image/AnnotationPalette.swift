/// Distinct, saturated colors for boxes, chosen by tracking ID so one object keeps its color
/// across frames.
public enum AnnotationPalette {
    /// Twelve colors that stay distinguishable on photos.
    public static let colors: [RGBColor] = [
        RGBColor(red: 230, green: 25, blue: 75), RGBColor(red: 60, green: 180, blue: 75),
        RGBColor(red: 255, green: 225, blue: 25), RGBColor(red: 0, green: 130, blue: 200),
        RGBColor(red: 245, green: 130, blue: 48), RGBColor(red: 145, green: 30, blue: 180),
        RGBColor(red: 70, green: 240, blue: 240), RGBColor(red: 240, green: 50, blue: 230),
        RGBColor(red: 210, green: 245, blue: 60), RGBColor(red: 250, green: 190, blue: 212),
        RGBColor(red: 0, green: 128, blue: 128), RGBColor(red: 170, green: 110, blue: 40),
    ]

    /// The color for a tracking ID (negative IDs allowed); objects without an ID get the first color.
    public static func color(forTrackingID id: Int?) -> RGBColor {
        guard let id else { return colors[0] }
        let count = colors.count
        return colors[((id % count) + count) % count]
    }
}
