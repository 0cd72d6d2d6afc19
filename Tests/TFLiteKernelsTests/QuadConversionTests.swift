import TestSupport
import MachineCode
import XCTest
@testable import TFLiteKernels

/// The activation converters of the quad layouts against plain per-byte loops: depths around the
/// 16- and 64-byte steps and past the 256-step flush of the 16-bit sums (4,100 channels), bytes
/// random and all 255 (the largest sums), pad channels zero, nothing written past the layout.
final class QuadConversionTests: XCTestCase {
    private let depths = [1, 3, 4, 15, 16, 17, 63, 64, 65, 130, 4_100]

    func testInt8ActivationsFlipTheirSignBits() {
        var rng = SeededGenerator(seed: 91)
        for depth in depths {
            for fill in [nil, Int8(-1), Int8.min] as [Int8?] {
                let pixels = rng.int(1...3)
                let x = (0..<(pixels * depth)).map { _ in fill ?? Int8(truncatingIfNeeded: rng.next()) }
                let stride = Int8QuadPacking.quadDepth(depth)
                var out = [UInt8](repeating: 0xA5, count: pixels * stride + 7)
                Int8QuadPacking.convert(x, pixels: pixels, depth: depth, into: &out)
                var expected = [UInt8](repeating: 0xA5, count: out.count)
                for p in 0..<pixels {
                    for c in 0..<stride { expected[p * stride + c] = c < depth ? UInt8(bitPattern: x[p * depth + c]) ^ 0x80 : 0 }
                }
                XCTAssertEqual(out, expected, "depth \(depth)")
            }
        }
    }

    /// The generated flip at every width the CPU has: it converts whole steps only, leaving the
    /// rest (and the bytes past `count`) untouched, at counts around the step sizes.
    func testGeneratedSignFlipAtEveryWidth() throws {
        guard let features = CPUFeatures.current, features.supportedLevel >= .avx2 else {
            throw XCTSkip("this CPU has no AVX2: no generated flip to test")
        }
        let levels: [InstructionSetLevel] = features.supportedLevel >= .avx512 ? [.avx2, .avx512] : [.avx2]
        var rng = SeededGenerator(seed: 93)
        for level in levels {
            let kernels = try GeneratedKernels(level: level)
            let flip = try XCTUnwrap(kernels.flipSignBits)
            XCTAssertEqual(flip.bytesPerStep, level >= .avx512 ? 256 : 128)
            for count in [0, 1, flip.bytesPerStep - 1, flip.bytesPerStep, flip.bytesPerStep + 1, 3 * flip.bytesPerStep + 77] {
                let x = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                var out = [UInt8](repeating: 0xA5, count: count + 64)
                let done = x.withUnsafeBufferPointer { xs in
                    out.withUnsafeMutableBufferPointer { o in
                        Int8QuadPacking.flipSignBitsGenerated(flip.function, bytesPerStep: flip.bytesPerStep,
                                                              xs.baseAddress ?? UnsafePointer(o.baseAddress!), count: count,
                                                              into: o.baseAddress!)
                    }
                }
                XCTAssertEqual(done, count / flip.bytesPerStep * flip.bytesPerStep, "\(level) count \(count)")
                let expected = (0..<out.count).map { $0 < done ? x[$0] ^ 0x80 : 0xA5 }
                XCTAssertEqual(out, expected, "\(level) count \(count)")
            }
        }
    }

    func testUInt8ActivationsFlipAndSum() {
        var rng = SeededGenerator(seed: 92)
        for depth in depths {
            for fill in [nil, UInt8(255), UInt8(0)] as [UInt8?] {
                let pixels = rng.int(1...3)
                let x = (0..<(pixels * depth)).map { _ in fill ?? UInt8(truncatingIfNeeded: rng.next()) }
                let stride = Int8QuadPacking.quadDepth(depth)
                var out = [UInt8](repeating: 0xA5, count: pixels * stride + 7)
                var sums = [Int32](repeating: 0, count: pixels)
                Int8QuadPacking.convert(x, pixels: pixels, depth: depth, into: &out, sums: &sums)
                var expected = [UInt8](repeating: 0xA5, count: out.count)
                for p in 0..<pixels {
                    for c in 0..<stride { expected[p * stride + c] = c < depth ? x[p * depth + c] ^ 0x80 : 0 }
                    let sum = (0..<depth).reduce(Int32(0)) { $0 + Int32(x[p * depth + $1]) - 128 }
                    XCTAssertEqual(sums[p], sum, "depth \(depth) pixel \(p)")
                }
                XCTAssertEqual(out, expected, "depth \(depth)")
            }
        }
    }

    /// The generated uint8 conversion with pixel sums at every width the CPU has, against the
    /// per-byte loop: depths of whole vectors and of every tail part (16, 32, 48 bytes past them),
    /// bytes random, all 255 and all 0, 0 to 5 pixels; nothing written past the pixels or their
    /// sums. The argument block's layout is the one the kernel reads.
    func testGeneratedPixelSumsAtEveryWidth() throws {
        XCTAssertEqual(MemoryLayout<GeneratedPixelSumArguments>.offset(of: \.vectorsPerPixel),
                       Int(GeneratedPixelSumArguments.Field.vectorsPerPixel))
        XCTAssertEqual(MemoryLayout<GeneratedPixelSumArguments>.offset(of: \.tailBytes), Int(GeneratedPixelSumArguments.Field.tailBytes))
        XCTAssertEqual(MemoryLayout<GeneratedPixelSumArguments>.offset(of: \.sums), Int(GeneratedPixelSumArguments.Field.sums))
        XCTAssertEqual(MemoryLayout<GeneratedPixelSumArguments>.offset(of: \.offset), Int(GeneratedPixelSumArguments.Field.offset))
        guard let features = CPUFeatures.current, features.supportedLevel >= .avx2 else {
            throw XCTSkip("this CPU has no AVX2: no generated pixel sums to test")
        }
        let levels: [InstructionSetLevel] = features.supportedLevel >= .avx512 ? [.avx2, .avx512] : [.avx2]
        var rng = SeededGenerator(seed: 94)
        for level in levels {
            let kernels = try GeneratedKernels(level: level)
            let sumsKernel = try XCTUnwrap(kernels.flipSignBitsPixelSums)
            XCTAssertEqual(sumsKernel.vectorBytes, level >= .avx512 ? 64 : 32)
            for depth in [16, 32, 48, 64, 80, 96, 112, 128, 144, 176, 240, 256, 272, 4_096] {
                for fill in [nil, UInt8(255), UInt8(0)] as [UInt8?] {
                    let pixels = rng.int(0...5)
                    let x = (0..<(pixels * depth)).map { _ in fill ?? UInt8(truncatingIfNeeded: rng.next()) }
                    var out = [UInt8](repeating: 0xA5, count: pixels * depth + 64)
                    var sums = [Int32](repeating: 77, count: pixels + 2)
                    x.withUnsafeBufferPointer { xs in
                        out.withUnsafeMutableBufferPointer { o in
                            sums.withUnsafeMutableBufferPointer { s in
                                Int8QuadPacking.convertGenerated(sumsKernel.function, vectorBytes: sumsKernel.vectorBytes,
                                                                 xs.baseAddress ?? UnsafePointer(o.baseAddress!), pixels: pixels,
                                                                 depth: depth, into: o.baseAddress!, sums: s.baseAddress!)
                            }
                        }
                    }
                    let expected = (0..<out.count).map { $0 < x.count ? x[$0] ^ 0x80 : 0xA5 }
                    XCTAssertEqual(out, expected, "\(level) depth \(depth)")
                    let expectedSums = (0..<sums.count).map { p in
                        p < pixels ? (0..<depth).reduce(Int32(0)) { $0 + Int32(x[p * depth + $1]) - 128 } : 77
                    }
                    XCTAssertEqual(sums, expectedSums, "\(level) depth \(depth) fill \(String(describing: fill))")
                }
            }
        }
    }
}
