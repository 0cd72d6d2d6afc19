import XCTest
@testable import TFLiteInterpreter
import TFLiteKernels

/// ``WeightScratch`` and the huge-page blocks of ``AlignedBuffer``: which blocks go on huge
/// pages, and the scratch's memory handed over, zeroed, to become an arena.
final class WeightScratchTests: XCTestCase {
    private let huge = HugePageMapping.hugePageBytes

    private func requireHugePages() throws {
        guard HugePageMapping.isAvailable else {
            throw XCTSkip("no transparent huge pages on request (/sys/kernel/mm/transparent_hugepage/enabled "
                          + "is not always or madvise, or LITEVISION_HUGE_PAGES=0): blocks are never on huge pages")
        }
    }

    func testWholeHugePagesAndALastOneAtLeastHalfUsedAreAskedFor() {
        XCTAssertEqual(AlignedBuffer.hugeByteCount(for: 0), 0)
        XCTAssertEqual(AlignedBuffer.hugeByteCount(for: -1), 0)
        XCTAssertEqual(AlignedBuffer.hugeByteCount(for: huge / 2 - 1), 0, "under half a huge page: none")
        XCTAssertEqual(AlignedBuffer.hugeByteCount(for: huge / 2), huge, "half a huge page: a whole one")
        XCTAssertEqual(AlignedBuffer.hugeByteCount(for: huge), huge)
        XCTAssertEqual(AlignedBuffer.hugeByteCount(for: huge + 4096), huge, "a small rest stays on 4 KiB pages")
        XCTAssertEqual(AlignedBuffer.hugeByteCount(for: 3 * huge + huge / 2), 4 * huge)
        XCTAssertEqual(AlignedBuffer.hugeByteCount(for: AlignedBuffer.maximumByteCount + 1), 0, "above the limit")
    }

    func testABlockOnHugePagesIsZeroedAlignedAndReusedWithItsWrittenBytesCleared() throws {
        try requireHugePages()
        let block = try AlignedBuffer(byteCount: huge * 3 / 4, onHugePages: true)
        XCTAssertEqual(Int(bitPattern: block.pointer) % huge, 0, "on a huge page")
        XCTAssertTrue(UnsafeRawBufferPointer(start: block.pointer, count: block.byteCount).allSatisfy { $0 == 0 })
        block.pointer.initializeMemory(as: UInt8.self, repeating: 0xA5, count: block.byteCount)
        XCTAssertNil(block.reused(asZeroed: huge + 1), "more than the mapping holds")
        let reused = try XCTUnwrap(block.reused(asZeroed: huge))
        XCTAssertEqual(reused.pointer, block.pointer, "the same memory")
        XCTAssertEqual(reused.byteCount, huge)
        XCTAssertTrue(UnsafeRawBufferPointer(start: reused.pointer, count: reused.byteCount).allSatisfy { $0 == 0 })
    }

    func testABlockOffHugePagesIsNotReused() throws {
        let small = try AlignedBuffer(byteCount: 4096, onHugePages: true)
        XCTAssertNil(small.reused(asZeroed: 4096), "under half a huge page: calloc'd, not reusable")
        let plain = try AlignedBuffer(byteCount: huge)
        XCTAssertNil(plain.reused(asZeroed: 100), "not asked to be on huge pages")
    }

    func testTheScratchHandsItsMemoryOverOnceAndOnlyWhenItFits() throws {
        try requireHugePages()
        let scratch = WeightScratch()
        let weights = try scratch.bytes(huge * 5 / 8)
        weights.initializeMemory(as: UInt8.self, repeating: 0xFF, count: huge * 5 / 8)
        XCTAssertEqual(try scratch.bytes(1000), weights, "a smaller request reuses the memory")
        XCTAssertNil(scratch.takeMemory(asZeroed: huge + 1), "an arena larger than the mapping")
        let arena = try XCTUnwrap(scratch.takeMemory(asZeroed: huge * 7 / 8))
        XCTAssertEqual(arena.pointer, weights)
        XCTAssertTrue(UnsafeRawBufferPointer(start: arena.pointer, count: arena.byteCount).allSatisfy { $0 == 0 },
                      "the weights read there are cleared")
        XCTAssertNil(scratch.takeMemory(asZeroed: 100), "handed over once")
        let next = try scratch.bytes(huge * 5 / 8)
        XCTAssertNotEqual(next, arena.pointer, "the scratch takes new memory; the arena keeps its own")
        next.initializeMemory(as: UInt8.self, repeating: 1, count: huge * 5 / 8)
        XCTAssertEqual(arena.pointer.load(as: UInt8.self), 0)
        scratch.release()
        XCTAssertNil(scratch.takeMemory(asZeroed: 100), "released")
    }
}
