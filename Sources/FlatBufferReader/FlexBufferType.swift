/// Value types of FlexBuffers (the schema-less format of custom-operator options).
public enum FlexBufferType: UInt8, Sendable {
    /// No value.
    case null = 0
    /// Signed integer stored inline.
    case int = 1
    /// Unsigned integer stored inline.
    case uint = 2
    /// Float (4 or 8 bytes) stored inline.
    case float = 3
    /// Zero-terminated map key.
    case key = 4
    /// Length-prefixed, zero-terminated UTF-8 string.
    case string = 5
    /// Signed integer stored out of line.
    case indirectInt = 6
    /// Unsigned integer stored out of line.
    case indirectUInt = 7
    /// Float stored out of line.
    case indirectFloat = 8
    /// Sorted keys with one value each.
    case map = 9
    /// Untyped vector: each element carries its own type byte.
    case vector = 10
    /// Length-prefixed vector of signed integers.
    case vectorInt = 11
    /// Length-prefixed vector of unsigned integers.
    case vectorUInt = 12
    /// Length-prefixed vector of floats.
    case vectorFloat = 13
    /// Length-prefixed vector of keys (a map's key list).
    case vectorKey = 14
    /// Length-prefixed vector of strings (deprecated by the format).
    case vectorStringDeprecated = 15
    /// Two signed integers.
    case vectorInt2 = 16
    /// Two unsigned integers.
    case vectorUInt2 = 17
    /// Two floats.
    case vectorFloat2 = 18
    /// Three signed integers.
    case vectorInt3 = 19
    /// Three unsigned integers.
    case vectorUInt3 = 20
    /// Three floats.
    case vectorFloat3 = 21
    /// Four signed integers.
    case vectorInt4 = 22
    /// Four unsigned integers.
    case vectorUInt4 = 23
    /// Four floats.
    case vectorFloat4 = 24
    /// Length-prefixed bytes.
    case blob = 25
    /// Boolean stored inline.
    case bool = 26
    /// Length-prefixed vector of booleans.
    case vectorBool = 36

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
