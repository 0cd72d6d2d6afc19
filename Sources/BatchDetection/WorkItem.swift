import Foundation

/// One unit of batch work: an image file and the identifier its result record echoes.
///
/// A work-item line is either a bare path (the path is also the id) or a JSON object
/// `{"id": ..., "path": ...}` whose `id` is a string or a number (optional: the path is used
/// when it is absent). A line starting with `{` is always read as JSON.
public struct WorkItem: Sendable, Equatable {
    /// The identifier echoed in the item's record.
    public var id: WorkItemID
    /// The image file.
    public var path: String

    /// Creates a work item.
    public init(id: WorkItemID, path: String) {
        self.id = id
        self.path = path
    }

    /// Parses one input line (without its newline; a trailing `\r` is dropped).
    /// - Returns: the item, or a ``BatchItemError`` of kind ``BatchItemError/Kind/invalidItem``
    ///   whose ``WorkItemID`` is the best identifier the line offers (its `id`, else the raw line).
    public static func parse(line rawLine: String) -> Result<WorkItem, BatchFailure> {
        let line = rawLine.hasSuffix("\r") ? String(rawLine.dropLast()) : rawLine
        guard line.first == "{" else { return .success(WorkItem(id: .string(line), path: line)) }
        let fallbackID = WorkItemID.string(line)
        let object: JSONWorkItem
        do {
            object = try JSONDecoder().decode(JSONWorkItem.self, from: Data(line.utf8))
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.first?.stringValue == "id" {
            return .failure(BatchFailure(id: fallbackID,
                                         error: BatchItemError(.invalidItem, "\"id\" must be a string or a number")))
        } catch {
            return .failure(BatchFailure(id: fallbackID, error: BatchItemError(
                .invalidItem, "the line starts with { but is not a JSON object")))
        }
        let id = object.id
        guard let path = object.path, !path.isEmpty else {
            return .failure(BatchFailure(id: id ?? fallbackID,
                                         error: BatchItemError(.invalidItem, "the object needs a non-empty string \"path\"")))
        }
        return .success(WorkItem(id: id ?? .string(path), path: path))
    }
}

/// The identifier of a work item as the input gave it: a string or a JSON number.
public enum WorkItemID: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A string id (and every bare-path item).
    case string(String)
    /// An integer id.
    case integer(Int64)
    /// A non-integer number id.
    case number(Double)

    /// Decodes a JSON string or number; other JSON types are a type mismatch.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let number = try? container.decode(Double.self), number.isFinite {
            self = .number(number)
        } else {
            throw DecodingError.typeMismatch(WorkItemID.self, DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "an id is a string or a number"))
        }
    }

    /// Encodes the id as the JSON type it came as.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let s): try container.encode(s)
        case .integer(let i): try container.encode(i)
        case .number(let d): try container.encode(d)
        }
    }

    /// The id as text (for logs).
    public var description: String {
        switch self {
        case .string(let s): return s
        case .integer(let i): return String(i)
        case .number(let d): return String(d)
        }
    }
}

/// The JSON form of a work-item line. A `path` of the wrong type reads as absent, so the
/// error record can still echo the line's `id`.
private struct JSONWorkItem: Decodable {
    var id: WorkItemID?
    var path: String?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(WorkItemID.self, forKey: .id)
        path = try? container.decodeIfPresent(String.self, forKey: .path)
    }
    enum CodingKeys: String, CodingKey { case id, path }
}
