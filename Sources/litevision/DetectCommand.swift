import ArgumentParser

/// `litevision detect`: Detect objects in images.
struct DetectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "detect", abstract: "Detect objects in images.")

    func run() async throws {
        throw ValidationError("litevision detect is not implemented yet")
    }
}
