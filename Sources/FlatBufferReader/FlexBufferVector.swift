/// A FlexBuffers vector: untyped (each element carries its packed type), typed
/// (one element type, length-prefixed) or fixed-length typed (2, 3 or 4 elements).
public struct FlexBufferVector: Sendable {
    private let bytes: [UInt8]
    /// Position of the first element.
    private let start: Int
    /// Number of elements.
    public let count: Int
    /// Width of each element slot.
    private let width: Int
    /// Element type of typed vectors; nil for untyped vectors and maps.
    private let elementType: FlexBufferType?

    /// Interprets `reference` as a vector; throws when it is not one or does not fit.
    public init(_ reference: FlexBufferReference) throws {
        bytes = reference.bytes
        width = reference.byteWidth
        switch reference.type {
        case .vector, .map:
            let data = try reference.sizedData(elementWidth: width)
            start = data.start; count = data.count; elementType = nil
            // Untyped vectors store one packed type byte per element after the elements.
            guard start + count * width + count <= bytes.count else {
                throw FlatBufferError.outOfBounds(what: "FlexBuffer vector types", offset: start + count * width,
                                                  size: count, bufferSize: bytes.count)
            }
        default:
            guard let (type, fixedCount) = reference.type.typedVectorElement else {
                throw FlatBufferError.malformed("FlexBuffer \(reference.type) is not a vector")
            }
            elementType = type
            if let fixedCount {
                start = try reference.indirect(); count = fixedCount
                guard start + count * width <= bytes.count else {
                    throw FlatBufferError.outOfBounds(what: "FlexBuffer fixed vector", offset: start,
                                                      size: count * width, bufferSize: bytes.count)
                }
            } else {
                let data = try reference.sizedData(elementWidth: width)
                start = data.start; count = data.count
            }
        }
    }

    /// Element `index`, or nil when out of range or malformed.
    public subscript(index: Int) -> FlexBufferReference? {
        guard index >= 0, index < count else { return nil }
        let position = start + index * width
        if let elementType {
            // Typed vector elements share the vector's width; bools are stored as uints.
            return FlexBufferReference(bytes: bytes, position: position, parentWidth: width, byteWidth: width,
                                       type: elementType)
        }
        let typeOffset = start + count * width + index
        guard typeOffset < bytes.count, let (type, childWidth) = try? FlexBufferReference.unpack(bytes[typeOffset])
        else { return nil }
        return FlexBufferReference(bytes: bytes, position: position, parentWidth: width, byteWidth: childWidth, type: type)
    }

    /// All elements that decode.
    public var elements: [FlexBufferReference] { (0..<count).compactMap { self[$0] } }

    /// All elements as integers (nil entries dropped).
    public var ints: [Int64] { elements.compactMap(\.int) }

    /// All elements as doubles (nil entries dropped).
    public var doubles: [Double] { elements.compactMap(\.double) }
}
