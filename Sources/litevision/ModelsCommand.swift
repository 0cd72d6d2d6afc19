import ArgumentParser

/// `litevision models`: Download and manage hosted models.
struct ModelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "models", abstract: "Download and manage hosted models.")

    func run() async throws {
        throw ValidationError("litevision models is not implemented yet")
    }
}
