// int16x8 CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED (int16 activations with zero point 0,
// int8 weights with zero point 0, int64 bias): the reference runtime's `reference_integer_ops`
// per-channel kernels. Products are accumulated in 64 bits with the bias. CONV_2D and
// DEPTHWISE_CONV_2D requantize with the reference's 64-bit `MultiplyByQuantizedMultiplier` (the
// multiplier rounded to 16 bits, one rounding); FULLY_CONNECTED with the full Q31 multiplier and
// one rounding in 64 bits, which is what the reference's results show (both the 16-bit-multiplier
// form and the 32-bit double rounding differ from them by one on some sums).

/// Output channel `channel` of a convolution: `sum + bias` requantized with the 64-bit
/// multiplication, clamped to the activation range.
@inline(__always)
func finishInt16x8(_ sum: Int64, bias: UnsafePointer<Int64>?, channel: Int, _ q: QuantizedConvolutionParameters) -> Int16 {
    let m = q.outputMultipliers[channel]
    let scaled = multiplyByQuantizedMultiplierWide(sum &+ (bias?[channel] ?? 0), m.multiplier, m.shift)
    return Int16(truncatingIfNeeded: Swift.min(Swift.max(scaled, q.activationMin), q.activationMax))
}

/// The reference's `MultiplyByQuantizedMultiplier` for a 64-bit accumulator: the Q31 multiplier
/// is rounded to 15 fractional bits (saturating at `0x7FFF`), multiplied in 64 bits and shifted
/// right by `15 − shift` with one rounding (half up). The result is truncated to 32 bits, as the
/// reference does.
@inline(__always)
public func multiplyByQuantizedMultiplierWide(_ x: Int64, _ multiplier: Int32, _ shift: Int) -> Int32 {
    let reduced = Int64(multiplier < 0x7FFF_0000 ? (multiplier + (1 << 15)) >> 16 : 0x7FFF)
    let totalShift = 15 - shift
    let round = Int64(1) << (totalShift - 1)
    return Int32(truncatingIfNeeded: (x &* reduced &+ round) >> Int64(totalShift))
}

/// `x × multiplier × 2^(shift − 31)` with one rounding (half up) in 64-bit arithmetic, the result
/// truncated to 32 bits (wrapping like the reference's int64 arithmetic on huge sums).
@inline(__always)
public func multiplyByQuantizedMultiplierSingleRounding(_ x: Int64, _ multiplier: Int32, _ shift: Int) -> Int32 {
    let totalShift = 31 - shift
    let round = Int64(1) << (totalShift - 1)
    return Int32(truncatingIfNeeded: (x &* Int64(multiplier) &+ round) >> Int64(totalShift))
}

extension Conv2DReference {
    /// int16x8 CONV_2D (`reference_integer_ops::ConvPerChannel` on int16): zero points are 0,
    /// so `acc = Σ w·x + bias_c`, requantized per output channel and clamped.
    public static func int16x8(_ g: ConvolutionGeometry, _ q: QuantizedConvolutionParameters,
                               input: UnsafePointer<Int16>, filter: UnsafePointer<Int8>,
                               bias: UnsafePointer<Int64>?, output: UnsafeMutablePointer<Int16>) {
        ConvolutionWindowWalk.convolution(g, zero: Int64(0), tap: { sum, _, x, w in
            for ic in 0..<g.filterInputDepth { sum &+= Int64(Int32(filter[w + ic]) * Int32(input[x + ic])) }
        }, finish: { sum, _, oc, o in
            output[o] = finishInt16x8(sum, bias: bias, channel: oc, q)
        })
    }
}

extension DepthwiseConv2DReference {
    /// int16x8 DEPTHWISE_CONV_2D (`reference_integer_ops::DepthwiseConvPerChannel` on int16):
    /// output channel `ic × multiplier + m` reads input channel `ic`; zero points are 0.
    public static func int16x8(_ g: ConvolutionGeometry, _ q: QuantizedConvolutionParameters,
                               input: UnsafePointer<Int16>, filter: UnsafePointer<Int8>,
                               bias: UnsafePointer<Int64>?, output: UnsafeMutablePointer<Int16>) {
        ConvolutionWindowWalk.depthwise(g, zero: Int64(0), tap: { sum, _, x, w in
            sum &+= Int64(Int32(filter[w]) * Int32(input[x]))
        }, finish: { sum, _, oc, o in
            output[o] = finishInt16x8(sum, bias: bias, channel: oc, q)
        })
    }
}

extension FullyConnectedReference {
    /// int16x8 FULLY_CONNECTED (`reference_integer_ops::FullyConnected` / `FullyConnectedPerChannel`
    /// on int16): `acc = Σ w·x + bias_u` per output unit in 64 bits, requantized with the unit's
    /// multiplier (one repeated multiplier for per-tensor weights) by
    /// ``multiplyByQuantizedMultiplierSingleRounding(_:_:_:)``.
    public static func int16x8(_ g: FullyConnectedGeometry, _ q: QuantizedConvolutionParameters,
                               input: UnsafePointer<Int16>, weights: UnsafePointer<Int8>,
                               bias: UnsafePointer<Int64>?, output: UnsafeMutablePointer<Int16>) {
        for b in 0..<g.batches {
            let row = input + b * g.inputSize
            for u in 0..<g.outputSize {
                let w = weights + u * g.inputSize
                var sum: Int64 = bias?[u] ?? 0
                for i in 0..<g.inputSize { sum &+= Int64(Int32(w[i]) * Int32(row[i])) }
                let m = q.outputMultipliers[u]
                let scaled = multiplyByQuantizedMultiplierSingleRounding(sum, m.multiplier, m.shift)
                output[b * g.outputSize + u] = Int16(truncatingIfNeeded: Swift.min(Swift.max(scaled, q.activationMin), q.activationMax))
            }
        }
    }
}
