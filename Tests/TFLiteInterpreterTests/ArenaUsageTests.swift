import Foundation
import TFLiteInterpreter
import TestSupport
import XCTest

/// ``Interpreter/arenaUsage``: the arena and its live-tensor lower bound come from one plan.
final class ArenaUsageTests: XCTestCase {
    func testUsageIsTheArenaAndItsLiveLowerBound() throws {
        let interpreter = try Interpreter(modelPath: try TestPaths.fixture("interpreter/two_inputs/model.tflite"),
                                          options: .init(threadCount: 1))
        XCTAssertEqual(interpreter.arenaUsage, ArenaUsage(arenaByteCount: 0, peakLiveByteCount: 0), "nothing planned yet")
        try interpreter.allocateTensors()
        let usage = interpreter.arenaUsage
        XCTAssertEqual(usage.arenaByteCount, interpreter.arenaByteCount)
        // Graph inputs and outputs live for the whole run, so they are all live at once.
        var ends = 0
        for k in 0..<interpreter.inputTensorCount { ends += try interpreter.input(at: k).data.count }
        for k in 0..<interpreter.outputTensorCount { ends += try interpreter.output(at: k).data.count }
        XCTAssertGreaterThanOrEqual(usage.peakLiveByteCount, ends)
        XCTAssertLessThanOrEqual(usage.peakLiveByteCount, usage.arenaByteCount)
        let json = try JSONEncoder().encode(usage)
        XCTAssertEqual(try JSONDecoder().decode(ArenaUsage.self, from: json), usage)
    }
}
