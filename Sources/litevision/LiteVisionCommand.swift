import ArgumentParser

/// `litevision`: run models, detect and track objects, manage hosted models.
@main
struct LiteVisionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "litevision",
        abstract: "Object detection, tracking and classification with a pure-Swift TFLite engine.",
        subcommands: [DetectCommand.self, TrackCommand.self, RunCommand.self, ModelsCommand.self],
        defaultSubcommand: DetectCommand.self)
}
