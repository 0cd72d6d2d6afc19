/// How a stored pixel buffer must be transformed to appear upright.
///
/// The cases and their EXIF values follow `CGImagePropertyOrientation` / `UIImage.Orientation`:
///
/// | case | EXIF | older name | stored row 0 is the upright… | stored column 0 is the upright… |
/// |---|---|---|---|---|
/// | `up` | 1 | `topLeft` | top | left |
/// | `upMirrored` | 2 | `topRight` | top | right |
/// | `down` | 3 | `bottomRight` | bottom | right |
/// | `downMirrored` | 4 | `bottomLeft` | bottom | left |
/// | `leftMirrored` | 5 | `leftTop` | left | top |
/// | `right` | 6 | `rightTop` | right | top |
/// | `rightMirrored` | 7 | `rightBottom` | right | bottom |
/// | `left` | 8 | `leftBottom` | left | bottom |
///
/// For example a phone held in portrait whose back camera sensor is landscape delivers buffers
/// with orientation `.right` (the upright image is the buffer rotated 90° clockwise); the front
/// camera in portrait usually delivers `.leftMirrored`. Choosing the orientation from device
/// orientation and camera position is the caller's job; every detection result is reported in
/// the upright image's pixel coordinates.
public enum ImageOrientation: Int, Sendable, CaseIterable, Hashable {
    /// Stored as displayed (EXIF 1).
    case up = 1
    /// Mirrored left-right (EXIF 2).
    case upMirrored = 2
    /// Rotated 180° (EXIF 3).
    case down = 3
    /// Mirrored top-bottom (EXIF 4).
    case downMirrored = 4
    /// Transposed: stored rows are upright columns (EXIF 5).
    case leftMirrored = 5
    /// Display by rotating the buffer 90° clockwise (EXIF 6).
    case right = 6
    /// Transversed: display by rotating 90° clockwise and mirroring (EXIF 7).
    case rightMirrored = 7
    /// Display by rotating the buffer 90° counter-clockwise (EXIF 8).
    case left = 8

    /// The EXIF / TIFF orientation tag value (1–8).
    public var exifValue: Int { rawValue }

    /// Creates an orientation from an EXIF orientation value; nil outside 1...8.
    public init?(exifValue: Int) {
        self.init(rawValue: exifValue)
    }

    /// Older name: stored row 0 is the top, column 0 the left (``up``).
    public static let topLeft = ImageOrientation.up
    /// Older name for ``upMirrored``.
    public static let topRight = ImageOrientation.upMirrored
    /// Older name for ``down``.
    public static let bottomRight = ImageOrientation.down
    /// Older name for ``downMirrored``.
    public static let bottomLeft = ImageOrientation.downMirrored
    /// Older name for ``leftMirrored``.
    public static let leftTop = ImageOrientation.leftMirrored
    /// Older name for ``right``.
    public static let rightTop = ImageOrientation.right
    /// Older name for ``rightMirrored``.
    public static let rightBottom = ImageOrientation.rightMirrored
    /// Older name for ``left``.
    public static let leftBottom = ImageOrientation.left

    /// Parses a name: the eight case names, the older `topLeft`…`leftBottom` names
    /// (case-insensitive, `-`/`_` ignored) or an EXIF number `"1"`…`"8"`.
    public init?(name: String) {
        let key = name.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " }
        if let value = Int(key) {
            self.init(exifValue: value)
            return
        }
        let table: [String: ImageOrientation] = [
            "up": .up, "upmirrored": .upMirrored, "down": .down, "downmirrored": .downMirrored,
            "leftmirrored": .leftMirrored, "right": .right, "rightmirrored": .rightMirrored, "left": .left,
            "topleft": .up, "topright": .upMirrored, "bottomright": .down, "bottomleft": .downMirrored,
            "lefttop": .leftMirrored, "righttop": .right, "rightbottom": .rightMirrored, "leftbottom": .left,
        ]
        guard let orientation = table[key] else { return nil }
        self = orientation
    }

    /// True when the upright image's width is the stored height (the four 90° cases).
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The upright size of a stored `width × height` buffer.
    public func uprightSize(storedWidth: Int, storedHeight: Int) -> (width: Int, height: Int) {
        swapsDimensions ? (storedHeight, storedWidth) : (storedWidth, storedHeight)
    }

    /// The map from upright to stored coordinates:
    /// `sx = a·ux + b·uy + (flipX ? W : 0)`, `sy = c·ux + d·uy + (flipY ? H : 0)` with `W × H` the
    /// stored size (continuous coordinates; use `W − 1`, `H − 1` for pixel indices).
    var uprightToStoredCoefficients: (a: Int, b: Int, c: Int, d: Int, flipX: Bool, flipY: Bool) {
        switch self {
        case .up: return (1, 0, 0, 1, false, false)
        case .upMirrored: return (-1, 0, 0, 1, true, false)
        case .down: return (-1, 0, 0, -1, true, true)
        case .downMirrored: return (1, 0, 0, -1, false, true)
        case .leftMirrored: return (0, 1, 1, 0, false, false)
        case .right: return (0, 1, -1, 0, false, true)
        case .rightMirrored: return (0, -1, -1, 0, true, true)
        case .left: return (0, -1, 1, 0, true, false)
        }
    }
}
