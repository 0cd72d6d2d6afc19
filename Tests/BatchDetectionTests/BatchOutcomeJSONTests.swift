@testable import BatchDetection
import Foundation
import ObjectDetection
import XCTest

/// The `detect --jsonl` record of an outcome: the id with the keys of `detect --json`, or the
/// id with the error (a contract of the command line).
final class BatchOutcomeJSONTests: XCTestCase {
    func testSuccessRecordHasTheImageRecordKeys() throws {
        let object = DetectedObject(frame: CGRect(x: 1.26, y: 2, width: 3, height: 4), trackingID: 1,
                                    labels: [ObjectLabel(text: "Food", index: 1, confidence: 0.84375)])
        let outcome = BatchOutcome(ordinal: 0, id: .integer(5), path: "dir/a.png",
                                   result: .success(.init(width: 60, height: 40, objects: [object])))
        XCTAssertEqual(try DetectionJSON.line(outcome),
                       #"{"height":40,"id":5,"image":"dir/a.png","objects":[{"frame":{"height":4,"width":3,"x":1.3,"y":2},"#
                       + #""labels":[{"confidence":0.8438,"index":1,"text":"Food"}],"trackingID":1}],"width":60}"#)
    }

    func testFailureRecordCarriesTheError() throws {
        let outcome = BatchOutcome(ordinal: 1, id: .string("b"), path: "missing.png",
                                   result: .failure(BatchItemError(.notFound, "no file at missing.png")))
        XCTAssertEqual(try DetectionJSON.line(outcome),
                       #"{"error":{"kind":"notFound","message":"no file at missing.png"},"id":"b"}"#)
    }
}
