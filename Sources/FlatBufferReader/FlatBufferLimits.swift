/// Verifier-style limits applied while decoding one buffer, after the FlatBuffers verifier:
/// table nesting depth, number of tables visited and total decoded ("apparent") size.
public struct FlatBufferLimits: Sendable, Equatable {
    /// Maximum nesting depth of tables.
    public var maxDepth: Int
    /// Maximum number of tables visited.
    public var maxTables: Int
    /// Maximum sum of all vector/string byte sizes decoded, as a multiple of the buffer size
    /// plus a constant (shared sub-vectors may legally be referenced more than once).
    public var maxApparentSizeFactor: Int

    /// The FlatBuffers verifier defaults: depth 64, 1,000,000 tables.
    public static let verifierDefaults = FlatBufferLimits(maxDepth: 64, maxTables: 1_000_000,
                                                          maxApparentSizeFactor: 4)

    /// Creates limits.
    public init(maxDepth: Int, maxTables: Int, maxApparentSizeFactor: Int) {
        self.maxDepth = maxDepth; self.maxTables = maxTables
        self.maxApparentSizeFactor = maxApparentSizeFactor
    }
}

/// Counts tables and decoded bytes against `FlatBufferLimits` while one buffer is decoded.
/// Used by one decoding thread at a time (decoding happens once, at load).
public final class FlatBufferBudget: @unchecked Sendable {
    /// The limits enforced.
    public let limits: FlatBufferLimits
    /// Tables visited so far.
    public private(set) var tablesVisited = 0
    /// Bytes of vectors and strings decoded so far.
    public private(set) var apparentSize = 0
    private let apparentSizeLimit: Int

    /// Creates a budget for a buffer of `bufferSize` bytes.
    public init(limits: FlatBufferLimits, bufferSize: Int) {
        self.limits = limits
        let (product, overflow) = bufferSize.multipliedReportingOverflow(by: limits.maxApparentSizeFactor)
        apparentSizeLimit = overflow ? Int.max : product + (1 << 20)
    }

    /// Records one more table at `depth`.
    public func visitTable(depth: Int) throws {
        guard depth <= limits.maxDepth else { throw FlatBufferError.depthLimitExceeded(limit: limits.maxDepth) }
        tablesVisited += 1
        guard tablesVisited <= limits.maxTables else {
            throw FlatBufferError.tableLimitExceeded(limit: limits.maxTables)
        }
    }

    /// Records `bytes` more decoded bytes.
    public func consume(bytes: Int) throws {
        apparentSize += bytes
        guard apparentSize <= apparentSizeLimit else {
            throw FlatBufferError.apparentSizeExceeded(limit: apparentSizeLimit)
        }
    }
}
