import TFLiteInterpreter
import TFLiteSchema

/// What the engine says about a model: operators it lacks, and the activation arena it
/// plans for subgraph 0 (only computed when every operator is supported, within `limits`;
/// a model beyond them gets a note naming the limit instead of an estimate).
struct EngineReport {
    var unsupportedOperators: [String]
    var arenaBytes: Int?
    var arenaNote: String?

    init(model file: TFLiteModelFile, estimateArena: Bool, limits: ResourceLimits = .default) {
        unsupportedOperators = Model.unsupportedOperators(in: file)
        guard estimateArena else { arenaNote = "not estimated (--no-arena)"; return }
        guard unsupportedOperators.isEmpty else { arenaNote = "not estimated: unsupported operators"; return }
        do {
            let interpreter = try Interpreter(model: try Model(file: file, limits: limits),
                                              options: Interpreter.Options(threadCount: 1, resourceLimits: limits))
            try interpreter.allocateTensors()
            arenaBytes = interpreter.arenaByteCount
        } catch {
            arenaNote = "not estimated: \(error)"
        }
    }
}
