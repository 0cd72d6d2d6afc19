/// The quantization range of YUV samples (ITU-R BT.601 matrix in both cases).
///
/// - `video` (limited / "studio" range): Y in 16...235, Cb/Cr in 16...240. This is what video
///   files (YUV4MPEG2 without `XCOLORRANGE=FULL`), broadcast and most camera preview formats
///   such as iOS `420YpCbCr8BiPlanarVideoRange` deliver, and the default here.
/// - `full` (JPEG / JFIF range): all components in 0...255, as in iOS
///   `420YpCbCr8BiPlanarFullRange` and Android `YUV_420_888` from CameraX/Camera2 JPEG-style
///   pipelines.
public enum YUVColorRange: Sendable, Hashable {
    /// Limited range: Y 16...235, chroma 16...240.
    case video
    /// Full range: 0...255 for all components.
    case full
}
