import FlatBufferReader
import Foundation
import TFLiteSchema
import XCTest

/// The generated typed options on real models (values as `tflite-dump` printed them before
/// the typed options existed), their union-type and enum checks, and the custom operators'
/// option structs.
final class TypedOptionsTests: XCTestCase {
    private func model(_ name: String, shared: Bool = false) throws -> TFLiteModelFile {
        try TFLiteModelFile(bytes: shared ? try SchemaTestFiles.sharedModelBytes(name)
                                          : try SchemaTestFiles.referenceModelBytes(name))
    }

    /// Operator `index` of subgraph 0, checked to be `builtin`.
    private func op(_ model: TFLiteModelFile, _ index: Int, _ builtin: BuiltinOperator,
                    file: StaticString = #filePath, line: UInt = #line) -> OperatorDescription {
        let op = model.subgraphs[0].operators[index]
        XCTAssertEqual(model.operatorCodes[op.opcodeIndex].builtin, builtin, file: file, line: line)
        return op
    }

    func testConvolutionFamilyOnEfficientNet() throws {
        let m = try model("efficientnet_lite0.tflite")
        // 1 CONV_2D stride=2x2 padding=SAME activation=RELU6 dilation=1x1
        let conv = try op(m, 1, .conv2D).options(Conv2DOptions.self, operator: "CONV_2D")
        XCTAssertEqual(conv.padding, .same)
        XCTAssertEqual([conv.strideW, conv.strideH], [2, 2])
        XCTAssertEqual(conv.fusedActivationFunction, .relu6)
        XCTAssertEqual([conv.dilationWFactor, conv.dilationHFactor], [1, 1])
        XCTAssertEqual(conv.quantizedBiasType, .float32, "absent: schema default")
        // 3 CONV_2D stride=1x1 activation=NONE
        let conv3 = try op(m, 3, .conv2D).options(Conv2DOptions.self, operator: "CONV_2D")
        XCTAssertEqual([conv3.strideW, conv3.strideH], [1, 1])
        XCTAssertEqual(conv3.fusedActivationFunction, .none)
        // 5 DEPTHWISE_CONV_2D stride=2x2 padding=SAME depth_multiplier=1 activation=RELU6 dilation=1x1
        let depthwise = try op(m, 5, .depthwiseConv2D).options(DepthwiseConv2DOptions.self, operator: "DEPTHWISE_CONV_2D")
        XCTAssertEqual(depthwise.padding, .same)
        XCTAssertEqual([depthwise.strideW, depthwise.strideH], [2, 2])
        XCTAssertEqual(depthwise.depthMultiplier, 1)
        XCTAssertEqual(depthwise.fusedActivationFunction, .relu6)
        XCTAssertEqual([depthwise.dilationWFactor, depthwise.dilationHFactor], [1, 1])
        // 59 AVERAGE_POOL_2D filter=7x7 stride=1x1 padding=VALID activation=NONE
        let pool = try op(m, 59, .averagePool2D).options(Pool2DOptions.self, operator: "AVERAGE_POOL_2D")
        XCTAssertEqual([pool.filterWidth, pool.filterHeight, pool.strideW, pool.strideH], [7, 7, 1, 1])
        XCTAssertEqual(pool.padding, .valid)
        XCTAssertEqual(pool.fusedActivationFunction, .none)
        // 61 FULLY_CONNECTED, 62 SOFTMAX beta=1.0
        let fc = try op(m, 61, .fullyConnected).options(FullyConnectedOptions.self, operator: "FULLY_CONNECTED")
        XCTAssertEqual(fc.weightsFormat, .default)
        XCTAssertFalse(fc.keepNumDims)
        XCTAssertEqual(try op(m, 62, .softmax).options(SoftmaxOptions.self, operator: "SOFTMAX").beta, 1)
    }

    func testDataMovementOptionsOnRealModels() throws {
        let deeplab = try model("deeplabv3.tflite")
        // 65 CONCATENATION axis=3 activation=NONE; 63 RESIZE_BILINEAR align_corners=true half_pixel_centers=false
        let concat = try op(deeplab, 65, .concatenation).options(ConcatenationOptions.self, operator: "CONCATENATION")
        XCTAssertEqual(concat.axis, 3)
        XCTAssertEqual(concat.fusedActivationFunction, .none)
        let resize = try op(deeplab, 63, .resizeBilinear).options(ResizeBilinearOptions.self, operator: "RESIZE_BILINEAR")
        XCTAssertTrue(resize.alignCorners)
        XCTAssertFalse(resize.halfPixelCenters)
        let face = try model("face_detection_back.tflite")
        // 276 RESHAPE new_shape=[1, -1, 1]; 280 CONCATENATION axis=1
        XCTAssertEqual(try op(face, 276, .reshape).options(ReshapeOptions.self, operator: "RESHAPE").newShape, [1, -1, 1])
        XCTAssertEqual(try op(face, 280, .concatenation).options(ConcatenationOptions.self, operator: "CONCATENATION").axis, 1)
    }

    func testSharedModelOptions() throws {
        guard !(try SchemaTestFiles.sharedModels()).isEmpty else { return }
        let yolo = try model("yolov8n_dynamic_range_640.tflite", shared: true)
        // 11 STRIDED_SLICE begin_mask=7 end_mask=7 shrink_axis_mask=0; 19 begin_mask=15
        let slice = try op(yolo, 11, .stridedSlice).options(StridedSliceOptions.self, operator: "STRIDED_SLICE")
        XCTAssertEqual([slice.beginMask, slice.endMask, slice.shrinkAxisMask], [7, 7, 0])
        XCTAssertEqual(try op(yolo, 19, .stridedSlice).options(StridedSliceOptions.self, operator: "STRIDED_SLICE").beginMask, 15)
        // 3 MUL activation=NONE
        XCTAssertEqual(try op(yolo, 3, .mul).options(MulOptions.self, operator: "MUL").fusedActivationFunction, .none)
        let mobilenet = try model("classifier_mobilenet_v2_uint8.tflite", shared: true)
        // 69 MEAN keep_dims=false; 12 ADD activation=NONE; 70 FULLY_CONNECTED activation=NONE
        XCTAssertFalse(try op(mobilenet, 69, .mean).options(ReducerOptions.self, operator: "MEAN").keepDims)
        XCTAssertEqual(try op(mobilenet, 12, .add).options(AddOptions.self, operator: "ADD").fusedActivationFunction, .none)
        let float = try model("classifier_nonsquare_float.tflite", shared: true)
        // 7 FULLY_CONNECTED activation=RELU
        XCTAssertEqual(try op(float, 7, .fullyConnected).options(FullyConnectedOptions.self, operator: "FULLY_CONNECTED")
            .fusedActivationFunction, .relu)
    }

    func testDetectionPostProcessOptionsMatchTheFlexBufferMap() throws {
        guard !(try SchemaTestFiles.sharedModels()).isEmpty else { return }
        let m = try model("ssd_pets_uint8.tflite", shared: true)
        let op = try XCTUnwrap(m.subgraphs[0].operators.last)
        XCTAssertEqual(m.operatorCodes[op.opcodeIndex].customName, DetectionPostProcessOptions.operatorName)
        let o = try DetectionPostProcessOptions(customOptions: op.customOptions)
        let raw = Dictionary(uniqueKeysWithValues: OperatorOptionsSummary.options(of: op, code: m.operatorCodes[op.opcodeIndex]))
        XCTAssertEqual(o.maxDetections, 10)
        XCTAssertFalse(o.useRegularNMS)
        XCTAssertEqual("\(o.maxDetections)", raw["max_detections"])
        XCTAssertEqual("\(o.maxClassesPerDetection)", raw["max_classes_per_detection"])
        XCTAssertEqual("\(o.numClasses)", raw["num_classes"])
        XCTAssertEqual("\(o.nmsScoreThreshold)", raw["nms_score_threshold"])
        XCTAssertEqual("\(o.nmsIouThreshold)", raw["nms_iou_threshold"])
        XCTAssertEqual(["\(o.yScale)", "\(o.xScale)", "\(o.hScale)", "\(o.wScale)"],
                       [raw["y_scale"], raw["x_scale"], raw["h_scale"], raw["w_scale"]])
        XCTAssertThrowsError(try DetectionPostProcessOptions(customOptions: [1, 2, 3])) { error in
            guard case TFLiteSchemaError.invalidCustomOptions(let name, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "TFLite_Detection_PostProcess")
        }
    }

    func testWrongUnionMemberIsATypedError() throws {
        let m = try model("efficientnet_lite0.tflite")
        let conv = op(m, 1, .conv2D)
        XCTAssertThrowsError(try conv.options(Pool2DOptions.self, operator: "CONV_2D")) { error in
            XCTAssertEqual(error as? TFLiteSchemaError,
                           .wrongOptionsType(operator: "CONV_2D", expected: "Pool2DOptions", found: "Conv2DOptions"))
        }
        XCTAssertThrowsError(try DepthwiseConv2DOptions(conv.builtinOptions, operator: "DEPTHWISE_CONV_2D")) { error in
            XCTAssertEqual(error as? TFLiteSchemaError, .wrongOptionsType(
                operator: "DEPTHWISE_CONV_2D", expected: "DepthwiseConv2DOptions", found: "Conv2DOptions"))
        }
        XCTAssertEqual(BuiltinOptionsType(rawValue: 250).description, "BuiltinOptions(250)")
    }

    /// A FlatBuffer whose root table holds one byte field (id 0) of value `value`.
    private func oneByteTable(_ value: UInt8, typeCode: BuiltinOptionsType) throws -> OptionsTable {
        let bytes: [UInt8] = [12, 0, 0, 0,   // root offset -> table at 12
                              6, 0, 8, 0, 4, 0, 0, 0,   // vtable: 6 bytes, table 8 bytes, field 0 at +4
                              8, 0, 0, 0,   // table: soffset to the vtable (12 - 4)
                              value, 0, 0, 0]
        let table = try FlatBuffer(storage: ByteStorage(copying: bytes)).rootTable()
        return OptionsTable(typeCode: typeCode.rawValue, table: table)
    }

    func testUnknownEnumValueIsATypedError() throws {
        let padding7 = try oneByteTable(7, typeCode: .conv2DOptions)
        XCTAssertThrowsError(try Conv2DOptions(padding7, operator: "CONV_2D")) { error in
            XCTAssertEqual(error as? TFLiteSchemaError,
                           .unknownEnumValue(operator: "CONV_2D", field: "padding", enumeration: "Padding", value: 7))
        }
        // Field 0 of FullyConnectedOptions is the activation.
        let activation9 = try oneByteTable(9, typeCode: .fullyConnectedOptions)
        XCTAssertThrowsError(try FullyConnectedOptions(activation9, operator: "FULLY_CONNECTED")) { error in
            XCTAssertEqual(error as? TFLiteSchemaError, .unknownEnumValue(
                operator: "FULLY_CONNECTED", field: "fused_activation_function", enumeration: "ActivationFunctionType", value: 9))
        }
        // Known codes decode.
        XCTAssertEqual(try Conv2DOptions(try oneByteTable(1, typeCode: .conv2DOptions), operator: "CONV_2D").padding, .valid)
        XCTAssertEqual(try MirrorPadOptions(try oneByteTable(1, typeCode: .mirrorPadOptions), operator: "MIRROR_PAD").mode, .symmetric)
        XCTAssertThrowsError(try ShapeOptions(try oneByteTable(100, typeCode: .shapeOptions), operator: "SHAPE"))
    }

    func testAbsentOptionsTakeTheSchemaDefaults() throws {
        let conv = try Conv2DOptions(nil, operator: "CONV_2D")
        XCTAssertEqual(conv, Conv2DOptions())
        XCTAssertEqual(conv.padding, .same)
        XCTAssertEqual([conv.strideW, conv.dilationWFactor, conv.dilationHFactor], [0, 1, 1])
        XCTAssertTrue(try AddOptions(nil, operator: "ADD").potScaleInt16, "pot_scale_int16 = true")
        XCTAssertTrue(SubOptions().potScaleInt16)
        XCTAssertEqual(TransposeConvOptions().fusedActivationFunction, .none)
        XCTAssertEqual(FullyConnectedOptions().weightsFormat, .default)
        XCTAssertEqual(GatherOptions().batchDims, 0)
        XCTAssertEqual(MirrorPadOptions().mode, .reflect)
        XCTAssertEqual(ReshapeOptions().newShape, [])
        XCTAssertEqual(WhileOptions().bodySubgraphIndex, 0)
        // A table with no fields present: every field at its default too.
        let empty = try FlatBuffer(storage: ByteStorage(copying: [8, 0, 0, 0, 4, 0, 4, 0, 4, 0, 0, 0])).rootTable()
        XCTAssertEqual(try DepthwiseConv2DOptions(OptionsTable(typeCode: 2, table: empty), operator: "DEPTHWISE_CONV_2D"),
                       DepthwiseConv2DOptions())
    }

    func testTransposeConvBiasOptions() throws {
        let o = try TransposeConvBiasOptions(customOptions: [2, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0])
        XCTAssertEqual(o, TransposeConvBiasOptions(padding: .valid, strideW: 2, strideH: 3))
        XCTAssertEqual(try TransposeConvBiasOptions(customOptions: [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]).padding, .same)
        XCTAssertThrowsError(try TransposeConvBiasOptions(customOptions: [0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])) { error in
            XCTAssertEqual(error as? TFLiteSchemaError, .unknownEnumValue(
                operator: "Convolution2DTransposeBias", field: "padding", enumeration: "TfLitePadding", value: 0))
        }
        XCTAssertThrowsError(try TransposeConvBiasOptions(customOptions: [1, 0, 0, 0, 1, 0])) { error in
            XCTAssertEqual(error as? TFLiteSchemaError,
                           .invalidCustomOptions(operator: "Convolution2DTransposeBias", reason: "too short (6 bytes)"))
        }
    }

    func testEveryRealOperatorDecodesWithoutOptionsErrors() throws {
        var models = try SchemaTestFiles.referenceModels()
        models += try SchemaTestFiles.sharedModels()
        var checked = 0
        for url in models {
            let m = try TFLiteModelFile(bytes: [UInt8](try Data(contentsOf: url)))
            for subgraph in m.subgraphs {
                for op in subgraph.operators {
                    let summary = OperatorOptionsSummary.options(of: op, code: m.operatorCodes[op.opcodeIndex])
                    XCTAssertFalse(summary.contains { $0.0 == "options_error" }, "\(url.lastPathComponent): \(summary)")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 1000)
    }
}
