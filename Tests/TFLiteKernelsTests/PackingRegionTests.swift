import TestSupport
import XCTest
@testable import TFLiteKernels

/// ``PackingRegion``: packed arrays carved from one huge-page mapping, scoped to a thread.
final class PackingRegionTests: XCTestCase {
    /// A region of `capacity` bytes, huge pages for all of it; skips where the system offers no
    /// transparent huge pages (the region is then never used).
    private func region(capacity: Int = 8 << 20) throws -> PackingRegion {
        guard let region = PackingRegion(capacity: capacity, expectedByteCount: capacity) else {
            throw XCTSkip("no transparent huge pages on request (/sys/kernel/mm/transparent_hugepage/enabled "
                          + "is not always or madvise, or LITEVISION_HUGE_PAGES=0): no region is made")
        }
        return region
    }

    /// The huge-page part: whole 2 MiB blocks of the estimate, one more from a rest of 256 KiB.
    func testHugePagesCoverTheEstimateRoundedAtAnEighthOfABlock() {
        let huge = HugePageMapping.hugePageBytes
        XCTAssertEqual(PackingRegion.hugeByteCount(expected: 0), 0)
        XCTAssertEqual(PackingRegion.hugeByteCount(expected: huge / 8 - 1), 0)
        XCTAssertEqual(PackingRegion.hugeByteCount(expected: huge / 8), huge)
        XCTAssertEqual(PackingRegion.hugeByteCount(expected: 2 * huge), 2 * huge)
        XCTAssertEqual(PackingRegion.hugeByteCount(expected: 2 * huge + huge / 8 - 1), 2 * huge)
        XCTAssertEqual(PackingRegion.hugeByteCount(expected: 4_697_032), 3 * huge, "efficientnet_lite0's constants: 0.5 MB past 4 MiB")
        XCTAssertEqual(PackingRegion.hugeByteCount(expected: Int.max), 0, "an estimate that overflows asks for none")
    }

    func testArraysMadeInTheScopeComeFromTheRegionZeroedAndAligned() throws {
        let region = try region()
        let (inside, nested, after) = try PackingRegion.allocating(in: region) {
            let first = try AlignedArray(zeroedCount: 1000) { (_: UnsafeMutableBufferPointer<Int16>) in }
            let nested = try PackingRegion.allocating(in: nil) { try AlignedArray<UInt8>(repeating: 7, count: 100) }
            let second = try AlignedArray(count: 3) { (buffer: UnsafeMutableBufferPointer<Float>) in
                for i in buffer.indices { buffer[i] = Float(i) }
            }
            return ([first.pointer.raw, second.pointer.raw], nested, try AlignedArray<UInt8>(repeating: 1, count: 10))
        }
        XCTAssertTrue(region.contains(inside[0]) && region.contains(inside[1]), "made from the region")
        XCTAssertEqual(inside[1] - inside[0], 2048 + 128, "2000 and 100 bytes, each rounded up to the 64-byte alignment")
        XCTAssertEqual(region.usedByteCount, 2048 + 128 + 64 + 64)
        XCTAssertTrue(region.contains(nested.pointer.raw), "a nil region inside keeps the enclosing one")
        XCTAssertTrue(region.contains(after.pointer.raw))
        let outside = try AlignedArray<UInt8>(repeating: 0, count: 10)
        XCTAssertFalse(region.contains(outside.pointer.raw), "outside the scope arrays own their memory")
        for address in inside { XCTAssertEqual(Int(bitPattern: address) % AlignedArray<UInt8>.alignment, 0) }
    }

    func testZeroedArraysReadZerosAndOtherThreadsAllocateAsUsual() throws {
        let region = try region()
        try PackingRegion.allocating(in: region) {
            let written = try AlignedArray(count: 4096) { (buffer: UnsafeMutableBufferPointer<UInt8>) in
                for i in buffer.indices { buffer[i] = 0xFF }
            }
            let zeroed = try AlignedArray(zeroedCount: 4096) { (_: UnsafeMutableBufferPointer<UInt8>) in }
            XCTAssertTrue(region.contains(zeroed.pointer.raw))
            XCTAssertTrue((0..<zeroed.count).allSatisfy { zeroed[$0] == 0 }, "space is handed out once: zero")
            XCTAssertTrue((0..<written.count).allSatisfy { written[$0] == 0xFF })
            final class Result: @unchecked Sendable { var array: AlignedArray<UInt8>? }
            let elsewhere = Result(), done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                elsewhere.array = try? AlignedArray<UInt8>(repeating: 0, count: 64)
                done.signal()
            }
            done.wait()
            let array = try XCTUnwrap(elsewhere.array)
            XCTAssertFalse(region.contains(array.pointer.raw), "the scope is this thread's only")
        }
    }

    func testAnArrayKeepsItsRegionAliveAndAFullRegionFallsBack() throws {
        var region: PackingRegion? = try self.region(capacity: HugePageMapping.hugePageBytes)
        weak let weakRegion = region
        let array = try PackingRegion.allocating(in: region) {
            try AlignedArray(count: 1 << 20) { (buffer: UnsafeMutableBufferPointer<UInt8>) in
                for i in buffer.indices { buffer[i] = UInt8(truncatingIfNeeded: i) }
            }
        }
        let overflow = try PackingRegion.allocating(in: region) { try AlignedArray<UInt8>(repeating: 3, count: 3 << 20) }
        XCTAssertFalse(region!.contains(overflow.pointer.raw), "no room: allocated on its own")
        XCTAssertEqual(overflow[(3 << 20) - 1], 3)
        region = nil
        XCTAssertNotNil(weakRegion, "the array holds its region")
        XCTAssertEqual(array[12345], UInt8(truncatingIfNeeded: 12345))
        array[0] = 9
        XCTAssertEqual(array[0], 9)
    }

    /// Releasing the unused part of the last huge page keeps what was written and reads the
    /// rest as zeros, also when later arrays continue in that page.
    func testReleasingTheUnusedTailKeepsTheDataAndLaterArraysStillWork() throws {
        let region = try region()
        let count = 2 * HugePageMapping.hugePageBytes + 12345
        let first = try PackingRegion.allocating(in: region) {
            try AlignedArray(count: count) { (buffer: UnsafeMutableBufferPointer<UInt8>) in
                for i in buffer.indices { buffer[i] = UInt8(truncatingIfNeeded: i &* 7 &+ 1) }
            }
        }
        region.releaseUnusedTail()
        XCTAssertTrue((0..<count).allSatisfy { first[$0] == UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) })
        let second = try PackingRegion.allocating(in: region) {
            try AlignedArray(zeroedCount: 100_000) { (_: UnsafeMutableBufferPointer<UInt8>) in }
        }
        XCTAssertTrue(region.contains(second.pointer.raw))
        XCTAssertTrue((0..<second.count).allSatisfy { second[$0] == 0 })
        region.releaseUnusedTail()
        XCTAssertTrue((0..<second.count).allSatisfy { second[$0] == 0 })
        XCTAssertEqual(first[count - 1], UInt8(truncatingIfNeeded: (count - 1) &* 7 &+ 1))
    }

    /// The packers write the same bytes into region memory as into their own, including the
    /// zero padding that the zeroed forms leave unwritten (seeded random shapes with tails).
    /// The depthwise weights packed into aligned memory equal their array form.
    func testPackersGiveTheSameBytesInARegion() throws {
        let region = try region()
        var rng = SeededGenerator(seed: 41)
        for _ in 0..<6 {
            let outputDepth = Int.random(in: 1...70, using: &rng), taps = Int.random(in: 1...9, using: &rng)
            let inputDepth = Int.random(in: 1...37, using: &rng)
            let weights = (0..<outputDepth * taps * inputDepth).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let floats = weights.map { Float($0) - 128 }
            func packs() throws -> [[UInt8]] {
                try weights.withUnsafeBufferPointer { w in
                    try floats.withUnsafeBufferPointer { f in
                        let quads = try Int8QuadPacking.packAligned(w.baseAddress!, outputDepth: outputDepth, taps: taps,
                                                                    inputDepth: inputDepth)
                        let pairs = try Int16PairPacking.packAligned(w.baseAddress!, offset: -3, outputDepth: outputDepth,
                                                                     taps: taps, inputDepth: inputDepth)
                        let float = try ConvFilterPacking.packFloatAligned(f.baseAddress!, outputDepth: outputDepth,
                                                                            depth: taps * inputDepth)
                        let depthwise = try ConvFilterPacking.packDepthwiseIntegerAligned(w.baseAddress!, offset: 7,
                                                                                          count: w.count)
                        XCTAssertEqual(Array(UnsafeBufferPointer(start: depthwise.pointer, count: depthwise.count)),
                                       ConvFilterPacking.packDepthwiseInteger(w.baseAddress!, offset: 7, count: w.count),
                                       "the aligned depthwise form is the array form")
                        return [Self.bytes(quads), Self.bytes(pairs), Self.bytes(float), Self.bytes(depthwise)]
                    }
                }
            }
            let own = try packs()
            let carved = try PackingRegion.allocating(in: region) { try packs() }
            XCTAssertEqual(own, carved, "outputs \(outputDepth), taps \(taps), input depth \(inputDepth)")
        }
        XCTAssertGreaterThan(region.usedByteCount, 0)
    }

    /// Huge pages are used where the kernel offers them on request, unless the environment opts out.
    func testHugePagesFollowTheKernelSettingAndTheOptOut() {
        let madvise = "always [madvise] never", always = "[always] madvise never", never = "always madvise [never]"
        XCTAssertTrue(HugePageMapping.isOffered(kernelSetting: madvise, environment: nil))
        XCTAssertTrue(HugePageMapping.isOffered(kernelSetting: always, environment: "1"))
        XCTAssertFalse(HugePageMapping.isOffered(kernelSetting: never, environment: nil))
        XCTAssertFalse(HugePageMapping.isOffered(kernelSetting: nil, environment: nil), "no sysfs: none")
        for optOut in ["0", "off", "FALSE", "no"] {
            XCTAssertFalse(HugePageMapping.isOffered(kernelSetting: madvise, environment: optOut), optOut)
            XCTAssertFalse(HugePageMapping.isOffered(kernelSetting: madvise, environment: optOut, freePagesReported: true), optOut)
        }
        // A host that takes free blocks back: off unless asked for, and never against the kernel.
        XCTAssertFalse(HugePageMapping.isOffered(kernelSetting: madvise, environment: nil, freePagesReported: true))
        XCTAssertFalse(HugePageMapping.isOffered(kernelSetting: madvise, environment: "auto", freePagesReported: true))
        for optIn in ["1", "on", "TRUE", "yes"] {
            XCTAssertTrue(HugePageMapping.isOffered(kernelSetting: madvise, environment: optIn, freePagesReported: true), optIn)
            XCTAssertFalse(HugePageMapping.isOffered(kernelSetting: never, environment: optIn), optIn)
        }
    }

    /// Free page reporting is bit 5 of a balloon device's feature string (sysfs `features`).
    func testFreePageReportingIsReadFromTheBalloonFeatureBits() {
        // The balloon of the Firecracker VM this was measured on, as sysfs shows it.
        let firecracker = "0110010100000000000000000000000010000000"
        XCTAssertTrue(HugePageMapping.reportsFreePages(balloonFeatures: [firecracker]))
        XCTAssertTrue(HugePageMapping.reportsFreePages(balloonFeatures: ["0110000000", "0000010000"]), "any device")
        XCTAssertFalse(HugePageMapping.reportsFreePages(balloonFeatures: ["0111100000000000"]), "hinting, not reporting")
        XCTAssertFalse(HugePageMapping.reportsFreePages(balloonFeatures: []), "no balloon")
        XCTAssertFalse(HugePageMapping.reportsFreePages(balloonFeatures: ["01100"]), "too short to say")
    }

    private static func bytes<Element>(_ array: AlignedArray<Element>) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: array.pointer, count: array.count * MemoryLayout<Element>.stride))
    }
}

private extension UnsafeMutablePointer {
    var raw: UnsafeRawPointer { UnsafeRawPointer(self) }
}
