import Foundation

/// An input or output tensor of an ``Interpreter``: a snapshot of its name, type, shape,
/// quantization and bytes (as TensorFlowLiteSwift's `Tensor`).
public struct Tensor: Equatable, Hashable, Sendable {
    /// The tensor's name in the model.
    public let name: String
    /// Element type.
    public let dataType: DataType
    /// Shape.
    public let shape: Shape
    /// A copy of the tensor's bytes (little-endian, row-major). For zero-copy access use
    /// ``Interpreter/withUnsafeOutputBytes(at:_:)`` and friends.
    public let data: Data
    /// Quantization parameters, nil for tensors that are not quantized.
    public let quantizationParameters: QuantizationParameters?

    /// Creates a tensor value.
    public init(name: String, dataType: DataType, shape: Shape, data: Data,
                quantizationParameters: QuantizationParameters? = nil) {
        self.name = name; self.dataType = dataType; self.shape = shape; self.data = data
        self.quantizationParameters = quantizationParameters
    }
}

extension Tensor {
    /// The shape of a tensor: its dimensions, outermost first.
    public struct Shape: Equatable, Hashable, Sendable, ExpressibleByArrayLiteral, CustomStringConvertible {
        /// Number of dimensions.
        public let rank: Int
        /// Size of each dimension.
        public let dimensions: [Int]

        /// Creates a shape from its dimensions.
        public init(_ dimensions: [Int]) { self.dimensions = dimensions; rank = dimensions.count }
        /// Creates a shape from its dimensions.
        public init(_ elements: Int...) { self.init(elements) }
        /// Creates a shape from an array literal, e.g. `[1, 224, 224, 3]`.
        public init(arrayLiteral elements: Int...) { self.init(elements) }

        /// Number of elements (1 for a scalar).
        public var elementCount: Int { dimensions.reduce(1, *) }
        /// `[1, 224, 224, 3]`.
        public var description: String { "[" + dimensions.map(String.init).joined(separator: ", ") + "]" }
    }
}
