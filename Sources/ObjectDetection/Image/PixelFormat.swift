/// The memory layout of a raw camera or decoder buffer.
public enum PixelFormat: Sendable, Hashable, CaseIterable {
    /// 4 bytes per pixel: red, green, blue, alpha (alpha ignored).
    case rgba8
    /// 4 bytes per pixel: blue, green, red, alpha (alpha ignored); the usual iOS camera format.
    case bgra8
    /// 3 bytes per pixel: red, green, blue.
    case rgb8
    /// 1 byte per pixel: luminance.
    case gray8
    /// Two planes: full-resolution Y, then interleaved U,V (Cb,Cr) at half width and half height.
    case nv12
    /// Three planes: full-resolution Y, U (Cb) and V (Cr) each at half width and half height.
    case i420
    /// Three planes: Y, then U and V at half width and full height (planar 4:2:2).
    case i422
    /// Three planes: Y, U and V all at full resolution (planar 4:4:4).
    case i444

    /// Bytes per pixel of the first plane's row (packed formats) or 1 (luma planes).
    public var bytesPerPixel: Int {
        switch self {
        case .rgba8, .bgra8: return 4
        case .rgb8: return 3
        case .gray8, .nv12, .i420, .i422, .i444: return 1
        }
    }

    /// True for the YUV formats.
    public var isYUV: Bool {
        switch self {
        case .nv12, .i420, .i422, .i444: return true
        default: return false
        }
    }
}
