// Generated from the TFLite schema's BuiltinOperator enum (names and values only).

extension BuiltinOperator {
    /// `ADD`
    public static let add = BuiltinOperator(rawValue: 0)
    /// `AVERAGE_POOL_2D`
    public static let averagePool2D = BuiltinOperator(rawValue: 1)
    /// `CONCATENATION`
    public static let concatenation = BuiltinOperator(rawValue: 2)
    /// `CONV_2D`
    public static let conv2D = BuiltinOperator(rawValue: 3)
    /// `DEPTHWISE_CONV_2D`
    public static let depthwiseConv2D = BuiltinOperator(rawValue: 4)
    /// `DEPTH_TO_SPACE`
    public static let depthToSpace = BuiltinOperator(rawValue: 5)
    /// `DEQUANTIZE`
    public static let dequantize = BuiltinOperator(rawValue: 6)
    /// `EMBEDDING_LOOKUP`
    public static let embeddingLookup = BuiltinOperator(rawValue: 7)
    /// `FLOOR`
    public static let floor = BuiltinOperator(rawValue: 8)
    /// `FULLY_CONNECTED`
    public static let fullyConnected = BuiltinOperator(rawValue: 9)
    /// `HASHTABLE_LOOKUP`
    public static let hashtableLookup = BuiltinOperator(rawValue: 10)
    /// `L2_NORMALIZATION`
    public static let l2Normalization = BuiltinOperator(rawValue: 11)
    /// `L2_POOL_2D`
    public static let l2Pool2D = BuiltinOperator(rawValue: 12)
    /// `LOCAL_RESPONSE_NORMALIZATION`
    public static let localResponseNormalization = BuiltinOperator(rawValue: 13)
    /// `LOGISTIC`
    public static let logistic = BuiltinOperator(rawValue: 14)
    /// `LSH_PROJECTION`
    public static let lshProjection = BuiltinOperator(rawValue: 15)
    /// `LSTM`
    public static let lstm = BuiltinOperator(rawValue: 16)
    /// `MAX_POOL_2D`
    public static let maxPool2D = BuiltinOperator(rawValue: 17)
    /// `MUL`
    public static let mul = BuiltinOperator(rawValue: 18)
    /// `RELU`
    public static let relu = BuiltinOperator(rawValue: 19)
    /// `RELU_N1_TO_1`
    public static let reluN1To1 = BuiltinOperator(rawValue: 20)
    /// `RELU6`
    public static let relu6 = BuiltinOperator(rawValue: 21)
    /// `RESHAPE`
    public static let reshape = BuiltinOperator(rawValue: 22)
    /// `RESIZE_BILINEAR`
    public static let resizeBilinear = BuiltinOperator(rawValue: 23)
    /// `RNN`
    public static let rnn = BuiltinOperator(rawValue: 24)
    /// `SOFTMAX`
    public static let softmax = BuiltinOperator(rawValue: 25)
    /// `SPACE_TO_DEPTH`
    public static let spaceToDepth = BuiltinOperator(rawValue: 26)
    /// `SVDF`
    public static let svdf = BuiltinOperator(rawValue: 27)
    /// `TANH`
    public static let tanh = BuiltinOperator(rawValue: 28)
    /// `CONCAT_EMBEDDINGS`
    public static let concatEmbeddings = BuiltinOperator(rawValue: 29)
    /// `SKIP_GRAM`
    public static let skipGram = BuiltinOperator(rawValue: 30)
    /// `CALL`
    public static let call = BuiltinOperator(rawValue: 31)
    /// `CUSTOM`
    public static let custom = BuiltinOperator(rawValue: 32)
    /// `EMBEDDING_LOOKUP_SPARSE`
    public static let embeddingLookupSparse = BuiltinOperator(rawValue: 33)
    /// `PAD`
    public static let pad = BuiltinOperator(rawValue: 34)
    /// `UNIDIRECTIONAL_SEQUENCE_RNN`
    public static let unidirectionalSequenceRnn = BuiltinOperator(rawValue: 35)
    /// `GATHER`
    public static let gather = BuiltinOperator(rawValue: 36)
    /// `BATCH_TO_SPACE_ND`
    public static let batchToSpaceNd = BuiltinOperator(rawValue: 37)
    /// `SPACE_TO_BATCH_ND`
    public static let spaceToBatchNd = BuiltinOperator(rawValue: 38)
    /// `TRANSPOSE`
    public static let transpose = BuiltinOperator(rawValue: 39)
    /// `MEAN`
    public static let mean = BuiltinOperator(rawValue: 40)
    /// `SUB`
    public static let sub = BuiltinOperator(rawValue: 41)
    /// `DIV`
    public static let div = BuiltinOperator(rawValue: 42)
    /// `SQUEEZE`
    public static let squeeze = BuiltinOperator(rawValue: 43)
    /// `UNIDIRECTIONAL_SEQUENCE_LSTM`
    public static let unidirectionalSequenceLstm = BuiltinOperator(rawValue: 44)
    /// `STRIDED_SLICE`
    public static let stridedSlice = BuiltinOperator(rawValue: 45)
    /// `BIDIRECTIONAL_SEQUENCE_RNN`
    public static let bidirectionalSequenceRnn = BuiltinOperator(rawValue: 46)
    /// `EXP`
    public static let exp = BuiltinOperator(rawValue: 47)
    /// `TOPK_V2`
    public static let topkV2 = BuiltinOperator(rawValue: 48)
    /// `SPLIT`
    public static let split = BuiltinOperator(rawValue: 49)
    /// `LOG_SOFTMAX`
    public static let logSoftmax = BuiltinOperator(rawValue: 50)
    /// `DELEGATE`
    public static let delegate = BuiltinOperator(rawValue: 51)
    /// `BIDIRECTIONAL_SEQUENCE_LSTM`
    public static let bidirectionalSequenceLstm = BuiltinOperator(rawValue: 52)
    /// `CAST`
    public static let cast = BuiltinOperator(rawValue: 53)
    /// `PRELU`
    public static let prelu = BuiltinOperator(rawValue: 54)
    /// `MAXIMUM`
    public static let maximum = BuiltinOperator(rawValue: 55)
    /// `ARG_MAX`
    public static let argMax = BuiltinOperator(rawValue: 56)
    /// `MINIMUM`
    public static let minimum = BuiltinOperator(rawValue: 57)
    /// `LESS`
    public static let less = BuiltinOperator(rawValue: 58)
    /// `NEG`
    public static let neg = BuiltinOperator(rawValue: 59)
    /// `PADV2`
    public static let padv2 = BuiltinOperator(rawValue: 60)
    /// `GREATER`
    public static let greater = BuiltinOperator(rawValue: 61)
    /// `GREATER_EQUAL`
    public static let greaterEqual = BuiltinOperator(rawValue: 62)
    /// `LESS_EQUAL`
    public static let lessEqual = BuiltinOperator(rawValue: 63)
    /// `SELECT`
    public static let `select` = BuiltinOperator(rawValue: 64)
    /// `SLICE`
    public static let slice = BuiltinOperator(rawValue: 65)
    /// `SIN`
    public static let sin = BuiltinOperator(rawValue: 66)
    /// `TRANSPOSE_CONV`
    public static let transposeConv = BuiltinOperator(rawValue: 67)
    /// `SPARSE_TO_DENSE`
    public static let sparseToDense = BuiltinOperator(rawValue: 68)
    /// `TILE`
    public static let tile = BuiltinOperator(rawValue: 69)
    /// `EXPAND_DIMS`
    public static let expandDims = BuiltinOperator(rawValue: 70)
    /// `EQUAL`
    public static let equal = BuiltinOperator(rawValue: 71)
    /// `NOT_EQUAL`
    public static let notEqual = BuiltinOperator(rawValue: 72)
    /// `LOG`
    public static let log = BuiltinOperator(rawValue: 73)
    /// `SUM`
    public static let sum = BuiltinOperator(rawValue: 74)
    /// `SQRT`
    public static let sqrt = BuiltinOperator(rawValue: 75)
    /// `RSQRT`
    public static let rsqrt = BuiltinOperator(rawValue: 76)
    /// `SHAPE`
    public static let shape = BuiltinOperator(rawValue: 77)
    /// `POW`
    public static let pow = BuiltinOperator(rawValue: 78)
    /// `ARG_MIN`
    public static let argMin = BuiltinOperator(rawValue: 79)
    /// `FAKE_QUANT`
    public static let fakeQuant = BuiltinOperator(rawValue: 80)
    /// `REDUCE_PROD`
    public static let reduceProd = BuiltinOperator(rawValue: 81)
    /// `REDUCE_MAX`
    public static let reduceMax = BuiltinOperator(rawValue: 82)
    /// `PACK`
    public static let pack = BuiltinOperator(rawValue: 83)
    /// `LOGICAL_OR`
    public static let logicalOr = BuiltinOperator(rawValue: 84)
    /// `ONE_HOT`
    public static let oneHot = BuiltinOperator(rawValue: 85)
    /// `LOGICAL_AND`
    public static let logicalAnd = BuiltinOperator(rawValue: 86)
    /// `LOGICAL_NOT`
    public static let logicalNot = BuiltinOperator(rawValue: 87)
    /// `UNPACK`
    public static let unpack = BuiltinOperator(rawValue: 88)
    /// `REDUCE_MIN`
    public static let reduceMin = BuiltinOperator(rawValue: 89)
    /// `FLOOR_DIV`
    public static let floorDiv = BuiltinOperator(rawValue: 90)
    /// `REDUCE_ANY`
    public static let reduceAny = BuiltinOperator(rawValue: 91)
    /// `SQUARE`
    public static let square = BuiltinOperator(rawValue: 92)
    /// `ZEROS_LIKE`
    public static let zerosLike = BuiltinOperator(rawValue: 93)
    /// `FILL`
    public static let fill = BuiltinOperator(rawValue: 94)
    /// `FLOOR_MOD`
    public static let floorMod = BuiltinOperator(rawValue: 95)
    /// `RANGE`
    public static let range = BuiltinOperator(rawValue: 96)
    /// `RESIZE_NEAREST_NEIGHBOR`
    public static let resizeNearestNeighbor = BuiltinOperator(rawValue: 97)
    /// `LEAKY_RELU`
    public static let leakyRelu = BuiltinOperator(rawValue: 98)
    /// `SQUARED_DIFFERENCE`
    public static let squaredDifference = BuiltinOperator(rawValue: 99)
    /// `MIRROR_PAD`
    public static let mirrorPad = BuiltinOperator(rawValue: 100)
    /// `ABS`
    public static let abs = BuiltinOperator(rawValue: 101)
    /// `SPLIT_V`
    public static let splitV = BuiltinOperator(rawValue: 102)
    /// `UNIQUE`
    public static let unique = BuiltinOperator(rawValue: 103)
    /// `CEIL`
    public static let ceil = BuiltinOperator(rawValue: 104)
    /// `REVERSE_V2`
    public static let reverseV2 = BuiltinOperator(rawValue: 105)
    /// `ADD_N`
    public static let addN = BuiltinOperator(rawValue: 106)
    /// `GATHER_ND`
    public static let gatherNd = BuiltinOperator(rawValue: 107)
    /// `COS`
    public static let cos = BuiltinOperator(rawValue: 108)
    /// `WHERE`
    public static let `where` = BuiltinOperator(rawValue: 109)
    /// `RANK`
    public static let rank = BuiltinOperator(rawValue: 110)
    /// `ELU`
    public static let elu = BuiltinOperator(rawValue: 111)
    /// `REVERSE_SEQUENCE`
    public static let reverseSequence = BuiltinOperator(rawValue: 112)
    /// `MATRIX_DIAG`
    public static let matrixDiag = BuiltinOperator(rawValue: 113)
    /// `QUANTIZE`
    public static let quantize = BuiltinOperator(rawValue: 114)
    /// `MATRIX_SET_DIAG`
    public static let matrixSetDiag = BuiltinOperator(rawValue: 115)
    /// `ROUND`
    public static let round = BuiltinOperator(rawValue: 116)
    /// `HARD_SWISH`
    public static let hardSwish = BuiltinOperator(rawValue: 117)
    /// `IF`
    public static let `if` = BuiltinOperator(rawValue: 118)
    /// `WHILE`
    public static let `while` = BuiltinOperator(rawValue: 119)
    /// `NON_MAX_SUPPRESSION_V4`
    public static let nonMaxSuppressionV4 = BuiltinOperator(rawValue: 120)
    /// `NON_MAX_SUPPRESSION_V5`
    public static let nonMaxSuppressionV5 = BuiltinOperator(rawValue: 121)
    /// `SCATTER_ND`
    public static let scatterNd = BuiltinOperator(rawValue: 122)
    /// `SELECT_V2`
    public static let selectV2 = BuiltinOperator(rawValue: 123)
    /// `DENSIFY`
    public static let densify = BuiltinOperator(rawValue: 124)
    /// `SEGMENT_SUM`
    public static let segmentSum = BuiltinOperator(rawValue: 125)
    /// `BATCH_MATMUL`
    public static let batchMatmul = BuiltinOperator(rawValue: 126)
    /// `PLACEHOLDER_FOR_GREATER_OP_CODES`
    public static let placeholderForGreaterOpCodes = BuiltinOperator(rawValue: 127)
    /// `CUMSUM`
    public static let cumsum = BuiltinOperator(rawValue: 128)
    /// `CALL_ONCE`
    public static let callOnce = BuiltinOperator(rawValue: 129)
    /// `BROADCAST_TO`
    public static let broadcastTo = BuiltinOperator(rawValue: 130)
    /// `RFFT2D`
    public static let rfft2D = BuiltinOperator(rawValue: 131)
    /// `CONV_3D`
    public static let conv3D = BuiltinOperator(rawValue: 132)
    /// `IMAG`
    public static let imag = BuiltinOperator(rawValue: 133)
    /// `REAL`
    public static let real = BuiltinOperator(rawValue: 134)
    /// `COMPLEX_ABS`
    public static let complexAbs = BuiltinOperator(rawValue: 135)
    /// `HASHTABLE`
    public static let hashtable = BuiltinOperator(rawValue: 136)
    /// `HASHTABLE_FIND`
    public static let hashtableFind = BuiltinOperator(rawValue: 137)
    /// `HASHTABLE_IMPORT`
    public static let hashtableImport = BuiltinOperator(rawValue: 138)
    /// `HASHTABLE_SIZE`
    public static let hashtableSize = BuiltinOperator(rawValue: 139)
    /// `REDUCE_ALL`
    public static let reduceAll = BuiltinOperator(rawValue: 140)
    /// `CONV_3D_TRANSPOSE`
    public static let conv3DTranspose = BuiltinOperator(rawValue: 141)
    /// `VAR_HANDLE`
    public static let varHandle = BuiltinOperator(rawValue: 142)
    /// `READ_VARIABLE`
    public static let readVariable = BuiltinOperator(rawValue: 143)
    /// `ASSIGN_VARIABLE`
    public static let assignVariable = BuiltinOperator(rawValue: 144)
    /// `BROADCAST_ARGS`
    public static let broadcastArgs = BuiltinOperator(rawValue: 145)
    /// `RANDOM_STANDARD_NORMAL`
    public static let randomStandardNormal = BuiltinOperator(rawValue: 146)
    /// `BUCKETIZE`
    public static let bucketize = BuiltinOperator(rawValue: 147)
    /// `RANDOM_UNIFORM`
    public static let randomUniform = BuiltinOperator(rawValue: 148)
    /// `MULTINOMIAL`
    public static let multinomial = BuiltinOperator(rawValue: 149)
    /// `GELU`
    public static let gelu = BuiltinOperator(rawValue: 150)
    /// `DYNAMIC_UPDATE_SLICE`
    public static let dynamicUpdateSlice = BuiltinOperator(rawValue: 151)
    /// `RELU_0_TO_1`
    public static let relu0To1 = BuiltinOperator(rawValue: 152)
    /// `UNSORTED_SEGMENT_PROD`
    public static let unsortedSegmentProd = BuiltinOperator(rawValue: 153)
    /// `UNSORTED_SEGMENT_MAX`
    public static let unsortedSegmentMax = BuiltinOperator(rawValue: 154)
    /// `UNSORTED_SEGMENT_SUM`
    public static let unsortedSegmentSum = BuiltinOperator(rawValue: 155)
    /// `ATAN2`
    public static let atan2 = BuiltinOperator(rawValue: 156)
    /// `UNSORTED_SEGMENT_MIN`
    public static let unsortedSegmentMin = BuiltinOperator(rawValue: 157)
    /// `SIGN`
    public static let sign = BuiltinOperator(rawValue: 158)
    /// `BITCAST`
    public static let bitcast = BuiltinOperator(rawValue: 159)
    /// `BITWISE_XOR`
    public static let bitwiseXor = BuiltinOperator(rawValue: 160)
    /// `RIGHT_SHIFT`
    public static let rightShift = BuiltinOperator(rawValue: 161)
    /// `STABLEHLO_LOGISTIC`
    public static let stablehloLogistic = BuiltinOperator(rawValue: 162)
    /// `STABLEHLO_ADD`
    public static let stablehloAdd = BuiltinOperator(rawValue: 163)
    /// `STABLEHLO_DIVIDE`
    public static let stablehloDivide = BuiltinOperator(rawValue: 164)
    /// `STABLEHLO_MULTIPLY`
    public static let stablehloMultiply = BuiltinOperator(rawValue: 165)
    /// `STABLEHLO_MAXIMUM`
    public static let stablehloMaximum = BuiltinOperator(rawValue: 166)
    /// `STABLEHLO_RESHAPE`
    public static let stablehloReshape = BuiltinOperator(rawValue: 167)
    /// `STABLEHLO_CLAMP`
    public static let stablehloClamp = BuiltinOperator(rawValue: 168)
    /// `STABLEHLO_CONCATENATE`
    public static let stablehloConcatenate = BuiltinOperator(rawValue: 169)
    /// `STABLEHLO_BROADCAST_IN_DIM`
    public static let stablehloBroadcastInDim = BuiltinOperator(rawValue: 170)
    /// `STABLEHLO_CONVOLUTION`
    public static let stablehloConvolution = BuiltinOperator(rawValue: 171)
    /// `STABLEHLO_SLICE`
    public static let stablehloSlice = BuiltinOperator(rawValue: 172)
    /// `STABLEHLO_CUSTOM_CALL`
    public static let stablehloCustomCall = BuiltinOperator(rawValue: 173)
    /// `STABLEHLO_REDUCE`
    public static let stablehloReduce = BuiltinOperator(rawValue: 174)
    /// `STABLEHLO_ABS`
    public static let stablehloAbs = BuiltinOperator(rawValue: 175)
    /// `STABLEHLO_AND`
    public static let stablehloAnd = BuiltinOperator(rawValue: 176)
    /// `STABLEHLO_COSINE`
    public static let stablehloCosine = BuiltinOperator(rawValue: 177)
    /// `STABLEHLO_EXPONENTIAL`
    public static let stablehloExponential = BuiltinOperator(rawValue: 178)
    /// `STABLEHLO_FLOOR`
    public static let stablehloFloor = BuiltinOperator(rawValue: 179)
    /// `STABLEHLO_LOG`
    public static let stablehloLog = BuiltinOperator(rawValue: 180)
    /// `STABLEHLO_MINIMUM`
    public static let stablehloMinimum = BuiltinOperator(rawValue: 181)
    /// `STABLEHLO_NEGATE`
    public static let stablehloNegate = BuiltinOperator(rawValue: 182)
    /// `STABLEHLO_OR`
    public static let stablehloOr = BuiltinOperator(rawValue: 183)
    /// `STABLEHLO_POWER`
    public static let stablehloPower = BuiltinOperator(rawValue: 184)
    /// `STABLEHLO_REMAINDER`
    public static let stablehloRemainder = BuiltinOperator(rawValue: 185)
    /// `STABLEHLO_RSQRT`
    public static let stablehloRsqrt = BuiltinOperator(rawValue: 186)
    /// `STABLEHLO_SELECT`
    public static let stablehloSelect = BuiltinOperator(rawValue: 187)
    /// `STABLEHLO_SUBTRACT`
    public static let stablehloSubtract = BuiltinOperator(rawValue: 188)
    /// `STABLEHLO_TANH`
    public static let stablehloTanh = BuiltinOperator(rawValue: 189)
    /// `STABLEHLO_SCATTER`
    public static let stablehloScatter = BuiltinOperator(rawValue: 190)
    /// `STABLEHLO_COMPARE`
    public static let stablehloCompare = BuiltinOperator(rawValue: 191)
    /// `STABLEHLO_CONVERT`
    public static let stablehloConvert = BuiltinOperator(rawValue: 192)
    /// `STABLEHLO_DYNAMIC_SLICE`
    public static let stablehloDynamicSlice = BuiltinOperator(rawValue: 193)
    /// `STABLEHLO_DYNAMIC_UPDATE_SLICE`
    public static let stablehloDynamicUpdateSlice = BuiltinOperator(rawValue: 194)
    /// `STABLEHLO_PAD`
    public static let stablehloPad = BuiltinOperator(rawValue: 195)
    /// `STABLEHLO_IOTA`
    public static let stablehloIota = BuiltinOperator(rawValue: 196)
    /// `STABLEHLO_DOT_GENERAL`
    public static let stablehloDotGeneral = BuiltinOperator(rawValue: 197)
    /// `STABLEHLO_REDUCE_WINDOW`
    public static let stablehloReduceWindow = BuiltinOperator(rawValue: 198)
    /// `STABLEHLO_SORT`
    public static let stablehloSort = BuiltinOperator(rawValue: 199)
    /// `STABLEHLO_WHILE`
    public static let stablehloWhile = BuiltinOperator(rawValue: 200)
    /// `STABLEHLO_GATHER`
    public static let stablehloGather = BuiltinOperator(rawValue: 201)
    /// `STABLEHLO_TRANSPOSE`
    public static let stablehloTranspose = BuiltinOperator(rawValue: 202)
    /// `DILATE`
    public static let dilate = BuiltinOperator(rawValue: 203)
    /// `STABLEHLO_RNG_BIT_GENERATOR`
    public static let stablehloRngBitGenerator = BuiltinOperator(rawValue: 204)
    /// `REDUCE_WINDOW`
    public static let reduceWindow = BuiltinOperator(rawValue: 205)
    /// `STABLEHLO_COMPOSITE`
    public static let stablehloComposite = BuiltinOperator(rawValue: 206)
    /// `STABLEHLO_SHIFT_LEFT`
    public static let stablehloShiftLeft = BuiltinOperator(rawValue: 207)
    /// `STABLEHLO_CBRT`
    public static let stablehloCbrt = BuiltinOperator(rawValue: 208)

    /// The schema's name for every known code, e.g. `CONV_2D`.
    static let schemaNames: [Int32: String] = [
        0: "ADD",
        1: "AVERAGE_POOL_2D",
        2: "CONCATENATION",
        3: "CONV_2D",
        4: "DEPTHWISE_CONV_2D",
        5: "DEPTH_TO_SPACE",
        6: "DEQUANTIZE",
        7: "EMBEDDING_LOOKUP",
        8: "FLOOR",
        9: "FULLY_CONNECTED",
        10: "HASHTABLE_LOOKUP",
        11: "L2_NORMALIZATION",
        12: "L2_POOL_2D",
        13: "LOCAL_RESPONSE_NORMALIZATION",
        14: "LOGISTIC",
        15: "LSH_PROJECTION",
        16: "LSTM",
        17: "MAX_POOL_2D",
        18: "MUL",
        19: "RELU",
        20: "RELU_N1_TO_1",
        21: "RELU6",
        22: "RESHAPE",
        23: "RESIZE_BILINEAR",
        24: "RNN",
        25: "SOFTMAX",
        26: "SPACE_TO_DEPTH",
        27: "SVDF",
        28: "TANH",
        29: "CONCAT_EMBEDDINGS",
        30: "SKIP_GRAM",
        31: "CALL",
        32: "CUSTOM",
        33: "EMBEDDING_LOOKUP_SPARSE",
        34: "PAD",
        35: "UNIDIRECTIONAL_SEQUENCE_RNN",
        36: "GATHER",
        37: "BATCH_TO_SPACE_ND",
        38: "SPACE_TO_BATCH_ND",
        39: "TRANSPOSE",
        40: "MEAN",
        41: "SUB",
        42: "DIV",
        43: "SQUEEZE",
        44: "UNIDIRECTIONAL_SEQUENCE_LSTM",
        45: "STRIDED_SLICE",
        46: "BIDIRECTIONAL_SEQUENCE_RNN",
        47: "EXP",
        48: "TOPK_V2",
        49: "SPLIT",
        50: "LOG_SOFTMAX",
        51: "DELEGATE",
        52: "BIDIRECTIONAL_SEQUENCE_LSTM",
        53: "CAST",
        54: "PRELU",
        55: "MAXIMUM",
        56: "ARG_MAX",
        57: "MINIMUM",
        58: "LESS",
        59: "NEG",
        60: "PADV2",
        61: "GREATER",
        62: "GREATER_EQUAL",
        63: "LESS_EQUAL",
        64: "SELECT",
        65: "SLICE",
        66: "SIN",
        67: "TRANSPOSE_CONV",
        68: "SPARSE_TO_DENSE",
        69: "TILE",
        70: "EXPAND_DIMS",
        71: "EQUAL",
        72: "NOT_EQUAL",
        73: "LOG",
        74: "SUM",
        75: "SQRT",
        76: "RSQRT",
        77: "SHAPE",
        78: "POW",
        79: "ARG_MIN",
        80: "FAKE_QUANT",
        81: "REDUCE_PROD",
        82: "REDUCE_MAX",
        83: "PACK",
        84: "LOGICAL_OR",
        85: "ONE_HOT",
        86: "LOGICAL_AND",
        87: "LOGICAL_NOT",
        88: "UNPACK",
        89: "REDUCE_MIN",
        90: "FLOOR_DIV",
        91: "REDUCE_ANY",
        92: "SQUARE",
        93: "ZEROS_LIKE",
        94: "FILL",
        95: "FLOOR_MOD",
        96: "RANGE",
        97: "RESIZE_NEAREST_NEIGHBOR",
        98: "LEAKY_RELU",
        99: "SQUARED_DIFFERENCE",
        100: "MIRROR_PAD",
        101: "ABS",
        102: "SPLIT_V",
        103: "UNIQUE",
        104: "CEIL",
        105: "REVERSE_V2",
        106: "ADD_N",
        107: "GATHER_ND",
        108: "COS",
        109: "WHERE",
        110: "RANK",
        111: "ELU",
        112: "REVERSE_SEQUENCE",
        113: "MATRIX_DIAG",
        114: "QUANTIZE",
        115: "MATRIX_SET_DIAG",
        116: "ROUND",
        117: "HARD_SWISH",
        118: "IF",
        119: "WHILE",
        120: "NON_MAX_SUPPRESSION_V4",
        121: "NON_MAX_SUPPRESSION_V5",
        122: "SCATTER_ND",
        123: "SELECT_V2",
        124: "DENSIFY",
        125: "SEGMENT_SUM",
        126: "BATCH_MATMUL",
        127: "PLACEHOLDER_FOR_GREATER_OP_CODES",
        128: "CUMSUM",
        129: "CALL_ONCE",
        130: "BROADCAST_TO",
        131: "RFFT2D",
        132: "CONV_3D",
        133: "IMAG",
        134: "REAL",
        135: "COMPLEX_ABS",
        136: "HASHTABLE",
        137: "HASHTABLE_FIND",
        138: "HASHTABLE_IMPORT",
        139: "HASHTABLE_SIZE",
        140: "REDUCE_ALL",
        141: "CONV_3D_TRANSPOSE",
        142: "VAR_HANDLE",
        143: "READ_VARIABLE",
        144: "ASSIGN_VARIABLE",
        145: "BROADCAST_ARGS",
        146: "RANDOM_STANDARD_NORMAL",
        147: "BUCKETIZE",
        148: "RANDOM_UNIFORM",
        149: "MULTINOMIAL",
        150: "GELU",
        151: "DYNAMIC_UPDATE_SLICE",
        152: "RELU_0_TO_1",
        153: "UNSORTED_SEGMENT_PROD",
        154: "UNSORTED_SEGMENT_MAX",
        155: "UNSORTED_SEGMENT_SUM",
        156: "ATAN2",
        157: "UNSORTED_SEGMENT_MIN",
        158: "SIGN",
        159: "BITCAST",
        160: "BITWISE_XOR",
        161: "RIGHT_SHIFT",
        162: "STABLEHLO_LOGISTIC",
        163: "STABLEHLO_ADD",
        164: "STABLEHLO_DIVIDE",
        165: "STABLEHLO_MULTIPLY",
        166: "STABLEHLO_MAXIMUM",
        167: "STABLEHLO_RESHAPE",
        168: "STABLEHLO_CLAMP",
        169: "STABLEHLO_CONCATENATE",
        170: "STABLEHLO_BROADCAST_IN_DIM",
        171: "STABLEHLO_CONVOLUTION",
        172: "STABLEHLO_SLICE",
        173: "STABLEHLO_CUSTOM_CALL",
        174: "STABLEHLO_REDUCE",
        175: "STABLEHLO_ABS",
        176: "STABLEHLO_AND",
        177: "STABLEHLO_COSINE",
        178: "STABLEHLO_EXPONENTIAL",
        179: "STABLEHLO_FLOOR",
        180: "STABLEHLO_LOG",
        181: "STABLEHLO_MINIMUM",
        182: "STABLEHLO_NEGATE",
        183: "STABLEHLO_OR",
        184: "STABLEHLO_POWER",
        185: "STABLEHLO_REMAINDER",
        186: "STABLEHLO_RSQRT",
        187: "STABLEHLO_SELECT",
        188: "STABLEHLO_SUBTRACT",
        189: "STABLEHLO_TANH",
        190: "STABLEHLO_SCATTER",
        191: "STABLEHLO_COMPARE",
        192: "STABLEHLO_CONVERT",
        193: "STABLEHLO_DYNAMIC_SLICE",
        194: "STABLEHLO_DYNAMIC_UPDATE_SLICE",
        195: "STABLEHLO_PAD",
        196: "STABLEHLO_IOTA",
        197: "STABLEHLO_DOT_GENERAL",
        198: "STABLEHLO_REDUCE_WINDOW",
        199: "STABLEHLO_SORT",
        200: "STABLEHLO_WHILE",
        201: "STABLEHLO_GATHER",
        202: "STABLEHLO_TRANSPOSE",
        203: "DILATE",
        204: "STABLEHLO_RNG_BIT_GENERATOR",
        205: "REDUCE_WINDOW",
        206: "STABLEHLO_COMPOSITE",
        207: "STABLEHLO_SHIFT_LEFT",
        208: "STABLEHLO_CBRT",
    ]
}
