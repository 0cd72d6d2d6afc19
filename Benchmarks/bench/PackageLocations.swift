import Foundation

/// Where the benchmark finds the package's models, images and helper scripts.
///
/// The package root is the directory holding `Package.swift`: the current directory when it
/// has one (the usual `swift run` case), else the root this source file was compiled from.
struct PackageLocations {
    /// The package root.
    let root: String

    /// Locates the package root.
    init() {
        let fileManager = FileManager.default
        let current = fileManager.currentDirectoryPath
        if fileManager.fileExists(atPath: (current as NSString).appendingPathComponent("Package.swift")) {
            root = current
        } else {
            // Benchmarks/bench/PackageLocations.swift -> package root.
            root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().path
        }
    }

    /// `Models/`: the pinned reference models and `Models/images/`.
    var modelsDirectory: String { path("Models") }
    /// `Models/images/`: the sample photos.
    var imagesDirectory: String { path("Models/images") }
    /// `../shared/models/`: third-party models kept beside the package.
    var sharedModelsDirectory: String {
        URL(fileURLWithPath: root).deletingLastPathComponent().appendingPathComponent("shared/models").path
    }
    /// The reference-runtime helper script.
    var referenceScript: String { path("Scripts/reference-bench.py") }

    /// Every `.tflite` file of `Models/` and `../shared/models/`, sorted by file name within
    /// each folder; folders that do not exist contribute nothing.
    func referenceModels() -> [String] {
        [modelsDirectory, sharedModelsDirectory].flatMap { Self.files(in: $0, withExtension: "tflite") }
    }

    /// The `.png` photos of `Models/images/`.
    func sampleImages() -> [String] { Self.files(in: imagesDirectory, withExtension: "png") }

    private func path(_ relative: String) -> String { (root as NSString).appendingPathComponent(relative) }

    private static func files(in directory: String, withExtension fileExtension: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.filter { ($0 as NSString).pathExtension == fileExtension }.sorted()
            .map { (directory as NSString).appendingPathComponent($0) }
    }
}
