/// Bilinear sampling straight from YUV planes, through the image orientation: only the four
/// pixels each output sample reads are converted to RGB (with the same BT.601 fixed-point
/// arithmetic as ``PixelConversion``), so the result equals sampling the converted frame.
///
/// Every orientation maps each upright axis onto exactly one stored axis, so the byte offsets
/// of luma and chroma samples split into a column part and a row part, precomputed per axis.
struct YUVBilinearSampler {
    private let luma: ImagePlane
    private let uPlane: ImagePlane
    private let vPlane: ImagePlane
    private let coefficients: PixelConversion.YUVCoefficients
    private let columnLuma: ResamplingAxis, columnU: ResamplingAxis, columnV: ResamplingAxis
    private let rowLuma: ResamplingAxis, rowU: ResamplingAxis, rowV: ResamplingAxis

    /// Prepares the offset tables for `image` (a YUV format) and `layout`.
    init(image: VisionImage, layout: SamplingLayout) {
        precondition(image.format.isYUV)
        luma = image.planes[0]
        uPlane = image.planes[1]
        vPlane = image.format == .nv12 ? image.planes[1] : image.planes[2]
        coefficients = PixelConversion.YUVCoefficients.forRange(image.yuvRange)
        let chromaStep = image.format == .nv12 ? 2 : 1
        let vInPixel = image.format == .nv12 ? 1 : 0
        let shiftX = image.format == .i444 ? 0 : 1
        let shiftY = image.format == .i420 || image.format == .nv12 ? 1 : 0
        let m = image.orientation.uprightToStoredCoefficients
        let width = image.width, height = image.height
        let luma = self.luma, uPlane = self.uPlane, vPlane = self.vPlane

        /// Offsets along one upright axis whose stored coordinate is `scale · i + origin`,
        /// running along stored x (`drivesX`) or stored y.
        func axes(start: Double, length: Double, count: Int, sourceCount: Int, drivesX: Bool, scale: Int,
                  origin: Int) -> (ResamplingAxis, ResamplingAxis, ResamplingAxis) {
            func axis(_ offset: (Int) -> Int) -> ResamplingAxis {
                ResamplingAxis(start: start, length: length, outputCount: count, sourceCount: sourceCount,
                               byteOffset: { offset(scale * $0 + origin) })
            }
            if drivesX {
                return (axis { $0 }, axis { ($0 >> shiftX) * chromaStep }, axis { ($0 >> shiftX) * chromaStep })
            }
            return (axis { luma.offset + $0 * luma.bytesPerRow },
                    axis { uPlane.offset + ($0 >> shiftY) * uPlane.bytesPerRow },
                    axis { vPlane.offset + ($0 >> shiftY) * vPlane.bytesPerRow + vInPixel })
        }

        let source = layout.transform.region
        let columnsDriveX = m.a != 0
        (columnLuma, columnU, columnV) = axes(
            start: source.x, length: source.width, count: layout.contentWidth, sourceCount: layout.uprightWidth,
            drivesX: columnsDriveX, scale: columnsDriveX ? m.a : m.c,
            origin: columnsDriveX ? (m.flipX ? width - 1 : 0) : (m.flipY ? height - 1 : 0))
        (rowLuma, rowU, rowV) = axes(
            start: source.y, length: source.height, count: layout.contentHeight, sourceCount: layout.uprightHeight,
            drivesX: !columnsDriveX, scale: columnsDriveX ? m.d : m.b,
            origin: columnsDriveX ? (m.flipY ? height - 1 : 0) : (m.flipX ? width - 1 : 0))
    }

    /// Writes content row `j` (RGB, `contentWidth` pixels) into `row` starting at byte `offset`.
    func sampleRow(_ j: Int, into row: UnsafeMutableBufferPointer<UInt8>, offset: Int) {
        let k = coefficients
        let topY = rowLuma.lower[j], bottomY = rowLuma.upper[j]
        let topU = rowU.lower[j], bottomU = rowU.upper[j]
        let topV = rowV.lower[j], bottomV = rowV.upper[j]
        let fy = rowLuma.fraction[j]
        luma.bytes.withUnsafeBufferPointer { ys in
            uPlane.bytes.withUnsafeBufferPointer { us in
                vPlane.bytes.withUnsafeBufferPointer { vs in
                    @inline(__always)
                    func rgb(_ y: Int, _ u: Int, _ v: Int) -> SIMD4<Float> {
                        let yy = (Int(ys[y]) - k.lumaOffset) * k.lumaScale
                        let cb = Int(us[u]) - 128, cr = Int(vs[v]) - 128
                        let red = PixelConversion.clampToByte((yy + k.vToRed * cr + 32768) >> 16)
                        let green = PixelConversion.clampToByte((yy + 32768 - k.uToGreen * cb - k.vToGreen * cr) >> 16)
                        let blue = PixelConversion.clampToByte((yy + k.uToBlue * cb + 32768) >> 16)
                        return SIMD4<Float>(Float(red), Float(green), Float(blue), 0)
                    }
                    var o = offset
                    for i in 0..<columnLuma.lower.count {
                        let xl = columnLuma.lower[i], xu = columnLuma.upper[i]
                        let ul = columnU.lower[i], uu = columnU.upper[i]
                        let vl = columnV.lower[i], vu = columnV.upper[i]
                        let fx = columnLuma.fraction[i]
                        let a = rgb(topY + xl, topU + ul, topV + vl)
                        let b = rgb(topY + xu, topU + uu, topV + vu)
                        let c = rgb(bottomY + xl, bottomU + ul, bottomV + vl)
                        let d = rgb(bottomY + xu, bottomU + uu, bottomV + vu)
                        let upperRow = (b - a) * fx + a
                        let lowerRow = (d - c) * fx + c
                        let value = (lowerRow - upperRow) * fy + upperRow + 0.5
                        row[o] = UInt8(value[0])
                        row[o + 1] = UInt8(value[1])
                        row[o + 2] = UInt8(value[2])
                        o += 3
                    }
                }
            }
        }
    }
}
