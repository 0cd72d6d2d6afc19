/// Conversion kernels from the stored pixel formats to RGB8 and orientation remapping.
///
/// Inputs are validated planes (see ``ImagePlane``), so the loops index without further checks.
enum PixelConversion {
    /// BT.601 YUV→RGB coefficients in 16.16 fixed point for one range.
    struct YUVCoefficients {
        let lumaOffset: Int
        let lumaScale: Int
        let vToRed: Int
        let uToGreen: Int
        let vToGreen: Int
        let uToBlue: Int

        /// Limited range: Y 16...235, chroma 16...240 (R = 1.164(Y−16) + 1.596(V−128) …).
        static let video = YUVCoefficients(lumaOffset: 16, lumaScale: 76309, vToRed: 104597,
                                           uToGreen: 25675, vToGreen: 53279, uToBlue: 132201)
        /// Full (JPEG) range: R = Y + 1.402(V−128), G = Y − 0.344136(U−128) − 0.714136(V−128),
        /// B = Y + 1.772(U−128).
        static let full = YUVCoefficients(lumaOffset: 0, lumaScale: 65536, vToRed: 91881,
                                          uToGreen: 22554, vToGreen: 46802, uToBlue: 116130)

        static func forRange(_ range: YUVColorRange) -> YUVCoefficients {
            range == .video ? .video : .full
        }
    }

    @inline(__always)
    static func clampToByte(_ value: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: value < 0 ? 0 : (value > 255 ? 255 : value))
    }

    /// Writes `image`'s stored pixels as tightly packed RGB into `out` (`width × height × 3`).
    static func convertToRGB(_ image: VisionImage, into out: inout [UInt8]) {
        let width = image.width, height = image.height
        precondition(out.count == width * height * 3)
        out.withUnsafeMutableBufferPointer { dst in
            switch image.format {
            case .rgb8, .rgba8, .bgra8, .gray8:
                convertPacked(image.planes[0], format: image.format, width: width, height: height, into: dst)
            case .nv12:
                convertYUV(luma: image.planes[0], u: image.planes[1], uOffset: 0, v: image.planes[1], vOffset: 1,
                           chromaStep: 2, shiftX: 1, shiftY: 1, range: image.yuvRange,
                           width: width, height: height, into: dst)
            case .i420, .i422, .i444:
                let shiftX = image.format == .i444 ? 0 : 1
                let shiftY = image.format == .i420 ? 1 : 0
                convertYUV(luma: image.planes[0], u: image.planes[1], uOffset: 0, v: image.planes[2], vOffset: 0,
                           chromaStep: 1, shiftX: shiftX, shiftY: shiftY, range: image.yuvRange,
                           width: width, height: height, into: dst)
            }
        }
    }

    private static func convertPacked(_ plane: ImagePlane, format: PixelFormat, width: Int, height: Int,
                                      into dst: UnsafeMutableBufferPointer<UInt8>) {
        plane.bytes.withUnsafeBufferPointer { src in
            for row in 0..<height {
                var s = plane.offset + row * plane.bytesPerRow
                var d = row * width * 3
                switch format {
                case .rgb8:
                    for i in 0..<(width * 3) { dst[d + i] = src[s + i] }
                case .rgba8:
                    for _ in 0..<width {
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]
                        s += 4; d += 3
                    }
                case .bgra8:
                    for _ in 0..<width {
                        dst[d] = src[s + 2]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s]
                        s += 4; d += 3
                    }
                case .gray8:
                    for _ in 0..<width {
                        let g = src[s]
                        dst[d] = g; dst[d + 1] = g; dst[d + 2] = g
                        s += 1; d += 3
                    }
                default:
                    preconditionFailure("not a packed format")
                }
            }
        }
    }

    // swiftlint:disable:next function_parameter_count
    private static func convertYUV(luma: ImagePlane, u: ImagePlane, uOffset: Int, v: ImagePlane, vOffset: Int,
                                   chromaStep: Int, shiftX: Int, shiftY: Int, range: YUVColorRange,
                                   width: Int, height: Int, into dst: UnsafeMutableBufferPointer<UInt8>) {
        let k = YUVCoefficients.forRange(range)
        let lumaOffset = k.lumaOffset, lumaScale = k.lumaScale
        let vToRed = k.vToRed, uToGreen = k.uToGreen, vToGreen = k.vToGreen, uToBlue = k.uToBlue
        luma.bytes.withUnsafeBufferPointer { ys in
            u.bytes.withUnsafeBufferPointer { us in
                v.bytes.withUnsafeBufferPointer { vs in
                    for row in 0..<height {
                        let yRow = luma.offset + row * luma.bytesPerRow
                        let cRow = row >> shiftY
                        var uIndex = u.offset + cRow * u.bytesPerRow + uOffset
                        var vIndex = v.offset + cRow * v.bytesPerRow + vOffset
                        var d = row * width * 3
                        var x = 0
                        // Each chroma sample covers 1 (4:4:4) or 2 (subsampled) luma samples.
                        let run = 1 << shiftX
                        while x < width {
                            let cb = Int(us[uIndex]) - 128
                            let cr = Int(vs[vIndex]) - 128
                            let red = vToRed * cr + 32768
                            let green = 32768 - uToGreen * cb - vToGreen * cr
                            let blue = uToBlue * cb + 32768
                            let end = min(width, x + run)
                            while x < end {
                                let yy = (Int(ys[yRow + x]) - lumaOffset) * lumaScale
                                dst[d] = clampToByte((yy + red) >> 16)
                                dst[d + 1] = clampToByte((yy + green) >> 16)
                                dst[d + 2] = clampToByte((yy + blue) >> 16)
                                d += 3
                                x += 1
                            }
                            uIndex += chromaStep
                            vIndex += chromaStep
                        }
                    }
                }
            }
        }
    }

    /// Converts a YUV image straight to its upright RGB form in one pass (no intermediate
    /// stored-orientation copy), in square tiles so 90° turns stay within cache.
    static func uprightRGB(fromYUV image: VisionImage) -> RGBImage {
        let mapping = YUVPlaneMapping(image)
        let outWidth = image.uprightWidth, outHeight = image.uprightHeight
        let columnOffsets = mapping.offsets(columns: true), rowOffsets = mapping.offsets(columns: false)
        let columnY = (0..<outWidth).map(columnOffsets.luma), rowY = (0..<outHeight).map(rowOffsets.luma)
        let columnU = (0..<outWidth).map(columnOffsets.u), rowU = (0..<outHeight).map(rowOffsets.u)
        let columnV = (0..<outWidth).map(columnOffsets.v), rowV = (0..<outHeight).map(rowOffsets.v)
        let k = mapping.coefficients
        let lumaOffset = k.lumaOffset, lumaScale = k.lumaScale
        let vToRed = k.vToRed, uToGreen = k.uToGreen, vToGreen = k.vToGreen, uToBlue = k.uToBlue
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * 3)
        let tile = 32
        out.withUnsafeMutableBufferPointer { dst in
            mapping.luma.bytes.withUnsafeBufferPointer { ys in
                mapping.uPlane.bytes.withUnsafeBufferPointer { us in
                    mapping.vPlane.bytes.withUnsafeBufferPointer { vs in
                        columnY.withUnsafeBufferPointer { cy in
                            columnU.withUnsafeBufferPointer { cu in
                                columnV.withUnsafeBufferPointer { cv in
                                    for tileY in stride(from: 0, to: outHeight, by: tile) {
                                        for tileX in stride(from: 0, to: outWidth, by: tile) {
                                            let endX = min(outWidth, tileX + tile)
                                            for y in tileY..<min(outHeight, tileY + tile) {
                                                let ry = rowY[y], ru = rowU[y], rv = rowV[y]
                                                var d = (y * outWidth + tileX) * 3
                                                for x in tileX..<endX {
                                                    let yy = (Int(ys[ry + cy[x]]) - lumaOffset) * lumaScale
                                                    let cb = Int(us[ru + cu[x]]) - 128
                                                    let cr = Int(vs[rv + cv[x]]) - 128
                                                    dst[d] = clampToByte((yy + vToRed * cr + 32768) >> 16)
                                                    dst[d + 1] = clampToByte((yy + 32768 - uToGreen * cb - vToGreen * cr) >> 16)
                                                    dst[d + 2] = clampToByte((yy + uToBlue * cb + 32768) >> 16)
                                                    d += 3
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return RGBImage(validatedWidth: outWidth, height: outHeight, pixels: out)
    }

    /// Returns the upright version of a stored RGB image with the given orientation.
    static func reorient(_ stored: RGBImage, orientation: ImageOrientation) -> RGBImage {
        let transform = OrientationTransform(orientation: orientation, storedWidth: stored.width,
                                             storedHeight: stored.height)
        let outWidth = transform.uprightWidth, outHeight = transform.uprightHeight
        let m = orientation.uprightToStoredCoefficients
        // Moving one upright pixel right moves (a, c) in the stored buffer.
        let step = (m.c * stored.width + m.a) * 3
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * 3)
        // Square tiles keep both the reads and the writes of a 90° turn within cache.
        let tile = 32
        stored.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for tileY in stride(from: 0, to: outHeight, by: tile) {
                    for tileX in stride(from: 0, to: outWidth, by: tile) {
                        let columns = min(tile, outWidth - tileX)
                        for y in tileY..<min(outHeight, tileY + tile) {
                            let start = transform.storedPixel(uprightX: tileX, uprightY: y)
                            var s = (start.y * stored.width + start.x) * 3
                            var d = (y * outWidth + tileX) * 3
                            for _ in 0..<columns {
                                dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]
                                s += step; d += 3
                            }
                        }
                    }
                }
            }
        }
        return RGBImage(validatedWidth: outWidth, height: outHeight, pixels: out)
    }
}
