// Quantized SOFTMAX (uint8 / int8 input; uint8 / int8 / int16 output) with the reference
// kernels' gemmlowp fixed-point arithmetic: input differences from the row maximum are
// scaled into Q5.26, exponentiated, summed in Q12.19 and divided by a fixed-point reciprocal.

extension SoftmaxReference {
    /// Fixed-point parameters of quantized SOFTMAX.
    public struct QuantizedParams: Sendable, Equatable {
        /// `beta × inputScale` in Q5.26 terms, as a multiplier greater than one.
        public var inputMultiplier: Int32
        /// Its left shift.
        public var inputLeftShift: Int
        /// Differences below this are treated as exp(−∞) = 0.
        public var diffMin: Int32

        static let scaledDiffIntegerBits = 5
        static let accumulationIntegerBits = 12

        /// Parameters as the reference (`PreprocessSoftmaxScaling`, `CalculateInputRadius`) computes them.
        public init(beta: Float, inputScale: Float) {
            let integerBits = QuantizedParams.scaledDiffIntegerBits
            let real = Swift.min(Double(beta) * Double(inputScale) * Double(Int64(1) << (31 - integerBits)),
                                 Double(Int64(1) << 31) - 1.0)
            let m = QuantizedMultiplier(real)
            inputMultiplier = m.multiplier
            inputLeftShift = m.shift
            // 2^shift exactly, also for negative shifts (tiny beta × scale), and a clamped
            // conversion: extreme parameters give an extreme but defined diffMin.
            let maxInputRescaled = (1.0 * Double((Int64(1) << integerBits) - 1)
                * Double(Int64(1) << (31 - integerBits)) / Double(sign: .plus, exponent: m.shift, significand: 1))
                .rounded(.down)
            diffMin = maxInputRescaled < Double(Int32.max) ? -Int32(maxInputRescaled) : -Int32.max
        }
    }

    @inline(__always)
    static func quantized<In: FixedWidthInteger, Out: FixedWidthInteger>(
        _ p: QuantizedParams, depth: Int, rows: Range<Int>, _ x: UnsafePointer<In>, _ out: UnsafeMutablePointer<Out>
    ) {
        guard depth > 0 else { return }
        let integerBits = QuantizedParams.scaledDiffIntegerBits
        let accumBits = QuantizedParams.accumulationIntegerBits
        @inline(__always) func expOf(_ diff: Int32) -> Int32 {
            let rescaled = multiplyByQuantizedMultiplierGreaterThanOne(diff, p.inputMultiplier, p.inputLeftShift)
            return GemmlowpFixedPoint.expOnNegativeValues(rescaled, integerBits: integerBits)
        }
        let outMin = Int32(Out.min), outMax = Int32(Out.max)
        for r in rows {
            let xi = x + r * depth, oi = out + r * depth
            var maxInRow = In.min
            for c in 0..<depth { maxInRow = Swift.max(maxInRow, xi[c]) }
            var sumOfExps: Int32 = 0
            for c in 0..<depth {
                let diff = Int32(xi[c]) - Int32(maxInRow)
                if diff >= p.diffMin {
                    sumOfExps = sumOfExps &+ GemmlowpFixedPoint.rescale(expOf(diff), from: 0, to: accumBits)
                }
            }
            let (shiftedScale, bitsOverUnit) = GemmlowpFixedPoint.reciprocal(sumOfExps, integerDigits: accumBits)
            let exponent = bitsOverUnit + 31 - Out.bitWidth
            for c in 0..<depth {
                let diff = Int32(xi[c]) - Int32(maxInRow)
                if diff >= p.diffMin {
                    let e = expOf(diff)
                    let unsat = roundingDivideByPOT(saturatingRoundingDoublingHighMul(shiftedScale, e),
                                                    Swift.max(0, Swift.min(31, exponent)))
                    let shifted = unsat &+ outMin
                    oi[c] = Out(truncatingIfNeeded: Swift.max(Swift.min(shifted, outMax), outMin))
                } else {
                    oi[c] = Out.min
                }
            }
        }
    }

    /// Quantized softmax, int8 → int8.
    /// - Precondition: `depth ≥ 0`, `rows.lowerBound ≥ 0`; `x` and `out` hold `rows.upperBound × depth` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func int8(_ p: QuantizedParams, depth: Int, rows: Range<Int>, _ x: UnsafePointer<Int8>,
                            _ out: UnsafeMutablePointer<Int8>) {
        KernelPrecondition.check(depth >= 0 && rows.lowerBound >= 0, "depth \(depth), rows \(rows)")
        quantized(p, depth: depth, rows: rows, x, out)
    }
    /// Quantized softmax, uint8 → uint8.
    /// - Precondition: `depth ≥ 0`, `rows.lowerBound ≥ 0`; `x` and `out` hold `rows.upperBound × depth` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func uint8(_ p: QuantizedParams, depth: Int, rows: Range<Int>, _ x: UnsafePointer<UInt8>,
                             _ out: UnsafeMutablePointer<UInt8>) {
        KernelPrecondition.check(depth >= 0 && rows.lowerBound >= 0, "depth \(depth), rows \(rows)")
        quantized(p, depth: depth, rows: rows, x, out)
    }
    /// Quantized softmax, int8 → int16.
    /// - Precondition: `depth ≥ 0`, `rows.lowerBound ≥ 0`; `x` and `out` hold `rows.upperBound × depth` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func int8ToInt16(_ p: QuantizedParams, depth: Int, rows: Range<Int>, _ x: UnsafePointer<Int8>,
                                   _ out: UnsafeMutablePointer<Int16>) {
        KernelPrecondition.check(depth >= 0 && rows.lowerBound >= 0, "depth \(depth), rows \(rows)")
        quantized(p, depth: depth, rows: rows, x, out)
    }
    /// Quantized softmax, uint8 → int16.
    /// - Precondition: `depth ≥ 0`, `rows.lowerBound ≥ 0`; `x` and `out` hold `rows.upperBound × depth` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func uint8ToInt16(_ p: QuantizedParams, depth: Int, rows: Range<Int>, _ x: UnsafePointer<UInt8>,
                                    _ out: UnsafeMutablePointer<Int16>) {
        KernelPrecondition.check(depth >= 0 && rows.lowerBound >= 0, "depth \(depth), rows \(rows)")
        quantized(p, depth: depth, rows: rows, x, out)
    }
}

extension SoftmaxReference {
    /// Fixed-point parameters of quantized int8 LOG_SOFTMAX (output scale 16/256, zero point 127).
    public struct QuantizedLogParams: Sendable, Equatable {
        /// Input scale in Q5.26 terms (multiplier greater than one).
        public var inputMultiplier: Int32
        /// Its left shift.
        public var inputLeftShift: Int
        /// Inverse of the input scaling (multiplier smaller than one).
        public var reverseScalingDivisor: Int32
        /// Its right shift (positive).
        public var reverseScalingRightShift: Int
        /// Differences below this are treated as exp(−∞).
        public var diffMin: Int32

        /// Parameters as the reference (`PreprocessLogSoftmaxScalingExp`) computes them (beta 1).
        public init(inputScale: Float) {
            let softmax = QuantizedParams(beta: 1, inputScale: inputScale)
            inputMultiplier = softmax.inputMultiplier
            inputLeftShift = softmax.inputLeftShift
            diffMin = softmax.diffMin
            let realReverse = Double(Int64(1) << (31 - softmax.inputLeftShift)) / Double(softmax.inputMultiplier)
            let reverse = QuantizedMultiplier(realReverse)
            reverseScalingDivisor = reverse.multiplier
            reverseScalingRightShift = -reverse.shift
        }
    }

    /// Quantized int8 LOG_SOFTMAX along rows of `depth`, as the reference integer kernel.
    /// - Precondition: `depth ≥ 0`, `rows.lowerBound ≥ 0`; `x` and `out` hold `rows.upperBound × depth` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func logSoftmaxInt8(_ p: QuantizedLogParams, depth: Int, rows: Range<Int>,
                                      _ x: UnsafePointer<Int8>, _ out: UnsafeMutablePointer<Int8>) {
        KernelPrecondition.check(depth >= 0 && rows.lowerBound >= 0, "depth \(depth), rows \(rows)")
        guard depth > 0 else { return }
        let inputBits = 5, accumBits = 12, outputBits = 4
        for r in rows {
            let xi = x + r * depth, oi = out + r * depth
            var maxInRow = Int8.min
            for c in 0..<depth { maxInRow = Swift.max(maxInRow, xi[c]) }
            var sum: Int32 = 0
            for c in 0..<depth {
                let diff = Int32(xi[c]) - Int32(maxInRow)
                if diff >= p.diffMin {
                    let q5 = multiplyByQuantizedMultiplier(diff, p.inputMultiplier, p.inputLeftShift)
                    sum = sum &+ GemmlowpFixedPoint.rescale(GemmlowpFixedPoint.expOnNegativeValues(q5, integerBits: inputBits),
                                                            from: 0, to: accumBits)
                }
            }
            let logSum = GemmlowpFixedPoint.logXForXGreaterThanOrEqualTo1(sum, inputBits: accumBits, outputBits: inputBits)
            let shiftedLogSum = logSum &+ Int32.min
            let adjustedDiffMin = Swift.max(p.diffMin - 1, multiplyByQuantizedMultiplier(
                shiftedLogSum, p.reverseScalingDivisor, -p.reverseScalingRightShift))
            for c in 0..<depth {
                let diff = Int32(xi[c]) - Int32(maxInRow)
                if diff > adjustedDiffMin {
                    let q5 = multiplyByQuantizedMultiplier(diff, p.inputMultiplier, p.inputLeftShift)
                    var v = roundingDivideByPOT(q5 &- logSum, 31 - inputBits - outputBits) &+ 127
                    v = Swift.max(Swift.min(v, 127), -128)
                    oi[c] = Int8(truncatingIfNeeded: v)
                } else {
                    oi[c] = Int8.min
                }
            }
        }
    }
}
