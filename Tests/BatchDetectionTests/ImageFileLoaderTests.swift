@testable import BatchDetection
import Foundation
import ObjectDetection
import TestSupport
import XCTest

/// Every way an image file can be bad becomes a classified item error, never a crash.
final class ImageFileLoaderTests: XCTestCase {
    func testBrokenFilesAreClassified() throws {
        let items = try BatchWorkItems()
        defer { items.remove() }
        let loader = ImageFileLoader()
        for (path, kind) in items.broken {
            guard case .failure(let error) = loader.load(path) else { XCTFail("\(path) decoded"); continue }
            XCTAssertEqual(error.kind.rawValue, kind, "\(path): \(error)")
        }
        XCTAssertNoThrow(try loader.load(items.photos[0]).get())
    }

    func testLimitsAreCheckedBeforeReadingOrDecoding() throws {
        let items = try BatchWorkItems()
        defer { items.remove() }
        guard case .failure(let tooBig) = ImageFileLoader(maximumFileSize: 1000).load(items.photos[0]) else {
            return XCTFail("file size limit ignored")
        }
        XCTAssertEqual(tooBig.kind, .fileTooLarge)
        guard case .failure(let tooManyPixels) = ImageFileLoader(limits: ImageLimits(maxPixelCount: 100)).load(items.photos[0]) else {
            return XCTFail("pixel limit ignored")
        }
        XCTAssertEqual(tooManyPixels.kind, .invalidImage)
    }
}
