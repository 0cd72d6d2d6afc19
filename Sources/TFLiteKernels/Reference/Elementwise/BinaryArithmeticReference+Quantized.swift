// Quantized ADD / SUB / MUL (uint8, int8, int16 with zero points) with the reference
// runtime's integer arithmetic: inputs are rescaled onto a common scale shifted left by
// `leftShift` (20 bits for 8-bit, 15 for 16-bit), added, then requantized.

extension BinaryArithmeticReference {
    /// Fixed-point parameters of quantized ADD and SUB, computed once at prepare.
    public struct QuantizedAddParams: Sendable, Equatable {
        /// Bits the zero-point-corrected inputs are shifted left by (20 for 8-bit, 15 for 16-bit).
        public var leftShift: Int
        /// `-zeroPoint` of input 1.
        public var input1Offset: Int32
        /// `-zeroPoint` of input 2.
        public var input2Offset: Int32
        /// Output zero point.
        public var outputOffset: Int32
        /// Rescaling of input 1 (≤ 1).
        public var input1Multiplier: QuantizedMultiplier
        /// Rescaling of input 2 (≤ 1).
        public var input2Multiplier: QuantizedMultiplier
        /// Rescaling of the sum onto the output scale.
        public var outputMultiplier: QuantizedMultiplier
        /// Fused activation clamp (quantized).
        public var activationMin: Int32
        /// Fused activation clamp (quantized).
        public var activationMax: Int32

        /// Computes the parameters as the reference `Prepare` does.
        public init(input1Scale: Float, input1ZeroPoint: Int32, input2Scale: Float, input2ZeroPoint: Int32,
                    outputScale: Float, outputZeroPoint: Int32, leftShift: Int,
                    activationMin: Int32, activationMax: Int32) {
            self.leftShift = leftShift
            input1Offset = -input1ZeroPoint
            input2Offset = -input2ZeroPoint
            outputOffset = outputZeroPoint
            let twiceMax = 2 * Double(Swift.max(input1Scale, input2Scale))
            input1Multiplier = QuantizedMultiplier(Double(input1Scale) / twiceMax)
            input2Multiplier = QuantizedMultiplier(Double(input2Scale) / twiceMax)
            outputMultiplier = QuantizedMultiplier(twiceMax / (Double(Int64(1) << leftShift) * Double(outputScale)))
            self.activationMin = activationMin
            self.activationMax = activationMax
        }
    }

    /// Fixed-point parameters of quantized MUL.
    public struct QuantizedMulParams: Sendable, Equatable {
        /// `-zeroPoint` of input 1.
        public var input1Offset: Int32
        /// `-zeroPoint` of input 2.
        public var input2Offset: Int32
        /// Output zero point.
        public var outputOffset: Int32
        /// `scale1 × scale2 / outputScale`.
        public var outputMultiplier: QuantizedMultiplier
        /// Fused activation clamp (quantized).
        public var activationMin: Int32
        /// Fused activation clamp (quantized).
        public var activationMax: Int32

        /// Computes the parameters as the reference `Prepare` does.
        public init(input1Scale: Float, input1ZeroPoint: Int32, input2Scale: Float, input2ZeroPoint: Int32,
                    outputScale: Float, outputZeroPoint: Int32, activationMin: Int32, activationMax: Int32) {
            input1Offset = -input1ZeroPoint
            input2Offset = -input2ZeroPoint
            outputOffset = outputZeroPoint
            // The reference computes the real multiplier in single precision.
            outputMultiplier = QuantizedMultiplier(Double(input1Scale * input2Scale / outputScale))
            self.activationMin = activationMin
            self.activationMax = activationMax
        }
    }

    /// One quantized ADD (or SUB when `subtract`) element, exactly as the reference computes it.
    @inline(__always)
    public static func quantizedAddElement(_ x: Int32, _ y: Int32, _ p: QuantizedAddParams, subtract: Bool) -> Int32 {
        let shifted1 = (x + p.input1Offset) &* (Int32(1) << Int32(p.leftShift))
        let shifted2 = (y + p.input2Offset) &* (Int32(1) << Int32(p.leftShift))
        let scaled1 = multiplyByQuantizedMultiplierSmallerThanOne(
            shifted1, p.input1Multiplier.multiplier, p.input1Multiplier.shift)
        let scaled2 = multiplyByQuantizedMultiplierSmallerThanOne(
            shifted2, p.input2Multiplier.multiplier, p.input2Multiplier.shift)
        let raw = subtract ? scaled1 &- scaled2 : scaled1 &+ scaled2
        let out = multiplyByQuantizedMultiplierSmallerThanOne(
            raw, p.outputMultiplier.multiplier, p.outputMultiplier.shift) &+ p.outputOffset
        return Swift.min(p.activationMax, Swift.max(p.activationMin, out))
    }

    /// One quantized MUL element, exactly as the reference computes it.
    @inline(__always)
    public static func quantizedMulElement(_ x: Int32, _ y: Int32, _ p: QuantizedMulParams) -> Int32 {
        let product = (x + p.input1Offset) &* (y + p.input2Offset)
        let out = p.outputOffset &+ multiplyByQuantizedMultiplier(
            product, p.outputMultiplier.multiplier, p.outputMultiplier.shift)
        return Swift.min(p.activationMax, Swift.max(p.activationMin, out))
    }

    @inline(__always)
    static func quantizedAddSub<T: FixedWidthInteger>(_ layout: BroadcastLayout, rows: Range<Int>,
                                                      _ a: UnsafePointer<T>, _ b: UnsafePointer<T>,
                                                      _ out: UnsafeMutablePointer<T>,
                                                      _ p: QuantizedAddParams, subtract: Bool) {
        if subtract {
            broadcastBinary(layout, rows: rows, a, b, out) {
                T(truncatingIfNeeded: quantizedAddElement(Int32($0), Int32($1), p, subtract: true))
            }
        } else {
            broadcastBinary(layout, rows: rows, a, b, out) {
                T(truncatingIfNeeded: quantizedAddElement(Int32($0), Int32($1), p, subtract: false))
            }
        }
    }

    /// Quantized ADD (or SUB) on int8 tensors.
    /// - Precondition: `rows` lies in `0..<layout.rowCount`; the pointers hold the layout's operand and output elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func quantizedAdd(layout: BroadcastLayout, rows: Range<Int>, _ a: UnsafePointer<Int8>,
                                    _ b: UnsafePointer<Int8>, _ out: UnsafeMutablePointer<Int8>,
                                    _ p: QuantizedAddParams, subtract: Bool = false) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= layout.rowCount, "rows \(rows) outside 0..<\(layout.rowCount)")
        quantizedAddSub(layout, rows: rows, a, b, out, p, subtract: subtract)
    }

    /// Quantized ADD (or SUB) on uint8 tensors.
    /// - Precondition: `rows` lies in `0..<layout.rowCount`; the pointers hold the layout's operand and output elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func quantizedAdd(layout: BroadcastLayout, rows: Range<Int>, _ a: UnsafePointer<UInt8>,
                                    _ b: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>,
                                    _ p: QuantizedAddParams, subtract: Bool = false) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= layout.rowCount, "rows \(rows) outside 0..<\(layout.rowCount)")
        quantizedAddSub(layout, rows: rows, a, b, out, p, subtract: subtract)
    }

    /// Quantized ADD (or SUB) on int16 tensors (general-scale path).
    /// - Precondition: `rows` lies in `0..<layout.rowCount`; the pointers hold the layout's operand and output elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func quantizedAdd(layout: BroadcastLayout, rows: Range<Int>, _ a: UnsafePointer<Int16>,
                                    _ b: UnsafePointer<Int16>, _ out: UnsafeMutablePointer<Int16>,
                                    _ p: QuantizedAddParams, subtract: Bool = false) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= layout.rowCount, "rows \(rows) outside 0..<\(layout.rowCount)")
        quantizedAddSub(layout, rows: rows, a, b, out, p, subtract: subtract)
    }

    /// Quantized MUL on int8 tensors.
    /// - Precondition: `rows` lies in `0..<layout.rowCount`; the pointers hold the layout's operand and output elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func quantizedMul(layout: BroadcastLayout, rows: Range<Int>, _ a: UnsafePointer<Int8>,
                                    _ b: UnsafePointer<Int8>, _ out: UnsafeMutablePointer<Int8>,
                                    _ p: QuantizedMulParams) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= layout.rowCount, "rows \(rows) outside 0..<\(layout.rowCount)")
        broadcastBinary(layout, rows: rows, a, b, out) { Int8(truncatingIfNeeded: quantizedMulElement(Int32($0), Int32($1), p)) }
    }

    /// Quantized MUL on uint8 tensors.
    /// - Precondition: `rows` lies in `0..<layout.rowCount`; the pointers hold the layout's operand and output elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func quantizedMul(layout: BroadcastLayout, rows: Range<Int>, _ a: UnsafePointer<UInt8>,
                                    _ b: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>,
                                    _ p: QuantizedMulParams) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= layout.rowCount, "rows \(rows) outside 0..<\(layout.rowCount)")
        broadcastBinary(layout, rows: rows, a, b, out) { UInt8(truncatingIfNeeded: quantizedMulElement(Int32($0), Int32($1), p)) }
    }

    /// Quantized MUL on int16 tensors.
    /// - Precondition: `rows` lies in `0..<layout.rowCount`; the pointers hold the layout's operand and output elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func quantizedMul(layout: BroadcastLayout, rows: Range<Int>, _ a: UnsafePointer<Int16>,
                                    _ b: UnsafePointer<Int16>, _ out: UnsafeMutablePointer<Int16>,
                                    _ p: QuantizedMulParams) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= layout.rowCount, "rows \(rows) outside 0..<\(layout.rowCount)")
        broadcastBinary(layout, rows: rows, a, b, out) { Int16(truncatingIfNeeded: quantizedMulElement(Int32($0), Int32($1), p)) }
    }

    /// Fixed-point parameters of quantized SQUARED_DIFFERENCE (int8): inputs rescaled onto a
    /// common scale shifted left by 7 bits, differenced, squared and requantized.
    public struct QuantizedSquaredDifferenceParams: Sendable, Equatable {
        /// `-zeroPoint` of input 1.
        public var input1Offset: Int32
        /// `-zeroPoint` of input 2.
        public var input2Offset: Int32
        /// Output zero point.
        public var outputOffset: Int32
        /// Left shift of the zero-point-corrected inputs (7).
        public var leftShift: Int
        /// Rescaling of input 1 (≤ 1).
        public var input1Multiplier: QuantizedMultiplier
        /// Rescaling of input 2 (≤ 1).
        public var input2Multiplier: QuantizedMultiplier
        /// Rescaling of the squared difference onto the output scale.
        public var outputMultiplier: QuantizedMultiplier
        /// Output clamp (the type's range).
        public var activationMin: Int32
        /// Output clamp (the type's range).
        public var activationMax: Int32

        /// Parameters as the reference computes them.
        public init(input1Scale: Float, input1ZeroPoint: Int32, input2Scale: Float, input2ZeroPoint: Int32,
                    outputScale: Float, outputZeroPoint: Int32, activationMin: Int32, activationMax: Int32) {
            input1Offset = -input1ZeroPoint
            input2Offset = -input2ZeroPoint
            outputOffset = outputZeroPoint
            leftShift = 7
            let twiceMax = 2.0 * Double(Swift.max(input1Scale, input2Scale))
            input1Multiplier = QuantizedMultiplier(Double(input1Scale) / twiceMax)
            input2Multiplier = QuantizedMultiplier(Double(input2Scale) / twiceMax)
            outputMultiplier = QuantizedMultiplier(twiceMax * twiceMax / Double(Float(1 << (2 * 7)) * outputScale))
            self.activationMin = activationMin
            self.activationMax = activationMax
        }
    }

    /// One quantized SQUARED_DIFFERENCE element.
    @inline(__always)
    public static func quantizedSquaredDifferenceElement(_ x: Int32, _ y: Int32, _ p: QuantizedSquaredDifferenceParams) -> Int32 {
        let s1 = multiplyByQuantizedMultiplierSmallerThanOne((x + p.input1Offset) &* (Int32(1) << Int32(p.leftShift)),
                                                             p.input1Multiplier.multiplier, p.input1Multiplier.shift)
        let s2 = multiplyByQuantizedMultiplierSmallerThanOne((y + p.input2Offset) &* (Int32(1) << Int32(p.leftShift)),
                                                             p.input2Multiplier.multiplier, p.input2Multiplier.shift)
        let d = s1 &- s2
        let out = multiplyByQuantizedMultiplier(d &* d, p.outputMultiplier.multiplier, p.outputMultiplier.shift) &+ p.outputOffset
        return Swift.min(p.activationMax, Swift.max(p.activationMin, out))
    }

    /// Quantized SQUARED_DIFFERENCE on int8 tensors.
    /// - Precondition: `rows` lies in `0..<layout.rowCount`; the pointers hold the layout's operand and output elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func quantizedSquaredDifference(layout: BroadcastLayout, rows: Range<Int>, _ a: UnsafePointer<Int8>,
                                                  _ b: UnsafePointer<Int8>, _ out: UnsafeMutablePointer<Int8>,
                                                  _ p: QuantizedSquaredDifferenceParams) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= layout.rowCount, "rows \(rows) outside 0..<\(layout.rowCount)")
        broadcastBinary(layout, rows: rows, a, b, out) {
            Int8(truncatingIfNeeded: quantizedSquaredDifferenceElement(Int32($0), Int32($1), p))
        }
    }

    /// MAXIMUM / MINIMUM on raw quantized values (the reference requires equal scales).
    /// - Precondition: `rows` lies in `0..<layout.rowCount`; the pointers hold the layout's operand and output elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func rawMaxMin<T: FixedWidthInteger>(_ maximum: Bool, layout: BroadcastLayout, rows: Range<Int>,
                                                       _ a: UnsafePointer<T>, _ b: UnsafePointer<T>,
                                                       _ out: UnsafeMutablePointer<T>) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= layout.rowCount, "rows \(rows) outside 0..<\(layout.rowCount)")
        if maximum {
            broadcastBinary(layout, rows: rows, a, b, out) { $0 > $1 ? $0 : $1 }
        } else {
            broadcastBinary(layout, rows: rows, a, b, out) { $0 < $1 ? $0 : $1 }
        }
    }
}
