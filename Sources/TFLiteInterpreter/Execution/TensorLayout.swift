import TFLiteSchema

/// Overflow-checked size arithmetic for tensor shapes read from untrusted models.
enum TensorLayout {
    /// The number of elements of `shape`, or nil when a dimension is negative or the
    /// product overflows.
    static func elementCount(_ shape: [Int]) -> Int? {
        var count = 1
        for dimension in shape {
            guard dimension >= 0 else { return nil }
            let (product, overflow) = count.multipliedReportingOverflow(by: dimension)
            guard !overflow else { return nil }
            count = product
        }
        return count
    }

    /// Bytes of a tensor of `type` and `shape`, or nil when the type has no fixed size,
    /// the shape is invalid or the size overflows.
    static func byteCount(_ shape: [Int], _ type: TensorType) -> Int? {
        guard let size = type.byteSize, let count = elementCount(shape) else { return nil }
        let (bytes, overflow) = count.multipliedReportingOverflow(by: size)
        return overflow ? nil : bytes
    }
}
