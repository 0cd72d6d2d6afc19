/// Errors of the detection layer, each with a message a user can act on.
public enum ObjectDetectionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The model's inputs or outputs are not of a kind this detector understands.
    case unsupportedModel(String)
    /// A model, label file or bundle could not be read.
    case invalidResource(String)
    /// The options are inconsistent.
    case invalidOptions(String)
    /// The image cannot be processed.
    case invalidImage(String)

    /// A readable message.
    public var description: String {
        switch self {
        case let .unsupportedModel(m): return "unsupported model: \(m)"
        case let .invalidResource(m): return "invalid resource: \(m)"
        case let .invalidOptions(m): return "invalid options: \(m)"
        case let .invalidImage(m): return "invalid image: \(m)"
        }
    }
}
