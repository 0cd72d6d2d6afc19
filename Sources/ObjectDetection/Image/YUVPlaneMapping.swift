/// Byte offsets of the luma and chroma samples of upright pixels in a YUV buffer.
///
/// Every orientation maps each upright axis onto exactly one stored axis, so the offset of the
/// Y, U or V sample of upright pixel `(ux, uy)` is `column(ux) + row(uy)` for that plane; this
/// type computes both parts (plane base offsets and the NV12 V byte are in the row part when
/// rows run along stored y, otherwise in the column part).
struct YUVPlaneMapping {
    /// The luma plane.
    let luma: ImagePlane
    /// The plane holding U (Cb) samples.
    let uPlane: ImagePlane
    /// The plane holding V (Cr) samples (the UV plane again for NV12).
    let vPlane: ImagePlane
    /// YUV→RGB coefficients of the image's range.
    let coefficients: PixelConversion.YUVCoefficients
    private let chromaStep: Int, vInPixel: Int, shiftX: Int, shiftY: Int
    private let orientation: ImageOrientation
    private let width: Int, height: Int

    /// The mapping for a YUV image.
    init(_ image: VisionImage) {
        precondition(image.format.isYUV)
        luma = image.planes[0]
        uPlane = image.planes[1]
        vPlane = image.format == .nv12 ? image.planes[1] : image.planes[2]
        coefficients = PixelConversion.YUVCoefficients.forRange(image.yuvRange)
        chromaStep = image.format == .nv12 ? 2 : 1
        vInPixel = image.format == .nv12 ? 1 : 0
        shiftX = image.format == .i444 ? 0 : 1
        shiftY = image.format == .i420 || image.format == .nv12 ? 1 : 0
        orientation = image.orientation
        width = image.width
        height = image.height
    }

    /// Offset functions (Y, U, V) of the upright column index (`columns`) or row index.
    func offsets(columns: Bool) -> (luma: (Int) -> Int, u: (Int) -> Int, v: (Int) -> Int) {
        let m = orientation.uprightToStoredCoefficients
        let columnsDriveX = m.a != 0
        let drivesX = columns == columnsDriveX
        // Stored coordinate along the driven axis: scale · i + origin.
        let scale = columns ? (columnsDriveX ? m.a : m.c) : (columnsDriveX ? m.d : m.b)
        let origin = drivesX ? (m.flipX ? width - 1 : 0) : (m.flipY ? height - 1 : 0)
        let shiftX = self.shiftX, shiftY = self.shiftY, chromaStep = self.chromaStep, vInPixel = self.vInPixel
        let luma = self.luma, uPlane = self.uPlane, vPlane = self.vPlane
        if drivesX {
            return ({ scale * $0 + origin },
                    { ((scale * $0 + origin) >> shiftX) * chromaStep },
                    { ((scale * $0 + origin) >> shiftX) * chromaStep })
        }
        return ({ luma.offset + (scale * $0 + origin) * luma.bytesPerRow },
                { uPlane.offset + ((scale * $0 + origin) >> shiftY) * uPlane.bytesPerRow },
                { vPlane.offset + ((scale * $0 + origin) >> shiftY) * vPlane.bytesPerRow + vInPixel })
    }
}
