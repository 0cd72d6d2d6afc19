import TFLiteSchema
import TFLiteKernels

extension OperatorRegistry {
    /// The Elementwise family's builtin operators: arithmetic, activations, softmax,
    /// reductions, comparisons, logic and selection.
    static let elementwiseFamily: [BuiltinOperator: OperatorFactory] = {
        var f: [BuiltinOperator: OperatorFactory] = [:]
        // Two-input arithmetic; ADD, SUB, MUL and DIV read a fused activation from their options.
        f[.add] = { BinaryArithmeticOperator(.add, name: "ADD") }
        f[.sub] = { BinaryArithmeticOperator(.sub, name: "SUB") }
        f[.mul] = { BinaryArithmeticOperator(.mul, name: "MUL") }
        f[.div] = { BinaryArithmeticOperator(.div, name: "DIV") }
        f[.squaredDifference] = { BinaryArithmeticOperator(.squaredDifference, name: "SQUARED_DIFFERENCE") }
        f[.maximum] = { BinaryArithmeticOperator(.maximum, name: "MAXIMUM") }
        f[.minimum] = { BinaryArithmeticOperator(.minimum, name: "MINIMUM") }
        f[.pow] = { BinaryArithmeticOperator(.pow, name: "POW") }
        f[.floorDiv] = { BinaryArithmeticOperator(.floorDiv, name: "FLOOR_DIV") }
        f[.floorMod] = { BinaryArithmeticOperator(.floorMod, name: "FLOOR_MOD") }
        // One-input math.
        let unary: [(BuiltinOperator, ElementwiseUnaryReference.Operation, String)] = [
            (.abs, .abs, "ABS"), (.neg, .neg, "NEG"), (.exp, .exp, "EXP"), (.log, .log, "LOG"),
            (.sqrt, .sqrt, "SQRT"), (.rsqrt, .rsqrt, "RSQRT"), (.square, .square, "SQUARE"),
            (.floor, .floor, "FLOOR"), (.ceil, .ceil, "CEIL"), (.round, .round, "ROUND"),
            (.sin, .sin, "SIN"), (.cos, .cos, "COS"), (.sign, .sign, "SIGN"),
        ]
        for (code, op, name) in unary { f[code] = { UnaryMathOperator(op, name: name) } }
        // Activations.
        f[.relu] = { ActivationOperator(.clamp(0, .infinity), name: "RELU") }
        f[.relu6] = { ActivationOperator(.clamp(0, 6), name: "RELU6") }
        f[.reluN1To1] = { ActivationOperator(.clamp(-1, 1), name: "RELU_N1_TO_1") }
        f[.relu0To1] = { ActivationOperator(.clamp(0, 1), name: "RELU_0_TO_1") }
        f[.leakyRelu] = { ActivationOperator(.leakyRelu, name: "LEAKY_RELU") }
        f[.hardSwish] = { ActivationOperator(.hardSwish, name: "HARD_SWISH") }
        f[.logistic] = { ActivationOperator(.logistic, name: "LOGISTIC") }
        f[.tanh] = { ActivationOperator(.tanh, name: "TANH") }
        f[.elu] = { ActivationOperator(.elu, name: "ELU") }
        f[.prelu] = { PreluOperator() }
        f[.softmax] = { SoftmaxOperator(log: false) }
        f[.logSoftmax] = { SoftmaxOperator(log: true) }
        // Reductions.
        f[.mean] = { ReductionOperator(.mean, name: "MEAN") }
        f[.sum] = { ReductionOperator(.sum, name: "SUM") }
        f[.reduceMax] = { ReductionOperator(.maximum, name: "REDUCE_MAX") }
        f[.reduceMin] = { ReductionOperator(.minimum, name: "REDUCE_MIN") }
        f[.reduceProd] = { ReductionOperator(.product, name: "REDUCE_PROD") }
        f[.argMax] = { ArgMinMaxOperator(max: true) }
        f[.argMin] = { ArgMinMaxOperator(max: false) }
        // Comparisons, logic, selection.
        let comparisons: [(BuiltinOperator, ElementwiseComparisonReference.Operation, String)] = [
            (.greater, .greater, "GREATER"), (.greaterEqual, .greaterEqual, "GREATER_EQUAL"),
            (.less, .less, "LESS"), (.lessEqual, .lessEqual, "LESS_EQUAL"),
            (.equal, .equal, "EQUAL"), (.notEqual, .notEqual, "NOT_EQUAL"),
        ]
        for (code, op, name) in comparisons { f[code] = { ComparisonOperator(op, name: name) } }
        f[.logicalAnd] = { LogicalOperator(.and, name: "LOGICAL_AND") }
        f[.logicalOr] = { LogicalOperator(.or, name: "LOGICAL_OR") }
        f[.logicalNot] = { LogicalOperator(.not, name: "LOGICAL_NOT") }
        f[.select] = { SelectOperator(v2: false) }
        f[.selectV2] = { SelectOperator(v2: true) }
        return f
    }()
}
