/// Value types of FlexBuffers (the schema-less format of custom-operator options).
public enum FlexBufferType: UInt8, Sendable {
    case null = 0, int = 1, uint = 2, float = 3, key = 4, string = 5
    case indirectInt = 6, indirectUInt = 7, indirectFloat = 8, map = 9, vector = 10
    case vectorInt = 11, vectorUInt = 12, vectorFloat = 13, vectorKey = 14, vectorStringDeprecated = 15
    case vectorInt2 = 16, vectorUInt2 = 17, vectorFloat2 = 18
    case vectorInt3 = 19, vectorUInt3 = 20, vectorFloat3 = 21
    case vectorInt4 = 22, vectorUInt4 = 23, vectorFloat4 = 24
    case blob = 25, bool = 26, vectorBool = 36

    /// Stored directly in the parent (no offset).
    var isInline: Bool { self == .null || self == .int || self == .uint || self == .float || self == .bool }

    /// For typed vectors: the element type and the fixed length (nil when length-prefixed).
    var typedVectorElement: (type: FlexBufferType, fixedCount: Int?)? {
        switch self {
        case .vectorInt: return (.int, nil)
        case .vectorUInt: return (.uint, nil)
        case .vectorFloat: return (.float, nil)
        case .vectorKey: return (.key, nil)
        case .vectorStringDeprecated: return (.string, nil)
        case .vectorBool: return (.bool, nil)
        case .vectorInt2: return (.int, 2)
        case .vectorUInt2: return (.uint, 2)
        case .vectorFloat2: return (.float, 2)
        case .vectorInt3: return (.int, 3)
        case .vectorUInt3: return (.uint, 3)
        case .vectorFloat3: return (.float, 3)
        case .vectorInt4: return (.int, 4)
        case .vectorUInt4: return (.uint, 4)
        case .vectorFloat4: return (.float, 4)
        default: return nil
        }
    }
}
