import Foundation
@testable import TFLiteInterpreter
import TFLiteKernels
import TFLiteSchema
import TestSupport
import XCTest

/// The per-thread kernel workspace (``ThreadWorkspaceSlot``): every node that asks for one
/// shares one region of the arena — one block per pool thread, as large as the largest request,
/// live for the whole run — so the arena counts it once and every layer's kernel finds its
/// temporaries at the same addresses. (That poisoning the arena, workspace included, changes no
/// output at 1 and 2 threads is `ScratchArenaTests.testDepthwiseModelsIgnorePoisonedArenaAtOneAndTwoThreads`'s
/// check on the same models.)
final class ThreadWorkspaceTests: XCTestCase {
    /// A float model (float GEMMs, a MAX_POOL) and an 8-bit one (integer GEMMs, softmax).
    static let models = ["face_detection_full_range.tflite", "efficientnet_lite0.tflite"]

    func testEveryNodeSharesOneBlockPerThreadInTheArena() throws {
        var checked = 0, skipped: [String] = []
        for name in Self.models {
            let path: String
            do { path = try TestPaths.model(name) } catch let skip as XCTSkip { skipped.append(skip.message ?? name); continue }
            let model = try Model(file: TFLiteModelFile(contentsOf: path))
            for threads in [1, 2] {
                let executor = SubgraphExecutor(blueprint: model.subgraphs[0], threads: ThreadPool(threadCount: threads))
                try executor.prepare()
                let region = executor.workspaceRegion()
                XCTAssertGreaterThan(region.slots.count, 1, "\(name): nodes with a workspace")
                XCTAssertEqual(region.threadCount, threads, name)
                XCTAssertEqual(region.blockStride % AlignedBuffer.alignment, 0, name)
                let base = try XCTUnwrap(region.slots.first?.base, "\(name): workspace not placed")
                XCTAssertEqual(Int(bitPattern: base) % AlignedBuffer.alignment, 0, name)
                for slot in region.slots {
                    XCTAssertFalse(slot.hasOwnMemory, "\(name): a workspace outside the arena")
                    XCTAssertEqual(slot.base, base, "\(name): every node's workspace at the same addresses")
                    XCTAssertEqual(slot.blockStride, region.blockStride, name)
                    XCTAssertLessThanOrEqual(slot.bytesPerThread, region.blockStride, name)
                    for worker in 0..<threads {
                        let block = slot.workspace(worker)
                        XCTAssertEqual(block.start, base + worker * region.blockStride, "\(name): block of worker \(worker)")
                        XCTAssertGreaterThanOrEqual(block.byteCount, slot.bytesPerThread, name)
                    }
                }
                XCTAssertEqual(region.blockStride, max(AlignedBuffer.alignment, region.slots.map(\.alignedBytesPerThread).max() ?? 0),
                               "\(name): blocks as large as the largest request")
                // The region is the arena's last request, live for the whole run, and the arena holds it.
                let (_, requests, _) = try executor.arenaRequests()
                let last = try XCTUnwrap(requests.last)
                XCTAssertEqual(last.byteCount, threads * region.blockStride, name)
                XCTAssertEqual(last.firstUse, 0, name)
                XCTAssertEqual(last.lastUse, max(0, executor.runOrder.count - 1), name)
                XCTAssertGreaterThanOrEqual(executor.arenaByteCount, ArenaPlanner.peakLiveByteCount(requests), name)
            }
            checked += 1
        }
        if checked == 0 { throw TestEnvironment.missing("no model present: \(skipped.joined(separator: "; "))") }
        TestEnvironment.reportSkipped(skipped)
    }

    /// Outside an interpreter (no ``NodeScratch``), a request gets its own blocks at once.
    func testRequestOutsideAnInterpreterHasItsOwnBlocks() throws {
        let slot = ThreadWorkspaceSlot(threadCount: 3)
        slot.require(100)
        slot.require(40)
        XCTAssertEqual(slot.bytesPerThread, 100, "the largest request")
        try slot.allocateOwn()
        XCTAssertTrue(slot.hasOwnMemory)
        XCTAssertEqual(slot.ownByteCount, 3 * 128)
        for worker in 0..<3 {
            let block = slot.workspace(worker)
            XCTAssertEqual(block.byteCount, 128)
            XCTAssertEqual(Int(bitPattern: block.start) % AlignedBuffer.alignment, 0)
            XCTAssertEqual(block.start, slot.workspace(0).start + worker * 128)
        }
    }
}
