/// How the device is held, for choosing the orientation of camera frames.
public enum DeviceOrientation: Sendable, Hashable, CaseIterable {
    /// Upright, home button / bottom edge down.
    case portrait
    /// Upside down.
    case portraitUpsideDown
    /// Rotated so the top of the device points left (iOS `landscapeLeft`: home button right).
    case landscapeLeft
    /// Rotated so the top of the device points right (iOS `landscapeRight`: home button left).
    case landscapeRight
}

/// Which camera produced a frame.
public enum CameraPosition: Sendable, Hashable, CaseIterable {
    /// The rear camera.
    case back
    /// The front (selfie) camera, whose frames are mirrored.
    case front
}

extension ImageOrientation {
    /// The orientation of frames from a phone camera whose sensor is mounted landscape (as on
    /// iOS devices with `AVCaptureVideoDataOutput` in its default connection orientation):
    ///
    /// | device | back camera | front camera |
    /// |---|---|---|
    /// | portrait | `right` | `leftMirrored` |
    /// | landscapeLeft | `up` | `downMirrored` |
    /// | portraitUpsideDown | `left` | `rightMirrored` |
    /// | landscapeRight | `down` | `upMirrored` |
    ///
    /// Pipelines that already rotate or mirror frames (or report a rotation, see
    /// ``init(clockwiseRotationDegrees:)``) must account for that themselves.
    public init(device: DeviceOrientation, camera: CameraPosition) {
        switch (device, camera) {
        case (.portrait, .back): self = .right
        case (.portrait, .front): self = .leftMirrored
        case (.landscapeLeft, .back): self = .up
        case (.landscapeLeft, .front): self = .downMirrored
        case (.portraitUpsideDown, .back): self = .left
        case (.portraitUpsideDown, .front): self = .rightMirrored
        case (.landscapeRight, .back): self = .down
        case (.landscapeRight, .front): self = .upMirrored
        }
    }

    /// The orientation for a frame that must be rotated clockwise by `degrees` (0, 90, 180 or
    /// 270, any multiple of 360 added) to be upright, as Android's `ImageInfo.rotationDegrees`
    /// reports; nil for other angles.
    public init?(clockwiseRotationDegrees degrees: Int) {
        switch ((degrees % 360) + 360) % 360 {
        case 0: self = .up
        case 90: self = .right
        case 180: self = .down
        case 270: self = .left
        default: return nil
        }
    }
}
