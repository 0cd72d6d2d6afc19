/// An 8-bit RGB color.
public struct RGBColor: Sendable, Hashable {
    /// Red component.
    public var red: UInt8
    /// Green component.
    public var green: UInt8
    /// Blue component.
    public var blue: UInt8

    /// Creates a color from its components.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Black.
    public static let black = RGBColor(red: 0, green: 0, blue: 0)
    /// White.
    public static let white = RGBColor(red: 255, green: 255, blue: 255)
}
