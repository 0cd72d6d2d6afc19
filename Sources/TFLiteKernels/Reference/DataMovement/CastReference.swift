// CAST: element type conversion between the numeric types and bool, as the reference does:
// integer → integer wraps like `static_cast`, float → integer truncates toward zero and
// saturates to the target range, anything → bool is `!= 0`.

/// A value in one of CAST's element types, widened for conversion.
public enum CastValue {
    /// Reads element `i` of `pointer` holding `type` elements, as Double plus exact Int64.
    @inline(__always)
    static func load(_ pointer: UnsafeRawPointer, _ i: Int, _ type: CastElementType) -> (Double, Int64, Bool) {
        switch type {
        case .float32: let v = pointer.load(fromByteOffset: i * 4, as: Float.self); return (Double(v), 0, true)
        case .float64: let v = pointer.load(fromByteOffset: i * 8, as: Double.self); return (v, 0, true)
        case .float16:
            let v = Float16Conversion.float(fromBits: pointer.load(fromByteOffset: i * 2, as: UInt16.self))
            return (Double(v), 0, true)
        case .uint8: let v = Int64(pointer.load(fromByteOffset: i, as: UInt8.self)); return (Double(v), v, false)
        case .int8: let v = Int64(pointer.load(fromByteOffset: i, as: Int8.self)); return (Double(v), v, false)
        case .int16: let v = Int64(pointer.load(fromByteOffset: i * 2, as: Int16.self)); return (Double(v), v, false)
        case .uint16: let v = Int64(pointer.load(fromByteOffset: i * 2, as: UInt16.self)); return (Double(v), v, false)
        case .int32: let v = Int64(pointer.load(fromByteOffset: i * 4, as: Int32.self)); return (Double(v), v, false)
        case .uint32: let v = Int64(pointer.load(fromByteOffset: i * 4, as: UInt32.self)); return (Double(v), v, false)
        case .int64: let v = pointer.load(fromByteOffset: i * 8, as: Int64.self); return (Double(v), v, false)
        case .bool: let v: Int64 = pointer.load(fromByteOffset: i, as: UInt8.self) != 0 ? 1 : 0; return (Double(v), v, false)
        }
    }
}

/// Element types CAST converts between.
public enum CastElementType: Sendable, Equatable {
    case float32, float64, float16, uint8, int8, int16, uint16, int32, uint32, int64, bool
}

/// Reference CAST kernel.
public enum CastReference {
    /// `value` as `T`: clamped to `T`'s range when `saturating`, else wrapped.
    @inline(__always)
    static func narrow<T: FixedWidthInteger>(_ value: Int64, saturating: Bool, as: T.Type) -> T {
        saturating ? T(clamping: value) : T(truncatingIfNeeded: value)
    }

    /// Converts `count` elements of `inputType` to `outputType`.
    /// - Precondition: `count ≥ 0`; every pointer holds at least `count` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func run(count: Int, inputType: CastElementType, input: UnsafeRawPointer,
                           outputType: CastElementType, output: UnsafeMutableRawPointer) {
        KernelPrecondition.validCount(count)
        for i in 0..<count {
            let (real, integer, isFloat) = CastValue.load(input, i, inputType)
            // Integer targets: exact integers wrap like static_cast; floats truncate toward zero.
            let asInteger: Int64
            if isFloat {
                let t = real.rounded(.towardZero)
                asInteger = t.isNaN ? 0 : (t >= 9.2e18 ? Int64.max : (t <= -9.2e18 ? Int64.min : Int64(t)))
            } else {
                asInteger = integer
            }
            switch outputType {
            case .float32:
                output.storeBytes(of: isFloat ? Float(real) : Float(integer), toByteOffset: i * 4, as: Float.self)
            case .float64:
                output.storeBytes(of: isFloat ? real : Double(integer), toByteOffset: i * 8, as: Double.self)
            case .float16:
                output.storeBytes(of: Float16Conversion.bits(from: isFloat ? Float(real) : Float(integer)),
                                  toByteOffset: i * 2, as: UInt16.self)
            case .uint8: output.storeBytes(of: narrow(asInteger, saturating: isFloat, as: UInt8.self), toByteOffset: i, as: UInt8.self)
            case .int8: output.storeBytes(of: narrow(asInteger, saturating: isFloat, as: Int8.self), toByteOffset: i, as: Int8.self)
            case .int16: output.storeBytes(of: narrow(asInteger, saturating: isFloat, as: Int16.self), toByteOffset: i * 2, as: Int16.self)
            case .uint16: output.storeBytes(of: narrow(asInteger, saturating: isFloat, as: UInt16.self), toByteOffset: i * 2, as: UInt16.self)
            case .int32: output.storeBytes(of: narrow(asInteger, saturating: isFloat, as: Int32.self), toByteOffset: i * 4, as: Int32.self)
            case .uint32: output.storeBytes(of: narrow(asInteger, saturating: isFloat, as: UInt32.self), toByteOffset: i * 4, as: UInt32.self)
            case .int64: output.storeBytes(of: asInteger, toByteOffset: i * 8, as: Int64.self)
            case .bool:
                let nonZero = isFloat ? real != 0 : integer != 0
                output.storeBytes(of: UInt8(nonZero ? 1 : 0), toByteOffset: i, as: UInt8.self)
            }
        }
    }
}
