import TFLiteSchema

/// The invariants a typed tensor view states about its tensor, as one testable function.
///
/// ``TensorView`` and ``MutableTensorView`` trap on a violation when the package is built with
/// `LITEVISION_INTERNAL_CHECKS` (debug builds, and any build made with
/// `LITEVISION_INTERNAL_CHECKS=1` in the environment, as CI's test run is); other builds never
/// call this. Tests call it directly, so a wrong-type view can be shown to fail without trapping.
enum TensorViewCheck {
    /// Why viewing `tensor`'s memory at `data` as `Element` values breaks the view contract, or nil
    /// when it holds.
    ///
    /// The contract: `Element` stores the tensor's element type (``stores(_:as:)``); the view's
    /// `elementCount × stride` bytes are the tensor's `byteCount` and fit the bytes behind a
    /// constant (`constantByteCount`); `data` is aligned for `Element`.
    static func violation<Element>(_ tensor: RuntimeTensor, _ data: UnsafeRawPointer, as _: Element.Type) -> String? {
        guard stores(tensor.type, as: Element.self) else {
            return "tensor '\(tensor.name)' is \(tensor.type), viewed as \(Element.self)"
        }
        return byteViolation(tensor, data, as: Element.self)
    }

    /// Why viewing a tensor of a one-byte element type (int8, uint8, bool) as raw bytes breaks the
    /// view contract, or nil (the reinterpreting ``RuntimeTensor/byteView(_:)``).
    static func byteViolation(_ tensor: RuntimeTensor, _ data: UnsafeRawPointer) -> String? {
        guard tensor.type.byteSize == 1 else {
            return "tensor '\(tensor.name)' is \(tensor.type), viewed as bytes"
        }
        return byteViolation(tensor, data, as: UInt8.self)
    }

    /// Whether `Element` is the Swift type that stores `type`'s elements (float16 as its `UInt16`
    /// bit patterns, bool as `UInt8` or `Bool`; types without a Swift twin by byte size).
    static func stores<Element>(_ type: TensorType, as _: Element.Type) -> Bool {
        let e = Element.self
        switch type {
        case .float32: return e == Float.self
        case .float64: return e == Double.self
        case .float16, .bfloat16: return e == UInt16.self
        case .int8: return e == Int8.self
        case .uint8: return e == UInt8.self
        case .bool: return e == UInt8.self || e == Bool.self
        case .int16: return e == Int16.self
        case .uint16: return e == UInt16.self
        case .int32: return e == Int32.self
        case .uint32: return e == UInt32.self
        case .int64: return e == Int64.self
        case .uint64: return e == UInt64.self
        default: return type.byteSize == MemoryLayout<Element>.stride
        }
    }

    private static func byteViolation<Element>(_ tensor: RuntimeTensor, _ data: UnsafeRawPointer,
                                               as _: Element.Type) -> String? {
        let stride = MemoryLayout<Element>.stride
        let count = tensor.shape.reduce(1) { $0.multipliedReportingOverflow(by: max($1, 0)).partialValue }
        let (bytes, overflow) = count.multipliedReportingOverflow(by: stride)
        if overflow || bytes != tensor.byteCount {
            return "tensor '\(tensor.name)' (\(tensor.type), shape \(tensor.shape)) has \(tensor.byteCount) bytes, "
                + "the view \(count) × \(stride)"
        }
        if let available = tensor.constantByteCount, bytes > available {
            return "constant '\(tensor.name)' has \(available) bytes behind it, the view needs \(bytes)"
        }
        if Int(bitPattern: data) % MemoryLayout<Element>.alignment != 0 {
            return "tensor '\(tensor.name)' at \(data) is not aligned for \(Element.self)"
        }
        return nil
    }
}
