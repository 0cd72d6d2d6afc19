import Foundation
import ObjectDetection
import XCTest

/// The library's JSON records and annotation of detection results, which `litevision detect`
/// and `track` print and draw: keys, rounding, `null`s and the exact bytes of a line are a
/// contract of the command line.
final class DetectionRecordTests: XCTestCase {
    private let labelled = DetectedObject(frame: CGRect(x: 12.345, y: 40.04, width: 64, height: 80.45), trackingID: nil,
                                          labels: [ObjectLabel(text: "Food", index: 3, confidence: 0.87314),
                                                   ObjectLabel(text: nil, index: 0, confidence: 0.1)])
    private let tracked = DetectedObject(frame: CGRect(x: 0, y: 0, width: 10, height: 20), trackingID: 7, labels: [])

    func testObjectRecordRoundsAndWritesNulls() throws {
        let record = DetectedObjectRecord(labelled)
        XCTAssertEqual(record.frame, DetectedObjectRecord.Frame(x: 12.3, y: 40, width: 64, height: 80.5))
        XCTAssertEqual(record.labels.map(\.confidence), [0.8731, 0.1])
        XCTAssertEqual(try DetectionJSON.line(record),
                       #"{"frame":{"height":80.5,"width":64,"x":12.3,"y":40},"labels":[{"confidence":0.8731,"index":3,"text":"Food"},"#
                       + #"{"confidence":0.1,"index":0,"text":null}],"trackingID":null}"#)
    }

    func testImageAndFrameRecordsKeepTheCommandLineKeys() throws {
        let image = ImageDetectionRecord(image: "photos/a.png", width: 600, height: 400, objects: [tracked])
        XCTAssertEqual(try DetectionJSON.line(image),
                       #"{"height":400,"image":"photos/a.png","objects":[{"frame":{"height":20,"width":10,"x":0,"y":0},"#
                       + #""labels":[],"trackingID":7}],"width":600}"#, "sorted keys, slashes not escaped")
        let frame = FrameDetectionRecord(frame: 4, objects: [DetectedObject]())
        XCTAssertEqual(try DetectionJSON.line(frame), #"{"frame":4,"objects":[]}"#)
    }

    func testRecordsRoundTripThroughJSON() throws {
        let image = ImageDetectionRecord(image: "a.png", width: 3, height: 2, objects: [labelled, tracked])
        let decoded = try JSONDecoder().decode(ImageDetectionRecord.self, from: Data(try DetectionJSON.line(image).utf8))
        XCTAssertEqual(decoded, image)
        let frame = FrameDetectionRecord(frame: 1, objects: [labelled])
        XCTAssertEqual(try JSONDecoder().decode(FrameDetectionRecord.self, from: JSONEncoder().encode(frame)), frame)
    }

    func testCaptionsAndSummaryLines() {
        XCTAssertEqual(labelled.labels.map(\.caption), ["Food 0.87", "class 0 0.10"])
        XCTAssertEqual(labelled.summary, "[x 12 y 40 w 64 h 80] Food 0.87, class 0 0.10")
        XCTAssertEqual(tracked.summary, "#7 [x 0 y 0 w 10 h 20]")
    }

    func testAnnotationDrawsTheBestLabelAndTrackingID() throws {
        let annotation = ImageAnnotation(DetectedObject(frame: labelled.frame, trackingID: 2, labels: labelled.labels))
        XCTAssertEqual(annotation.frame, ImageRect(x: 12.345, y: 40.04, width: 64, height: 80.45))
        XCTAssertEqual(annotation.caption, "#2 Food 0.87")
        XCTAssertNil(ImageAnnotation(tracked).label)

        let image = VisionImage(try RGBImage(width: 40, height: 30, fill: RGBColor(red: 10, green: 20, blue: 30)))
        let objects = [DetectedObject(frame: CGRect(x: 5, y: 5, width: 20, height: 12), trackingID: 1,
                                      labels: [ObjectLabel(text: "Food", index: 1, confidence: 0.5)])]
        let drawn = image.annotated(with: objects)
        XCTAssertEqual(drawn, image.uprightRGB().annotated(with: objects.map(ImageAnnotation.init)))
        XCTAssertNotEqual(drawn, image.uprightRGB(), "the box is drawn")
    }
}
