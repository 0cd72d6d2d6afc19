import ArgumentParser
import Foundation
import ModelHosting
import ResourceLimitOptions
import TFLiteSchema
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `litevision models`: download and manage hosted models.
struct ModelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models", abstract: "Download and manage hosted models.",
        discussion: """
            A model host serves {host}/models/{name}.json = {name, version, size, sha256, url}.
            Scripts/serve-models.sh DIR PORT serves a folder of .tflite files that way on loopback.
            """,
        subcommands: [ModelsDownloadCommand.self, ModelsListCommand.self, ModelsDeleteCommand.self])
}

/// Options shared by the `models` subcommands.
struct ModelCacheOptions: ParsableArguments {
    @Option(name: .long, help: "Model cache directory (default: the user cache directory's LiteVision/Models).")
    var cache: String?

    func validate() throws {
        var isDirectory: ObjCBool = false
        if let cache, FileManager.default.fileExists(atPath: cache, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw ValidationError("--cache \(cache) exists and is not a directory; give a directory for the model cache")
        }
    }

    func manager(validator: ModelValidator = .standard, idleTimeout: Double = 30,
                 limits: ResourceLimits = .default) -> ModelManager {
        let directory = cache.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? ModelManager.Configuration.defaultCacheDirectory
        let configuration = ModelManager.Configuration(cacheDirectory: directory, idleTimeout: idleTimeout, validator: validator,
                                                       resourceLimits: limits)
        return ModelManager(configuration: configuration)
    }
}

/// How thoroughly a downloaded file is checked before install.
enum ModelCheck: String, ExpressibleByArgument, CaseIterable {
    /// Parse with the model loader and allocate tensors in the interpreter (every operator supported).
    case full
    /// Parse and validate the file structure only.
    case structure

    /// The validator checking a model under `limits`.
    func validator(limits: ResourceLimits) -> ModelValidator {
        switch self {
        case .full: return .standard(limits: limits)
        case .structure:
            let parses = ModelValidator.modelFile(limits: limits)
            return ModelValidator { path in
                try ModelValidator.fileIdentifier.validate(path)
                try parses.validate(path)
            }
        }
    }
}

/// `litevision models download NAME --host URL`.
struct ModelsDownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download (or update) a hosted model; a no-op when the installed version is current.")

    @Argument(help: "Model name on the host.")
    var name: String

    @Option(name: .long, help: "Host base URL (http or https).")
    var host: String

    @Option(name: .long, help: "Check before install: full (load and allocate) or structure.")
    var check: ModelCheck = .full

    @Option(name: .long, parsing: .unconditional, help: "Seconds without data before a request fails.")
    var timeout: Double = 30

    /// `--deadline`, `--min-rate` and `--min-rate-window`.
    @OptionGroup(title: "Download limits") var downloadLimits: DownloadLimitOptionGroup

    @OptionGroup var cacheOptions: ModelCacheOptions

    /// The limits the downloaded model is checked under before install (`--max-memory`,
    /// `--max-tensor-size`, `--max-label-*`, `--max-archive-*`).
    @OptionGroup(title: "Resource limits") var limits: ResourceLimitOptionGroup

    func validate() throws {
        guard timeout.isFinite, timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds, got \(timeout)") }
    }

    func run() async throws {
        guard let hostURL = URL(string: host), let scheme = hostURL.scheme?.lowercased(),
              scheme == "http" || scheme == "https" else {
            throw ValidationError("--host must be an http or https URL, got '\(host)'")
        }
        let resourceLimits = downloadLimits.resourceLimits(base: limits.resourceLimits())
        let manager = cacheOptions.manager(validator: check.validator(limits: resourceLimits), idleTimeout: timeout,
                                           limits: resourceLimits)
        let model = RemoteModel(name: name, host: hostURL)
        let download = manager.download(model)
        let reporter = ProgressReporter(interactive: isatty(STDOUT_FILENO) == 1, name: name)
        for await update in download.progressUpdates() { reporter.show(update) }
        do {
            let path = try await download.result()
            reporter.finish()
            let info = manager.downloadedModelInfo(model)
            print("\(name) version \(info?.version ?? "?") (\(info?.size ?? 0) bytes, sha256 \(info?.sha256.prefix(16) ?? "?")…): \(path)")
        } catch {
            reporter.finish()
            FileHandle.standardError.write(Data("error: \(name): \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}

/// `litevision models list`.
struct ModelsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List downloaded models.")

    @OptionGroup var cacheOptions: ModelCacheOptions

    func run() async throws {
        let models = cacheOptions.manager().downloadedModels()
        if models.isEmpty {
            print("no downloaded models in \(cacheOptions.cache ?? ModelManager.Configuration.defaultCacheDirectory.path)")
            return
        }
        for record in models {
            print("\(record.name)\tversion \(record.version)\t\(record.size) bytes\tsha256 \(record.sha256.prefix(16))…\t\(record.host)")
        }
    }
}

/// `litevision models delete NAME`.
struct ModelsDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a downloaded model.")

    @Argument(help: "Model name.")
    var name: String

    @OptionGroup var cacheOptions: ModelCacheOptions

    func run() async throws {
        let manager = cacheOptions.manager()
        let existed = manager.downloadedModels().contains { $0.name == name }
        do {
            try await manager.deleteDownloadedModel(named: name)
        } catch {
            FileHandle.standardError.write(Data("error: \(name): \(error)\n".utf8))
            throw ExitCode.failure
        }
        print(existed ? "deleted \(name)" : "\(name) was not downloaded")
    }
}

/// Progress output: a redrawn bar on a terminal, one line per 10 % otherwise.
final class ProgressReporter {
    private let interactive: Bool
    private let name: String
    private var lastDecile = -1
    private var drewBar = false

    init(interactive: Bool, name: String) {
        self.interactive = interactive
        self.name = name
    }

    func show(_ progress: ModelDownloadProgress) {
        guard progress.totalBytes > 0 else { return }
        let fraction = progress.fractionCompleted
        if interactive {
            let width = 30
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
            FileHandle.standardOutput.write(Data(
                "\r\(name) [\(bar)] \(Int(fraction * 100))% \(progress.completedBytes)/\(progress.totalBytes) bytes".utf8))
            drewBar = true
        } else {
            let decile = Int(fraction * 10)
            if decile > lastDecile {
                lastDecile = decile
                FileHandle.standardOutput.write(Data(
                    "\(name): \(decile * 10)% (\(progress.completedBytes)/\(progress.totalBytes) bytes)\n".utf8))
            }
        }
    }

    func finish() {
        if drewBar { FileHandle.standardOutput.write(Data("\n".utf8)) }
        drewBar = false
    }
}
