import ArgumentParser
import Foundation
import ResourceLimitOptions
import TFLiteSchema

/// `tflite-dump MODEL`: what a `.tflite` file contains, as text or JSON.
@main
struct TFLiteDump: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tflite-dump",
        abstract: "Show the inputs, outputs, operators, metadata and cost of a TFLite model.")

    @Argument(help: "Path of the .tflite model.")
    var model: String?

    @Flag(name: .long, help: "Print the CPU's vector features and the kernels the engine generates for it (no model needed).")
    var engine = false

    @Flag(name: .long, help: "Print one JSON object instead of text.")
    var json = false

    @Flag(name: .long, help: """
        List every operator the engine cannot run (unknown operator, unsupported types or options) \
        instead of the summary; exits with status 2 when there is one.
        """)
    var check = false

    @Flag(name: .long, help: "Include the full tensor table.")
    var tensors = false

    @Flag(name: .customLong("no-arena"), help: "Skip preparing the model with the engine to estimate its arena.")
    var noArena = false

    @Option(name: .long, help: "How many labels to list in the text report.")
    var labels = 10

    @OptionGroup(title: "Resource limits") var limits: ResourceLimitOptionGroup

    func validate() throws {
        if model == nil && !engine { throw ValidationError("Missing expected argument '<model>'") }
    }

    func run() throws {
        if engine {
            print(EngineDispatchReport().render())
            guard model != nil else { return }
        }
        guard let model else { return }
        let resourceLimits = limits.resourceLimits()
        let file: TFLiteModelFile
        do { file = try TFLiteModelFile(contentsOf: model, limits: resourceLimits) } catch {
            FileHandle.standardError.write(Data("tflite-dump: \(model): \(error)\n".utf8))
            throw ExitCode(1)
        }
        if check {
            let report = SupportCheckReport(path: model, file: file, limits: resourceLimits)
            if json { try printJSON(report) } else { print(report.render()) }
            if !report.supported { throw ExitCode(2) }
            return
        }
        let engine = EngineReport(model: file, estimateArena: !noArena, limits: resourceLimits)
        let summary = ModelSummary(model: file, path: model, includeTensors: tensors, engine: engine)
        if json {
            try printJSON(summary)
        } else {
            print(TextReport(summary: summary, labelPreview: max(0, labels)).render())
        }
    }

    /// Writes `value` as one pretty-printed JSON object with sorted keys.
    private func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let data: Data
        do { data = try encoder.encode(value) } catch {
            FileHandle.standardError.write(Data("tflite-dump: cannot encode JSON: \(error)\n".utf8))
            throw ExitCode(1)
        }
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}
