import Foundation
import TFLiteSchema
import TestSupport
import XCTest

/// Side-car label files in their common layouts.
final class LabelListTests: XCTestCase {
    func testPlainLinesWithWindowsEndingsAndNoFinalNewline() {
        XCTAssertEqual(LabelList(text: "ClownFish\r\nroses").labels, ["ClownFish", "roses"])
        XCTAssertEqual(LabelList(text: "a\nb\n\n").labels, ["a", "b"])
        XCTAssertEqual(LabelList(text: "\u{FEFF}a\n\nc\n").labels, ["a", "", "c"], "inner empty line keeps its index")
        XCTAssertEqual(LabelList(text: "").labels, [])
    }

    func testIndexNameLines() {
        XCTAssertEqual(LabelList(text: "0 mustard\n1 chili\n2 compostable-fork\n").labels,
                       ["mustard", "chili", "compostable-fork"])
        XCTAssertEqual(LabelList(text: "1 person\n3 car\n").labels, ["", "person", "", "car"])
        XCTAssertEqual(LabelList(text: "0 a\nb\n").labels, ["0 a", "b"], "mixed files stay plain")
        XCTAssertEqual(LabelList(text: "999999999 huge\n").labels, ["999999999 huge"], "absurd indices stay plain")
    }

    func testUltralyticsNames() {
        let text = "{'task': 'detect', 'names': {0: 'person', 1: \"it's\", 3: 'a\\'b'}, 'imgsz': [640, 640]}"
        XCTAssertEqual(LabelList(ultralyticsMetadata: text)?.labels, ["person", "it's", "", "a'b"])
        XCTAssertNil(LabelList(ultralyticsMetadata: "{'task': 'detect'}"))
        XCTAssertNil(LabelList(ultralyticsMetadata: "{'names': {0: 'unterminated"))
        XCTAssertNil(LabelList(ultralyticsMetadata: "{'names': {99999999: 'x'}}"))
    }

    func testBackgroundSlotIsKept() {
        XCTAssertEqual(LabelList(text: "???\nAbyssinian\n").labels, ["???", "Abyssinian"])
    }

    func testSharedLabelFiles() throws {
        let directory = SchemaTestFiles.sharedModelsDirectory
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        guard FileManager.default.fileExists(atPath: path("coco_labels.txt")) else {
            throw TestEnvironment.missing("\(directory.path) absent: shared label files are not available here")
        }
        let coco = try LabelList(contentsOf: path("coco_labels.txt"))
        XCTAssertEqual(coco.labels.count, 80)
        XCTAssertEqual(coco.labels.first, "person")
        let pets = try LabelList(contentsOf: path("ssd_pets_labels.txt"))
        XCTAssertEqual(pets.labels.first, "???")
        XCTAssertEqual(pets.labels.count, 38)
        XCTAssertEqual(try LabelList(contentsOf: path("classifier_utensils_labels.txt")).labels,
                       ["mustard", "chili", "compostable-fork", "one-use-fork"])
        XCTAssertEqual(try LabelList(contentsOf: path("ssd_fish_labels.txt")).labels, ["ClownFish", "roses"])
        XCTAssertThrowsError(try LabelList(contentsOf: path("missing.txt")))
    }
}
