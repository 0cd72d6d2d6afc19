@testable import BatchDetection
import Foundation
import XCTest

/// The progress line: items, items/s, errors and ETA (only when the total is known).
final class BatchProgressTests: XCTestCase {
    func testTheLineShowsItemsRateErrorsAndETA() {
        var statistics = BatchStatistics()
        statistics.items = 120
        statistics.errors = 3
        statistics.wallSeconds = 10
        statistics.expectedItems = 240
        XCTAssertEqual(BatchProgress.line(statistics, label: "shard 0/4"),
                       "shard 0/4  [##########..........]  120/240 items  12.0 items/s  3 errors  ETA 0:10")
        statistics.expectedItems = nil
        statistics.errors = 1
        XCTAssertEqual(BatchProgress.line(statistics, label: "shard 0/1"), "shard 0/1  120 items  12.0 items/s  1 error  ETA --")
        statistics.expectedItems = 120 + 12 * 3725
        XCTAssertTrue(BatchProgress.line(statistics, label: "s").hasSuffix("ETA 1:02:05"))
    }

    func testItDrawsToItsDescriptorWithCarriageReturns() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        let progress = BatchProgress(descriptor: fds[1], label: "p")
        var statistics = BatchStatistics()
        statistics.items = 1
        statistics.wallSeconds = 1
        progress.update(statistics)
        progress.update(statistics)   // within a quarter second: not redrawn
        progress.finish(statistics)
        close(fds[1])
        let text = String(decoding: FileHandle(fileDescriptor: fds[0], closeOnDealloc: true).readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "\r").count - 1, 2, text)
        XCTAssertTrue(text.hasSuffix("ETA --\n"), text)
    }
}
