// Quantized uint8 CONCATENATION with per-input rescaling (reference `ConcatenationWithScaling`):
// an input whose scale or zero point differs from the output's is requantized in float.

/// One uint8 input's quantization, as CONCATENATION sees it.
public struct ConcatenationInputQuantization: Sendable, Equatable {
    /// Input scale.
    public var scale: Float
    /// Input zero point.
    public var zeroPoint: Int32
    /// Creates the parameters.
    public init(scale: Float, zeroPoint: Int32) { self.scale = scale; self.zeroPoint = zeroPoint }
}

extension ConcatenationReference {
    /// Joins uint8 inputs along an axis, requantizing inputs whose parameters differ from the
    /// output's: `clamp(round(q × s_in/s_out − z_in × s_in/s_out) + z_out, 0, 255)` in float,
    /// rounding half away from zero, as the reference does.
    /// - Parameters: as `run`, with `innerCounts` in elements (one byte each) and uint8 inputs.
    public static func runUInt8(outerCount: Int, innerCounts: [Int],
                                inputs: [UnsafeRawPointer],
                                inputQuantization: [ConcatenationInputQuantization],
                                outputScale: Float, outputZeroPoint: Int32,
                                output: UnsafeMutablePointer<UInt8>) {
        precondition(innerCounts.count == inputs.count && inputs.count == inputQuantization.count)
        let inverseOutputScale = 1 / outputScale
        var dst = output
        for outer in 0..<outerCount {
            for k in 0..<inputs.count {
                let n = innerCounts[k]
                let src = inputs[k].assumingMemoryBound(to: UInt8.self) + outer * n
                let q = inputQuantization[k]
                if q.zeroPoint == outputZeroPoint && q.scale == outputScale {
                    dst.update(from: src, count: n)
                } else {
                    let scale = q.scale * inverseOutputScale
                    let bias = Float(-q.zeroPoint) * scale
                    for j in 0..<n {
                        let scaled = Float(src[j]) * scale
                        let value = SaturatingRound.toInt32(scaled + bias) &+ outputZeroPoint
                        dst[j] = UInt8(min(255, max(0, value)))
                    }
                }
                dst += n
            }
        }
    }
}
