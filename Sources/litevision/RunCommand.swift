import ArgumentParser
import Foundation
import ResourceLimitOptions
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

    @Option(parsing: .unconditional, help: "Threads to use (default: all cores).")
    var threads: Int?

    @Option(help: "Float convolution rounding: automatic (fused multiply-adds unless the model quantizes float activations), reference (each product and sum rounded as the reference kernels do: their results bit for bit), or fused.")
    var floatArithmetic: FloatArithmetic = .automatic

    @OptionGroup(title: "Resource limits") var limits: ResourceLimitOptionGroup

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1, got \(threads)") }
    }

    func run() async throws {
        var options = Interpreter.Options(threadCount: threads, resourceLimits: limits.resourceLimits())
        options.floatArithmetic = floatArithmetic
        try Self.checkOutputDirectory(outputDirectory)
        let interpreter = try Interpreter(modelPath: model, options: options)
        guard inputs.count == interpreter.inputTensorCount else {
            throw ValidationError(
                "\(model) has \(interpreter.inputTensorCount) inputs (\(interpreter.inputNames.joined(separator: ", "))); got \(inputs.count) --input file(s)")
        }
        let arrays = try inputs.map { try NumPyArray(contentsOf: $0) }
        try interpreter.invoke(with: arrays)
        try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        for k in 0..<interpreter.outputTensorCount {
            // Straight from the interpreter's memory: a 1 GiB output is not copied again.
            let path = URL(fileURLWithPath: outputDirectory).appendingPathComponent("output_\(k).npy").path
            let (type, shape) = try interpreter.writeOutput(at: k, toNumPyFile: path)
            print("\(path): \(type) \(shape)")
        }
    }

    /// Refuses an --output-dir that exists and is not a directory, before any work is done.
    static func checkOutputDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw ValidationError("--output-dir \(path) exists and is not a directory")
        }
    }
}

extension FloatArithmetic: ExpressibleByArgument {
    /// `automatic`, `reference` or `fused` (``FloatArithmetic/name``).
    public init?(argument: String) { self.init(name: argument) }
}
