import ArgumentParser
import Foundation
import TFLiteInterpreter

/// `litevision run`: runs a model on `.npy` inputs and writes its outputs as `.npy` files.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run a model on .npy inputs.",
        discussion: """
            Give one --input per model input, in the model's input order. Each array's dtype must \
            match the input's; a different shape is accepted when the model allows resizing. \
            Writes DIR/output_0.npy, DIR/output_1.npy, ... in output order.
            """)

    @Argument(help: "The .tflite model.")
    var model: String

    @Option(name: .customLong("input"), help: "An input .npy file (repeat for each model input, in order).")
    var inputs: [String] = []

    @Option(name: .customLong("output-dir"), help: "Directory for output_<k>.npy (created if missing).")
    var outputDirectory: String

    @Option(help: "Threads to use (default: all cores).")
    var threads: Int?

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
    }

    func run() async throws {
        let interpreter = try Interpreter(modelPath: model, options: Interpreter.Options(threadCount: threads))
        guard inputs.count == interpreter.inputTensorCount else {
            throw ValidationError(
                "\(model) has \(interpreter.inputTensorCount) inputs (\(interpreter.inputNames.joined(separator: ", "))); got \(inputs.count) --input file(s)")
        }
        let arrays = try inputs.map { try NumPyArray(contentsOf: $0) }
        let outputs = try interpreter.run(arrays)
        try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        for (k, output) in outputs.enumerated() {
            let path = URL(fileURLWithPath: outputDirectory).appendingPathComponent("output_\(k).npy").path
            try output.write(to: path)
            print("\(path): \(output.dataType) \(output.shape)")
        }
    }
}
