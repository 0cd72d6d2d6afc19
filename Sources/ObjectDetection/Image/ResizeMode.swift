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
