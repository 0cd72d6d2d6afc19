import TestSupport
import XCTest
@testable import TFLiteKernels

/// The patch gathers (`gatherQuads`, `gatherSignedQuads`, and the int16-pair `gatherPairs`)
/// against a plain per-value oracle on seeded random stems: 1–7 channels, filters 1×2 to 7×7,
/// strides 1–2, dilation 1–2, SAME and VALID, and random pixel ranges as thread chunks give
/// them. Their fast paths store past a patch row into the next one, so the tests also check
/// that nothing outside the range's rows is written.
final class QuantizedConvPatchesTests: XCTestCase {
    private func randomStem(_ rng: inout SeededGenerator) -> ConvolutionGeometry? {
        let kh = rng.int(1...7), kw = rng.int(1...7), stride = rng.int(1...2), dilation = rng.int(0...3) == 0 ? 2 : 1
        guard kh * kw > 1 else { return nil }
        let h = rng.int(1...20), w = rng.int(1...20), cin = rng.int(1...7)
        let padding: ConvolutionPadding = rng.int(0...1) == 0 ? .same : .valid
        let rows = ConvolutionAxis(inputSize: h, filterSize: kh, stride: stride, dilation: dilation, padding: padding)
        let cols = ConvolutionAxis(inputSize: w, filterSize: kw, stride: stride, dilation: dilation, padding: padding)
        guard rows.outputSize > 0, cols.outputSize > 0 else { return nil }
        return ConvolutionGeometry(batches: 1, inputHeight: h, inputWidth: w, inputDepth: cin,
                                   filterHeight: kh, filterWidth: kw, filterInputDepth: cin,
                                   outputHeight: rows.outputSize, outputWidth: cols.outputSize, outputDepth: 16,
                                   strideHeight: stride, strideWidth: stride, dilationHeight: dilation, dilationWidth: dilation,
                                   padTop: rows.padBefore, padLeft: cols.padBefore)
    }

    /// Pixel `p`'s window: each tap's input bytes in order, nil for taps outside the input.
    private func window(_ image: [UInt8], _ g: ConvolutionGeometry, pixel p: Int) -> [UInt8?] {
        var values: [UInt8?] = []
        let oy = p / g.outputWidth, ox = p % g.outputWidth
        for fy in 0..<g.filterHeight {
            for fx in 0..<g.filterWidth {
                let iy = oy * g.strideHeight - g.padTop + fy * g.dilationHeight
                let ix = ox * g.strideWidth - g.padLeft + fx * g.dilationWidth
                let inside = iy >= 0 && iy < g.inputHeight && ix >= 0 && ix < g.inputWidth
                for c in 0..<g.inputDepth { values.append(inside ? image[(iy * g.inputWidth + ix) * g.inputDepth + c] : nil) }
            }
        }
        return values
    }

    /// Patch row `p`: each tap's bytes with the sign bit flipped, `padding` outside the input, `tail` after.
    private func expectedRow(_ image: [UInt8], _ g: ConvolutionGeometry, pixel p: Int, stride: Int,
                             padding: UInt8, tail: UInt8) -> [UInt8] {
        let row = window(image, g, pixel: p).map { $0.map { $0 ^ 0x80 } ?? padding }
        return row + [UInt8](repeating: tail, count: stride - row.count)
    }

    /// Calls `check` with 300 seeded random stems, each with its image bytes and a random range
    /// of its output pixels, and the generator for anything else the check draws.
    private func forEachRandomStem(seed: UInt64,
                                   _ check: (ConvolutionGeometry, [UInt8], Range<Int>, inout SeededGenerator) -> Void) {
        var rng = SeededGenerator(seed: seed)
        var checked = 0
        while checked < 300 {
            guard let g = randomStem(&rng) else { continue }
            checked += 1
            let pixelCount = g.outputHeight * g.outputWidth
            let image = (0..<g.inputCount).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let start = rng.int(0...(pixelCount - 1)), end = rng.int((start + 1)...pixelCount)
            check(g, image, start..<end, &rng)
        }
    }

    func testPairPatchesMatchThePlainGatherAndStayInTheirRows() {
        forEachRandomStem(seed: 58) { g, image, pixels, rng in
            let (start, end) = (pixels.lowerBound, pixels.upperBound)
            let pixelCount = g.outputHeight * g.outputWidth
            let stride = Int16PairPacking.pairedDepth(g.filterHeight * g.filterWidth * g.inputDepth)
            let offset = Int32(rng.int(-255...255))
            let guardValue: Int16 = 0x5A5A
            var fromSigned = [Int16](repeating: guardValue, count: pixelCount * stride + 32)
            var fromUnsigned = fromSigned
            image.withUnsafeBufferPointer { x in
                x.withMemoryRebound(to: Int8.self) {
                    QuantizedConvPatches.gatherPairs($0.baseAddress!, g, pixels: start..<end, offset: offset, into: &fromSigned)
                }
                QuantizedConvPatches.gatherPairs(x.baseAddress!, g, pixels: start..<end, offset: offset, into: &fromUnsigned)
            }
            for p in 0..<pixelCount {
                let range = (p * stride)..<((p + 1) * stride)
                let inRange = (start..<end).contains(p)
                // Each input value widened plus the offset; padding and tail 0.
                let values = window(image, g, pixel: p)
                func expected(_ widen: (UInt8) -> Int16) -> [Int16] {
                    guard inRange else { return [Int16](repeating: guardValue, count: stride) }
                    return values.map { $0.map { widen($0) &+ Int16(offset) } ?? 0 } + [Int16](repeating: 0, count: stride - values.count)
                }
                XCTAssertEqual(Array(fromSigned[range]), expected { Int16(Int8(bitPattern: $0)) },
                               "int8 pixel \(p) of \(start)..<\(end), \(g)")
                XCTAssertEqual(Array(fromUnsigned[range]), expected { Int16($0) }, "uint8 pixel \(p) of \(start)..<\(end), \(g)")
            }
            XCTAssertEqual(Array(fromSigned[(pixelCount * stride)...]), [Int16](repeating: guardValue, count: 32), "\(g)")
            XCTAssertEqual(Array(fromUnsigned[(pixelCount * stride)...]), [Int16](repeating: guardValue, count: 32), "\(g)")
        }
    }

    func testQuadPatchesMatchThePlainGatherAndStayInTheirRows() {
        forEachRandomStem(seed: 57) { g, image, pixels, rng in
            let (start, end) = (pixels.lowerBound, pixels.upperBound)
            let pixelCount = g.outputHeight * g.outputWidth
            let stride = Int8QuadPacking.quadDepth(g.filterHeight * g.filterWidth * g.inputDepth)
            let inputOffset = Int32(rng.int(-128...127))
            let guardByte: UInt8 = 0x5A
            var signed = [UInt8](repeating: guardByte, count: pixelCount * stride + 32)
            var unsigned = signed
            var sums = [Int32](repeating: 0, count: pixelCount)
            image.withUnsafeBufferPointer { x in
                x.withMemoryRebound(to: Int8.self) {
                    QuantizedConvPatches.gatherQuads($0.baseAddress!, g, pixels: start..<end, inputOffset: inputOffset,
                                                     into: &signed)
                }
                QuantizedConvPatches.gatherSignedQuads(x.baseAddress!, g, pixels: start..<end, inputOffset: inputOffset,
                                                       into: &unsigned, sums: &sums)
            }
            let quadPad = UInt8(truncatingIfNeeded: 128 &- inputOffset)
            let signedPad = Int8QuadPacking.unsignedWeightPaddingByte(inputOffset: inputOffset)
            for p in 0..<pixelCount {
                let range = (p * stride)..<((p + 1) * stride)
                let inRange = (start..<end).contains(p)
                let quads = inRange ? expectedRow(image, g, pixel: p, stride: stride, padding: quadPad, tail: quadPad)
                    : [UInt8](repeating: guardByte, count: stride)
                let signedQuads = inRange ? expectedRow(image, g, pixel: p, stride: stride, padding: signedPad, tail: 0)
                    : [UInt8](repeating: guardByte, count: stride)
                XCTAssertEqual(Array(signed[range]), quads, "gatherQuads pixel \(p) of \(start)..<\(end), \(g)")
                XCTAssertEqual(Array(unsigned[range]), signedQuads, "gatherSignedQuads pixel \(p) of \(start)..<\(end), \(g)")
                if inRange {
                    XCTAssertEqual(sums[p], signedQuads.reduce(Int32(0)) { $0 + Int32(Int8(bitPattern: $1)) }, "sum of \(p)")
                }
            }
            XCTAssertEqual(Array(signed[(pixelCount * stride)...]), [UInt8](repeating: guardByte, count: 32), "\(g)")
            XCTAssertEqual(Array(unsigned[(pixelCount * stride)...]), [UInt8](repeating: guardByte, count: 32), "\(g)")
        }
    }
}
