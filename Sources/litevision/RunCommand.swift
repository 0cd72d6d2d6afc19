import ArgumentParser

/// `litevision run`: Run a model on .npy inputs.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run a model on .npy inputs.")

    func run() async throws {
        throw ValidationError("litevision run is not implemented yet")
    }
}
