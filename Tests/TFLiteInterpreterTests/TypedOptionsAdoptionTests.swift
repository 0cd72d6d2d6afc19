import Foundation
import TestSupport
@testable import TFLiteInterpreter
import TFLiteSchema
import XCTest

/// Operators read their options through the typed structs: a node whose options table is
/// another union member, or holds an unknown enum code, is an invalid model naming the
/// operator — not a silently defaulted field.
final class TypedOptionsAdoptionTests: XCTestCase {
    func testOperatorsRejectAnotherUnionMember() throws {
        let model = try Model(path: TestPaths.model("efficientnet_lite0.tflite"))
        let subgraph = model.file.subgraphs[0]
        let codes = model.file.operatorCodes
        let conv = try XCTUnwrap(subgraph.operators.first { codes[$0.opcodeIndex].builtin == .conv2D })
        let pool = try XCTUnwrap(subgraph.operators.first { codes[$0.opcodeIndex].builtin == .averagePool2D })
        // A CONV_2D node carrying the pool's Pool2DOptions.
        let node = NodeContext(code: codes[conv.opcodeIndex], inputs: [], outputs: [], options: pool.builtinOptions,
                               customOptions: [], threads: ThreadPool(threadCount: 1))
        XCTAssertThrowsError(try node.options(Conv2DOptions.self)) { error in
            XCTAssertEqual(error as? InterpreterError,
                           .invalidModel("CONV_2D: builtin options are Pool2DOptions, expected Conv2DOptions"))
        }
        // Its own options decode, as the golden runs rely on.
        let own = NodeContext(code: codes[conv.opcodeIndex], inputs: [], outputs: [], options: conv.builtinOptions,
                              customOptions: [], threads: ThreadPool(threadCount: 1))
        XCTAssertEqual(try own.options(Conv2DOptions.self).fusedActivationFunction, .relu6)
    }

    func testCustomOptionErrorsAreInvalidModels() throws {
        XCTAssertThrowsError(try DetectionPostProcessOperator.parameters(fromFlexBuffer: [])) { error in
            guard case InterpreterError.invalidModel(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.hasPrefix("TFLite_Detection_PostProcess: custom options:"), message)
        }
    }
}
