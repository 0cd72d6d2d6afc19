// Type-generic data movement: kernels that only move elements work on any element type
// of the same byte width, so they are written once, generic over a plain carrier type.

/// An operation that moves elements without looking at their values; `run` is called with
/// an unsigned carrier type of the element's byte width.
public protocol ElementMovingOperation {
    /// Runs the operation with elements carried as `T` (same size as the real element type).
    func run<T>(_ carrier: T.Type)
}

/// Element byte widths the data-movement kernels handle.
public enum ElementSize {
    /// True when `size` is a width the data-movement kernels support (1, 2, 4, 8 or 16 bytes).
    public static func isSupported(_ size: Int) -> Bool {
        size == 1 || size == 2 || size == 4 || size == 8 || size == 16
    }

    /// Calls `operation.run` with an unsigned carrier of `size` bytes.
    /// Precondition: `isSupported(size)`.
    @inlinable
    public static func dispatch<Operation: ElementMovingOperation>(_ size: Int, _ operation: Operation) {
        switch size {
        case 1: operation.run(UInt8.self)
        case 2: operation.run(UInt16.self)
        case 4: operation.run(UInt32.self)
        case 8: operation.run(UInt64.self)
        case 16: operation.run(SIMD2<UInt64>.self)
        default: preconditionFailure("unsupported element size \(size)")
        }
    }
}
