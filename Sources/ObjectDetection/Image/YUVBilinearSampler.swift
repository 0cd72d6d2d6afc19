/// Bilinear sampling straight from YUV planes, through the image orientation: only the four
/// pixels each output sample reads are converted to RGB (with the same BT.601 fixed-point
/// arithmetic as ``PixelConversion``), so the result equals sampling the converted frame.
///
/// Sample offsets come from ``YUVPlaneMapping``, precomputed per output column and row.
struct YUVBilinearSampler {
    private let luma: ImagePlane
    private let uPlane: ImagePlane
    private let vPlane: ImagePlane
    private let coefficients: PixelConversion.YUVCoefficients
    private let columnLuma: ResamplingAxis, columnU: ResamplingAxis, columnV: ResamplingAxis
    private let rowLuma: ResamplingAxis, rowU: ResamplingAxis, rowV: ResamplingAxis

    /// Prepares the offset tables for `image` (a YUV format) and `layout`.
    init(image: VisionImage, layout: SamplingLayout) {
        let mapping = YUVPlaneMapping(image)
        luma = mapping.luma
        uPlane = mapping.uPlane
        vPlane = mapping.vPlane
        coefficients = mapping.coefficients
        let source = layout.transform.region
        func axes(columns: Bool) -> (ResamplingAxis, ResamplingAxis, ResamplingAxis) {
            let offsets = mapping.offsets(columns: columns)
            let start = columns ? source.x : source.y, length = columns ? source.width : source.height
            let count = columns ? layout.contentWidth : layout.contentHeight
            let sourceCount = columns ? layout.uprightWidth : layout.uprightHeight
            func axis(_ offset: (Int) -> Int) -> ResamplingAxis {
                ResamplingAxis(start: start, length: length, outputCount: count, sourceCount: sourceCount,
                               byteOffset: offset)
            }
            return (axis(offsets.luma), axis(offsets.u), axis(offsets.v))
        }
        (columnLuma, columnU, columnV) = axes(columns: true)
        (rowLuma, rowU, rowV) = axes(columns: false)
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
