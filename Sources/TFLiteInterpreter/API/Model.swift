import Foundation
import TFLiteSchema

/// A loaded model, ready to be run by one or more ``Interpreter``s: the parsed file, the
/// resolved operator kernels, and the constant tensors (model buffers, plus the outputs of
/// operators whose inputs are all constant, such as float16 `DEQUANTIZE` or `DENSIFY` of
/// weights, evaluated once here; the float16 weights of layers that pack them are converted by
/// those layers' prepares instead, see `DeferredDequantization`).
///
/// A `Model` is immutable after `init` and `Sendable`: several interpreters (one per thread)
/// can share it, and with it the memory of all constant tensors and of the weights the
/// optimized kernels pack at prepare (packed by the first interpreter, reused by the others;
/// see `PackedWeightCache`).
/// Unsupported operators are reported here, at load time, by name, and so are malformed calls
/// between subgraphs (IF, WHILE, CALL_ONCE naming a missing subgraph, one with the wrong number
/// of inputs or outputs, or recursion; see `ControlFlowGraph`).
public final class Model: @unchecked Sendable {
    /// The parsed model file.
    public let file: TFLiteModelFile
    /// Prepared constant data and operator lists, one per subgraph.
    let subgraphs: [SubgraphBlueprint]
    /// Whether an operator of the model turns float activations into integers (hybrid layers,
    /// QUANTIZE, CAST, ARG_MAX, comparisons of float activations): such models run their float
    /// convolutions with the reference's rounding under ``FloatArithmetic/automatic``. Found
    /// once at load.
    public let quantizesFloatActivations: Bool
    /// Memory of copied and folded constants (kept alive with the model).
    private let ownedStorage: [AlignedBuffer]
    /// The limits the model was loaded under (interpreters check theirs on top).
    public let resourceLimits: ResourceLimits

    /// Loads the model at `path`.
    /// - Throws: ``InterpreterError/invalidModel(_:)`` for unreadable or malformed files,
    ///   ``InterpreterError/unsupportedOperator(name:)`` naming every operator this engine lacks,
    ///   ``InterpreterError/resourceLimitExceeded(_:)`` when the model needs more than `limits`.
    public convenience init(path: String, limits: ResourceLimits = .default) throws {
        let file: TFLiteModelFile
        do { file = try TFLiteModelFile(contentsOf: path, limits: limits) } catch let error as ResourceLimitError {
            throw InterpreterError.resourceLimitExceeded("\(path): \(error)")
        } catch {
            throw InterpreterError.invalidModel("\(path): \(error)")
        }
        try self.init(file: file, limits: limits)
    }

    /// Loads a model from the bytes of a `.tflite` file.
    public convenience init(data: Data, limits: ResourceLimits = .default) throws {
        let file: TFLiteModelFile
        do { file = try TFLiteModelFile(bytes: [UInt8](data), limits: limits) } catch let error as ResourceLimitError {
            throw InterpreterError.resourceLimitExceeded("\(error)")
        } catch {
            throw InterpreterError.invalidModel("\(error)")
        }
        try self.init(file: file, limits: limits)
    }

    /// Prepares an already parsed model file with the engine's operators.
    public convenience init(file: TFLiteModelFile, limits: ResourceLimits = .default) throws {
        try self.init(file: file, resolver: OperatorRegistry.factory(for:), limits: limits)
    }

    /// Prepares `file` with kernels from `resolver` (tests inject kernels this way).
    init(file: TFLiteModelFile, resolver: (OperatorCode) -> OperatorFactory?, limits: ResourceLimits = .default) throws {
        self.file = file
        self.resourceLimits = limits
        let unsupported = Self.unsupportedOperators(in: file, resolver: resolver)
        guard unsupported.isEmpty else {
            throw InterpreterError.unsupportedOperator(name: unsupported.joined(separator: ", "))
        }
        guard !file.subgraphs.isEmpty else { throw InterpreterError.invalidModel("the model has no subgraph") }
        try ControlFlowGraph.validate(file)
        let factories = file.operatorCodes.map { resolver($0) }
        var storage: [AlignedBuffer] = []
        var budget = MemoryBudget(limits: limits)
        var blueprints: [SubgraphBlueprint] = []
        for index in file.subgraphs.indices {
            blueprints.append(try SubgraphBlueprint(file: file, subgraphIndex: index, factories: factories,
                                                    storage: &storage, budget: &budget))
        }
        subgraphs = blueprints
        quantizesFloatActivations = blueprints.contains { $0.quantizesFloatActivations }
        ownedStorage = storage
    }

    /// Display names of the operators in `file` that this engine does not implement,
    /// sorted and without repeats (empty when the model can run).
    public static func unsupportedOperators(in file: TFLiteModelFile) -> [String] {
        unsupportedOperators(in: file, resolver: OperatorRegistry.factory(for:))
    }

    /// Unsupported operator names under `resolver`, counting only operator codes the graph uses.
    static func unsupportedOperators(in file: TFLiteModelFile,
                                     resolver: (OperatorCode) -> OperatorFactory?) -> [String] {
        var used = Set<Int>()
        for subgraph in file.subgraphs { for op in subgraph.operators { used.insert(op.opcodeIndex) } }
        var names = Set<String>()
        for index in used {
            guard file.operatorCodes.indices.contains(index) else { continue }
            let code = file.operatorCodes[index]
            if resolver(code) == nil { names.insert(code.displayName) }
        }
        return names.sorted()
    }

    /// Total bytes of constant data the model added to the file's own buffers
    /// (realigned copies and folded constants).
    public var derivedConstantByteCount: Int { ownedStorage.reduce(0) { $0 + $1.byteCount } }

    /// The buffers of the constants the model derived at load (for tests).
    var derivedConstantBuffers: [AlignedBuffer] { ownedStorage }
}
