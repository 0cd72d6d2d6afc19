import TFLiteInterpreter

/// Fills a model's inputs with reproducible random values of the right element type:
/// floats uniform in [-1, 1), 8-bit integers over their whole range, booleans 0/1, and
/// wider integers 0 (they are usually indices or sizes, where random values are invalid).
/// `Scripts/reference-bench.py` follows the same rules.
struct RandomInputs {
    private var state: UInt64

    /// A generator with a fixed seed.
    init(seed: UInt64 = 0x5EED) { state = seed }

    /// Fills every input of `interpreter` (after `allocateTensors()`).
    mutating func fill(_ interpreter: Interpreter) throws {
        for index in 0..<interpreter.inputTensorCount {
            let type = try interpreter.inputDataType(at: index)
            try interpreter.withUnsafeMutableInputBytes(at: index) { bytes in fill(bytes, as: type) }
        }
    }

    private mutating func fill(_ bytes: UnsafeMutableRawBufferPointer, as type: Tensor.DataType) {
        switch type {
        case .float32:
            for k in 0..<bytes.count / 4 { bytes.storeBytes(of: unitFloat(), toByteOffset: 4 * k, as: Float.self) }
        case .float64:
            for k in 0..<bytes.count / 8 {
                bytes.storeBytes(of: Double(unitFloat()), toByteOffset: 8 * k, as: Double.self)
            }
        case .float16:
            for k in 0..<bytes.count / 2 {
                bytes.storeBytes(of: Float16(unitFloat()).bitPattern, toByteOffset: 2 * k, as: UInt16.self)
            }
        case .uInt8, .int8:
            // Eight bytes per draw: the fill is part of the cold-start time, and a draw per byte
            // cost 0.4 ms on efficientnet_lite0's 150,528-byte image.
            let words = bytes.count / 8
            for k in 0..<words { bytes.storeBytes(of: next(), toByteOffset: 8 * k, as: UInt64.self) }
            for k in 8 * words..<bytes.count { bytes[k] = UInt8(truncatingIfNeeded: next()) }
        case .bool:
            for k in 0..<bytes.count { bytes[k] = UInt8(next() & 1) }
        case .int16, .uInt16, .int32, .uInt32, .int64, .uInt64:
            for k in 0..<bytes.count { bytes[k] = 0 }
        }
    }

    /// A float uniform in [-1, 1).
    private mutating func unitFloat() -> Float { Float(next() >> 40) / Float(1 << 23) - 1 }

    /// SplitMix64.
    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
