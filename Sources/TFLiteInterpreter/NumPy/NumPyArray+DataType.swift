import Foundation

extension NumPyArray {
    /// The element types `.npy` files may hold here (little-endian, fixed size).
    public enum DataType: String, Equatable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// `<f2`.
        case float16 = "f2"
        /// `<f4`.
        case float32 = "f4"
        /// `<f8`.
        case float64 = "f8"
        /// `|i1`.
        case int8 = "i1"
        /// `|u1`.
        case uint8 = "u1"
        /// `<i2`.
        case int16 = "i2"
        /// `<u2`.
        case uint16 = "u2"
        /// `<i4`.
        case int32 = "i4"
        /// `<u4`.
        case uint32 = "u4"
        /// `<i8`.
        case int64 = "i8"
        /// `<u8`.
        case uint64 = "u8"
        /// `|b1`.
        case bool = "b1"

        /// Bytes per element.
        public var byteSize: Int { Int(rawValue.dropFirst())! }

        /// The `descr` string written to headers, e.g. `<f4` or `|u1`.
        public var descriptor: String { (byteSize == 1 ? "|" : "<") + rawValue }

        /// NumPy's name, e.g. `float32`.
        public var description: String { tensorDataType.schemaType.description }

        /// The interpreter tensor type with the same layout.
        public var tensorDataType: Tensor.DataType {
            switch self {
            case .float16: return .float16
            case .float32: return .float32
            case .float64: return .float64
            case .int8: return .int8
            case .uint8: return .uInt8
            case .int16: return .int16
            case .uint16: return .uInt16
            case .int32: return .int32
            case .uint32: return .uInt32
            case .int64: return .int64
            case .uint64: return .uInt64
            case .bool: return .bool
            }
        }

        /// The `.npy` type for an interpreter tensor type.
        public init(_ type: Tensor.DataType) {
            self = Self.allCases.first { $0.tensorDataType == type }!
        }

        /// Element `i` of little-endian `raw` as a Double.
        func loadDouble(from raw: UnsafeRawBufferPointer, at i: Int) -> Double {
            let offset = i * byteSize
            switch self {
            case .float16: return Double(Float(float16Bits: UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self))))
            case .float32: return Double(Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))))
            case .float64: return Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            case .int8: return Double(Int8(bitPattern: raw[offset]))
            case .uint8: return Double(raw[offset])
            case .bool: return raw[offset] == 0 ? 0 : 1
            case .int16: return Double(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int16.self)))
            case .uint16: return Double(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
            case .int32: return Double(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)))
            case .uint32: return Double(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            case .int64: return Double(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int64.self)))
            case .uint64: return Double(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            }
        }
    }
}

extension Float {
    /// Decodes IEEE half-precision bits (portable; no `Float16` type needed).
    init(float16Bits bits: UInt16) {
        let sign = UInt32(bits >> 15) << 31
        let exponent = Int((bits >> 10) & 0x1F)
        let mantissa = UInt32(bits & 0x3FF)
        if exponent == 0x1F {
            self = Float(bitPattern: sign | 0x7F80_0000 | (mantissa << 13))
        } else if exponent == 0 {
            let magnitude = Float(mantissa) * 0x1p-24
            self = sign == 0 ? magnitude : -magnitude
        } else {
            self = Float(bitPattern: sign | UInt32(exponent - 15 + 127) << 23 | (mantissa << 13))
        }
    }
}
