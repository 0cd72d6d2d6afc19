import ArgumentParser

/// `litevision track`: Track objects across video frames.
struct TrackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "track", abstract: "Track objects across video frames.")

    func run() async throws {
        throw ValidationError("litevision track is not implemented yet")
    }
}
