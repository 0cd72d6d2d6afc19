extension FullyConnectedReference {
    /// Quantized FULLY_CONNECTED shared by the uint8 and int8 entry points:
    /// `acc = Σ (w + filterOffset)(x + inputOffset) + bias_o`, requantized per output unit.
    static func quantized<Element: FixedWidthInteger, Weight: FixedWidthInteger>(
        _ g: FullyConnectedGeometry, _ q: QuantizedConvolutionParameters,
        input: UnsafePointer<Element>, weights: UnsafePointer<Weight>,
        bias: UnsafePointer<Int32>?, output: UnsafeMutablePointer<Element>
    ) {
        for b in 0..<g.batches {
            let row = input + b * g.inputSize
            for o in 0..<g.outputSize {
                let w = weights + o * g.inputSize
                var acc: Int32 = 0
                for i in 0..<g.inputSize {
                    acc = acc &+ (Int32(w[i]) &+ q.filterOffset) &* (Int32(row[i]) &+ q.inputOffset)
                }
                if let bias { acc = acc &+ bias[o] }
                output[b * g.outputSize + o] = Element(truncatingIfNeeded: q.requantize(acc, channel: o))
            }
        }
    }

    /// uint8 FULLY_CONNECTED, per-tensor asymmetric.
    public static func uint8(_ g: FullyConnectedGeometry, _ q: QuantizedConvolutionParameters,
                             input: UnsafePointer<UInt8>, weights: UnsafePointer<UInt8>,
                             bias: UnsafePointer<Int32>?, output: UnsafeMutablePointer<UInt8>) {
        quantized(g, q, input: input, weights: weights, bias: bias, output: output)
    }

    /// int8 FULLY_CONNECTED, per-tensor or per-channel weights.
    public static func int8(_ g: FullyConnectedGeometry, _ q: QuantizedConvolutionParameters,
                            input: UnsafePointer<Int8>, weights: UnsafePointer<Int8>,
                            bias: UnsafePointer<Int32>?, output: UnsafeMutablePointer<Int8>) {
        quantized(g, q, input: input, weights: weights, bias: bias, output: output)
    }
}
