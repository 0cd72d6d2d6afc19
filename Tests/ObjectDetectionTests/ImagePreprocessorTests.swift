import ObjectDetection
import TestSupport
import XCTest

final class ImagePreprocessorTests: XCTestCase {
    /// Straightforward double-precision bilinear sampling with half-pixel centers and border
    /// clamping: the oracle for the optimized resampler. Returns 8-bit RGB (rounded half up).
    static func referenceResize(_ image: RGBImage, region: ImageRect, width: Int, height: Int) -> [UInt8] {
        var out = [UInt8]()
        for j in 0..<height {
            for i in 0..<width {
                let sx = min(Double(image.width - 1), max(0, region.x + (Double(i) + 0.5) * region.width / Double(width) - 0.5))
                let sy = min(Double(image.height - 1), max(0, region.y + (Double(j) + 0.5) * region.height / Double(height) - 0.5))
                let x0 = Int(sx.rounded(.down)), y0 = Int(sy.rounded(.down))
                let x1 = min(x0 + 1, image.width - 1), y1 = min(y0 + 1, image.height - 1)
                let fx = sx - Double(x0), fy = sy - Double(y0)
                let p00 = image[x0, y0], p10 = image[x1, y0], p01 = image[x0, y1], p11 = image[x1, y1]
                for channel in 0..<3 {
                    func v(_ p: RGBColor) -> Double { Double([p.red, p.green, p.blue][channel]) }
                    let top = v(p00) * (1 - fx) + v(p10) * fx
                    let bottom = v(p01) * (1 - fx) + v(p11) * fx
                    out.append(UInt8((top * (1 - fy) + bottom * fy + 0.5).rounded(.down)))
                }
            }
        }
        return out
    }

    func rawRGB(_ width: Int, _ height: Int) throws -> ImagePreprocessor {
        try ImagePreprocessor(spec: InputTensorSpec(width: width, height: height, elementType: .uint8))
    }

    func testBilinearMatchesReferenceImplementation() throws {
        let image = try ImageTestFixtures.photoCrop("coffee.png", x: 150, y: 80, width: 97, height: 61)
        let regions: [ImageRect?] = [
            nil, ImageRect(x: 10.25, y: 3.5, width: 40.5, height: 33.75), ImageRect(x: -5, y: -7, width: 30, height: 20),
            ImageRect(x: 80, y: 50, width: 30, height: 25), ImageRect(x: 20, y: 20, width: 3, height: 2),
        ]
        let sizes = [(32, 32), (13, 29), (150, 70), (1, 1)]
        for region in regions {
            for (w, h) in sizes {
                let output = try rawRGB(w, h).makeInput(from: image, region: region)
                let reference = Self.referenceResize(image, region: region ?? ImageRect(x: 0, y: 0, width: 97, height: 61),
                                                     width: w, height: h)
                XCTAssertEqual(output.data.count, reference.count)
                var mismatches = 0
                for (a, b) in zip(output.data, reference) {
                    XCTAssertLessThanOrEqual(abs(Int(a) - Int(b)), 1)
                    if a != b { mismatches += 1 }
                }
                // Float32 vs double arithmetic may only differ at exact rounding ties.
                XCTAssertLessThanOrEqual(mismatches, max(1, reference.count / 100), "\(String(describing: region)) \(w)x\(h)")
            }
        }
    }

    func testBilinearMatchesTensorFlowResize() throws {
        // TensorFlow 2: tf.image.resize(chelsea[None], (3, 4), "bilinear", antialias=False)
        // (half-pixel centers) and the same on chelsea[50:200, 100:300] to (4, 5).
        let whole: [Double] = [148.562, 108.0, 67.938, 145.5, 99.875, 57.25, 163.125, 127.188, 100.688, 125.625, 98.562,
                               88.562, 166.562, 128.938, 103.062, 168.562, 120.438, 75.375, 156.125, 113.562, 74.625,
                               183.125, 160.625, 156.125, 177.375, 145.562, 132.375, 167.25, 118.875, 67.375, 153.5,
                               117.125, 97.25, 139.688, 117.188, 107.688]
        let crop: [Double] = [157.75, 116.375, 78.5, 128.25, 86.875, 61.75, 165.75, 128.75, 101.5, 186.375, 147.0, 116.75,
                              172.375, 132.75, 100.375, 187.25, 144.0, 111.875, 151.25, 133.25, 102.25, 58.0, 33.125, 7.75,
                              168.875, 127.375, 102.0, 184.75, 140.625, 108.625, 135.5, 92.5, 60.0, 89.125, 50.125, 20.625,
                              40.75, 19.625, 9.75, 180.625, 133.25, 95.75, 160.25, 116.25, 76.375, 136.75, 90.0, 66.75,
                              137.875, 88.875, 52.5, 159.0, 109.625, 66.75, 166.875, 108.75, 52.375, 200.375, 147.125, 92.875]
        let image = try ImageTestFixtures.photo("chelsea.png")
        let a = try rawRGB(4, 3).makeInput(from: image).data
        for (got, want) in zip(a, whole) { XCTAssertLessThanOrEqual(abs(Double(got) - want), 0.501) }
        let b = try rawRGB(5, 4).makeInput(from: image, region: ImageRect(x: 100, y: 50, width: 200, height: 150)).data
        for (got, want) in zip(b, crop) { XCTAssertLessThanOrEqual(abs(Double(got) - want), 0.501) }
        XCTAssertEqual(a.count, whole.count)
        XCTAssertEqual(b.count, crop.count)
    }

    func testNormalizationQuantizationAndColorOrder() throws {
        // A 2×1 image resized to 2×1 samples the pixels exactly.
        let image = try RGBImage(width: 2, height: 1, pixels: [0, 128, 255, 10, 20, 30])
        let float = try ImagePreprocessor(spec: InputTensorSpec(
            width: 2, height: 1, elementType: .float32,
            normalization: InputNormalization(mean: [123.675, 116.28, 103.53], std: [58.395, 57.12, 57.375])))
        let floats = try float.makeInput(from: image).data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let expected: [Float] = [(0 - 123.675) / 58.395, (128 - 116.28) / 57.12, (255 - 103.53) / 57.375,
                                 (10 - 123.675) / 58.395, (20 - 116.28) / 57.12, (30 - 103.53) / 57.375]
        for (got, want) in zip(floats, expected) { XCTAssertEqual(got, want, accuracy: 1e-6) }

        let unit = try ImagePreprocessor(spec: InputTensorSpec(width: 2, height: 1, colorOrder: .bgr, elementType: .float32,
                                                              normalization: .signedUnitInterval))
        let bgr = try unit.makeInput(from: image).data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let bgrPixels: [Float] = [255, 128, 0, 30, 20, 10]
        XCTAssertEqual(bgr, bgrPixels.map { ($0 - 127.5) / 127.5 })

        // uint8 with quantization: q = round(((p - 127.5) / 127.5) / (1/128)) + 128, clamped.
        let uint8 = try ImagePreprocessor(spec: InputTensorSpec(width: 2, height: 1, elementType: .uint8,
                                                               normalization: .signedUnitInterval,
                                                               quantization: InputQuantization(scale: 1.0 / 128, zeroPoint: 128)))
        // p = 128 → round(0.50196) + 128 = 129; p = 10 → round(-117.96) + 128 = 10.
        XCTAssertEqual(try uint8.makeInput(from: image).data, [0, 129, 255, 10, 20, 30])
        // int8 as YOLOv8 int8 exports: real = p / 255, scale 1/255, zero point -128 → p - 128.
        let int8 = try ImagePreprocessor(spec: InputTensorSpec(width: 2, height: 1, elementType: .int8,
                                                              normalization: .unitInterval,
                                                              quantization: InputQuantization(scale: 1.0 / 255, zeroPoint: -128)))
        XCTAssertEqual(try int8.makeInput(from: image).data.map { Int8(bitPattern: $0) }, [-128, 0, 127, -118, -108, -98])
        // Raw conventions without quantization.
        XCTAssertEqual(try rawRGB(2, 1).makeInput(from: image).data, [0, 128, 255, 10, 20, 30])
        let rawInt8 = try ImagePreprocessor(spec: InputTensorSpec(width: 2, height: 1, elementType: .int8))
        XCTAssertEqual(try rawInt8.makeInput(from: image).data.map { Int8(bitPattern: $0) }, [-128, 0, 127, -118, -108, -98])
        // Grayscale: (77 R + 150 G + 29 B + 128) >> 8.
        let gray = try ImagePreprocessor(spec: InputTensorSpec(width: 2, height: 1, colorOrder: .grayscale, elementType: .uint8))
        let luma0: Int = (150 * 128 + 29 * 255 + 128) >> 8
        let luma1: Int = (77 * 10 + 150 * 20 + 29 * 30 + 128) >> 8
        XCTAssertEqual(try gray.makeInput(from: image).data, [UInt8(luma0), UInt8(luma1)])
    }

    func testLetterboxPadsAndMapsBoxesBack() throws {
        let image = try ImageTestFixtures.photoCrop("motorcycle.png", x: 100, y: 100, width: 120, height: 60)
        let fill = RGBColor(red: 114, green: 114, blue: 114)
        let result = try rawRGB(64, 64).makeInput(from: image, resize: .letterbox(fill: fill))
        let t = result.transform
        XCTAssertEqual(t.padX, 0)
        XCTAssertEqual(t.padY, 16)
        XCTAssertEqual(t.scaleX, 64.0 / 120.0)
        XCTAssertEqual(t.contentRect, ImageRect(x: 0, y: 16, width: 64, height: 32))
        // Padding rows hold the fill color; content equals a plain resize to 64×32.
        XCTAssertTrue(result.data[0..<(16 * 64 * 3)].allSatisfy { $0 == 114 })
        XCTAssertTrue(result.data[(48 * 64 * 3)...].allSatisfy { $0 == 114 })
        let content = try rawRGB(64, 32).makeInput(from: image).data
        XCTAssertEqual(Array(result.data[(16 * 64 * 3)..<(48 * 64 * 3)]), content)
        // A box in the input tensor maps back to the image and forth again.
        let box = ImageRect(x: 8, y: 20, width: 32, height: 16)
        let inImage = t.imageRect(fromInput: box)
        XCTAssertEqual(inImage.x, 15, accuracy: 1e-9)
        XCTAssertEqual(inImage.y, 7.5, accuracy: 1e-9)
        XCTAssertEqual(inImage.width, 60, accuracy: 1e-9)
        XCTAssertEqual(inImage.height, 30, accuracy: 1e-9)
        XCTAssertEqual(t.inputRect(fromImage: inImage).x, box.x, accuracy: 1e-9)
        let normalized = t.imageRect(fromNormalizedInput: ImageRect(x: 0, y: 0.25, width: 1, height: 0.5))
        XCTAssertEqual(normalized.x, 0, accuracy: 1e-9)
        XCTAssertEqual(normalized.y, 0, accuracy: 1e-9)
        XCTAssertEqual(normalized.width, 120, accuracy: 1e-9)
        XCTAssertEqual(normalized.height, 60, accuracy: 1e-9)

        // Tall image: horizontal padding on both sides, rounded content width.
        let tall = try ImageTestFixtures.photoCrop("motorcycle.png", x: 0, y: 0, width: 30, height: 100)
        let tallResult = try rawRGB(50, 50).makeInput(from: tall, resize: .letterbox(fill: .black))
        XCTAssertEqual(tallResult.transform.padX, 17)
        XCTAssertEqual(tallResult.transform.contentRect.width, 15, accuracy: 1e-9)
        XCTAssertEqual(Array(tallResult.data[0..<(17 * 3)]), [UInt8](repeating: 0, count: 17 * 3))
    }

    func testCenterCropAndStretchTransforms() throws {
        let image = try ImageTestFixtures.photoCrop("rocket.png", x: 0, y: 0, width: 80, height: 40)
        let crop = try rawRGB(20, 20).makeInput(from: image, resize: .centerCrop)
        XCTAssertEqual(crop.transform.region, ImageRect(x: 20, y: 0, width: 40, height: 40))
        XCTAssertEqual(crop.data, try rawRGB(20, 20).makeInput(from: image, region: ImageRect(x: 20, y: 0, width: 40, height: 40)).data)
        let stretch = try rawRGB(20, 20).makeInput(from: VisionImage(image))
        XCTAssertEqual(stretch.transform.imageRect(fromInput: ImageRect(x: 0, y: 0, width: 20, height: 20)),
                       ImageRect(x: 0, y: 0, width: 80, height: 40))
        // Reusing a buffer gives the same bytes.
        var buffer = [UInt8](repeating: 7, count: 3)
        _ = try rawRGB(20, 20).fill(&buffer, from: image, resize: .centerCrop)
        XCTAssertEqual(buffer, crop.data)
    }

    func testPreprocessingAnOrientedBufferUsesUprightCoordinates() throws {
        let upright = try ImageTestFixtures.photoCrop("astronaut.png", x: 200, y: 100, width: 30, height: 20)
        // Build the stored buffer of a `.left` camera frame by hand: stored (sx, sy) shows upright (sy, H-1-sx).
        var left = try RGBImage(width: 20, height: 30)
        for sy in 0..<30 { for sx in 0..<20 { left[sx, sy] = upright[sy, 19 - sx] } }
        let region = ImageRect(x: 5, y: 2, width: 20, height: 10)
        for (w, h) in [(8, 4), (40, 17)] {
            let direct = try rawRGB(w, h).makeInput(from: upright, region: region)
            let viaLeft = try rawRGB(w, h).makeInput(from: VisionImage(left, orientation: .left), region: region)
            XCTAssertEqual(direct.data, viaLeft.data)
            XCTAssertEqual(direct.transform, viaLeft.transform)
            // Every orientation, with letterboxing, samples the same upright pixels.
            let fill = RGBColor(red: 1, green: 2, blue: 3)
            let reference = try rawRGB(w, h).makeInput(from: upright, region: region, resize: .letterbox(fill: fill))
            for orientation in ImageOrientation.allCases {
                let t = OrientationTransform(orientation: orientation, storedWidth: orientation.swapsDimensions ? 20 : 30,
                                             storedHeight: orientation.swapsDimensions ? 30 : 20)
                var stored = try RGBImage(width: t.storedWidth, height: t.storedHeight)
                for uy in 0..<20 {
                    for ux in 0..<30 {
                        let s = t.storedPixel(uprightX: ux, uprightY: uy)
                        stored[s.x, s.y] = upright[ux, uy]
                    }
                }
                let image = VisionImage(stored, orientation: orientation)
                XCTAssertEqual(try rawRGB(w, h).makeInput(from: image, region: region, resize: .letterbox(fill: fill)).data,
                               reference.data, "\(orientation)")
            }
        }
    }

    func testInvalidSpecsAndRegionsThrow() throws {
        let image = try RGBImage(width: 4, height: 4)
        XCTAssertThrowsError(try ImagePreprocessor(spec: InputTensorSpec(width: 0, height: 4, elementType: .uint8)))
        XCTAssertThrowsError(try ImagePreprocessor(spec: InputTensorSpec(width: 4, height: 4, elementType: .float32,
                                                                         normalization: InputNormalization(mean: [0, 0], std: [1]))))
        XCTAssertThrowsError(try ImagePreprocessor(spec: InputTensorSpec(width: 4, height: 4, elementType: .float32,
                                                                         normalization: InputNormalization(mean: [0], std: [0]))))
        XCTAssertThrowsError(try ImagePreprocessor(spec: InputTensorSpec(width: 4, height: 4, elementType: .uint8,
                                                                         quantization: InputQuantization(scale: 0, zeroPoint: 0))))
        XCTAssertThrowsError(try ImagePreprocessor(spec: InputTensorSpec(width: 4, height: 4, elementType: .int8,
                                                                         quantization: InputQuantization(scale: 1, zeroPoint: 200))))
        XCTAssertThrowsError(try ImagePreprocessor(spec: InputTensorSpec(width: 20_000, height: 20_000, elementType: .uint8)))
        let preprocessor = try rawRGB(2, 2)
        // Vanishingly small or huge regions are sampled without trapping.
        for region in [ImageRect(x: 0, y: 0, width: 0x1p-1030, height: 0x1p-1030), ImageRect(x: -1e300, y: -1e300, width: 1e308, height: 1e308)] {
            for resize in [ResizeMode.stretch, .centerCrop, .letterbox(fill: .white)] {
                XCTAssertEqual(try preprocessor.makeInput(from: image, region: region, resize: resize).data.count, 12)
            }
        }
        for region in [ImageRect(x: 10, y: 0, width: 2, height: 2), ImageRect(x: 0, y: 0, width: 0, height: 2),
                       ImageRect(x: .nan, y: 0, width: 2, height: 2), ImageRect(x: 0, y: 0, width: .infinity, height: 1)] {
            XCTAssertThrowsError(try preprocessor.makeInput(from: image, region: region)) {
                guard case .invalidRegion = $0 as? ImageError else { return XCTFail("\($0)") }
            }
        }
    }
}

final class ImagePreprocessorYUVTests: XCTestCase {
    /// Sampling straight from YUV planes must give the same bytes as converting the frame first.
    func testYUVSamplingEqualsConvertedFrameForEveryFormatAndOrientation() throws {
        var generator = SeededGenerator(seed: 99)
        let width = 23, height = 15  // odd: chroma planes round up
        let y = (0..<(width * height)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        func plane(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        let cw = 12, ch = 8
        let u420 = plane(cw * ch), v420 = plane(cw * ch)
        var uv = [UInt8]()
        for i in 0..<(cw * ch) { uv += [u420[i], v420[i], 0xAB] }  // 3-byte pairs + padding via stride below
        let uvStride = cw * 3
        let u422 = plane(cw * height), v422 = plane(cw * height)
        let u444 = plane(width * height), v444 = plane(width * height)
        let spec = InputTensorSpec(width: 9, height: 7, elementType: .float32, normalization: .unitInterval)
        let preprocessor = try ImagePreprocessor(spec: spec)
        for orientation in ImageOrientation.allCases {
            for range in [YUVColorRange.video, .full] {
                var nv12UV = [UInt8]()
                for row in 0..<ch {
                    for column in 0..<cw { nv12UV += [uv[(row * cw + column) * 3], uv[(row * cw + column) * 3 + 1]] }
                    nv12UV += [UInt8](repeating: 0xCD, count: uvStride - cw * 2)
                }
                let images = [
                    try VisionImage(nv12Y: y, uv: nv12UV, uvBytesPerRow: uvStride, width: width, height: height,
                                    range: range, orientation: orientation),
                    try VisionImage(planarYUV: .i420, y: y, u: u420, v: v420, width: width, height: height,
                                    range: range, orientation: orientation),
                    try VisionImage(planarYUV: .i422, y: y, u: u422, v: v422, width: width, height: height,
                                    range: range, orientation: orientation),
                    try VisionImage(planarYUV: .i444, y: y, u: u444, v: v444, width: width, height: height,
                                    range: range, orientation: orientation),
                ]
                let uprightW = Double(images[0].uprightWidth), uprightH = Double(images[0].uprightHeight)
                let regions: [ImageRect?] = [nil, ImageRect(x: 2.5, y: 1.25, width: uprightW / 2, height: uprightH / 2),
                                             ImageRect(x: -3, y: -2, width: uprightW, height: 6)]
                for image in images {
                    let converted = image.uprightRGB()
                    for region in regions {
                        for resize in [ResizeMode.stretch, .letterbox(fill: RGBColor(red: 9, green: 8, blue: 7))] {
                            let direct = try preprocessor.makeInput(from: image, region: region, resize: resize)
                            let reference = try preprocessor.makeInput(from: converted, region: region, resize: resize)
                            XCTAssertEqual(direct.data, reference.data, "\(image.format) \(orientation) \(range) \(String(describing: region))")
                            XCTAssertEqual(direct.transform, reference.transform)
                        }
                    }
                }
            }
        }
    }
}
