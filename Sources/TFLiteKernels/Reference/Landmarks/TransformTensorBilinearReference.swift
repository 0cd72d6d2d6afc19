// MediaPipe's custom operator TransformTensorBilinear (version 2), as MediaPipe's CPU kernel
// computes it. Its C++ mixes float values with double literals (`0.5`, `1.0`), so some steps
// are computed in double and rounded back to float; this kernel takes the same steps, so its
// results are bit for bit MediaPipe's.

/// `TransformTensorBilinear`: each output pixel samples the input bilinearly at the point the
/// first two rows of a 4 × 4 matrix map it to (corners aligned: pixel centres map to pixel
/// centres); points outside the input give 0, and neighbours past its edge count as 0.
public enum TransformTensorBilinearReference {
    /// Samples `output` (`outputHeight × outputWidth × outputChannels`, channels last) from
    /// `input` (`inputHeight × inputWidth × inputChannels`), channel `c` from channel `c`.
    /// - Precondition: `outputChannels ≤ inputChannels`; `matrix` holds at least 8 values
    ///   (rows 0 and 1 are read). Complexity: O(output elements).
    public static func run(inputHeight: Int, inputWidth: Int, inputChannels: Int, input: UnsafePointer<Float>,
                           matrix: UnsafePointer<Float>,
                           outputHeight: Int, outputWidth: Int, outputChannels: Int, output: UnsafeMutablePointer<Float>) {
        KernelPrecondition.check(outputChannels <= inputChannels,
                                 "TransformTensorBilinear: \(outputChannels) output channels from \(inputChannels)")
        var x = (matrix[0], matrix[1], matrix[2], matrix[3])
        var y = (matrix[4], matrix[5], matrix[6], matrix[7])
        // Align corners: the translation moves by half a pixel on both sides (in double, as MediaPipe).
        x.3 = Float(Double(x.3) + (Double(x.0) * 0.5 + Double(x.1) * 0.5 - 0.5))
        y.3 = Float(Double(y.3) + (Double(y.0) * 0.5 + Double(y.1) * 0.5 - 0.5))
        let lastColumn = Float(inputWidth - 1), lastRow = Float(inputHeight - 1)

        /// An input pixel's channel values, or nil past the input's edge (read as 0).
        func pixel(_ row: Float, _ column: Float) -> UnsafePointer<Float>? {
            guard row >= 0, column >= 0, row < Float(inputHeight), column < Float(inputWidth) else { return nil }
            return input + (Int(row) * inputWidth + Int(column)) * inputChannels
        }

        var out = output
        for outY in 0..<outputHeight {
            for outX in 0..<outputWidth {
                let (u, v) = (Float(outX), Float(outY))
                let tx = x.0 * u + x.1 * v + x.2 * 0 + x.3 * 1
                let ty = y.0 * u + y.1 * v + y.2 * 0 + y.3 * 1
                guard !(tx < 0 || tx > lastColumn || ty < 0 || ty > lastRow) else {
                    out.update(repeating: 0, count: outputChannels)
                    out += outputChannels
                    continue
                }
                // NaN coordinates pass the bounds test; all four neighbours then read as 0.
                let left = tx.rounded(.down), top = ty.rounded(.down)
                let q11 = pixel(top, left), q21 = pixel(top, left + 1)
                let q12 = pixel(top + 1, left), q22 = pixel(top + 1, left + 1)
                let right = tx - left, lower = ty - top
                let rightD = 1.0 - Double(right), lowerD = 1.0 - Double(lower)
                for c in 0..<outputChannels {
                    let upperValue = Float(rightD * Double(q11?[c] ?? 0) + Double(right * (q21?[c] ?? 0)))
                    let lowerValue = Float(rightD * Double(q12?[c] ?? 0) + Double(right * (q22?[c] ?? 0)))
                    out[c] = Float(Double(lower * lowerValue) + lowerD * Double(upperValue))
                }
                out += outputChannels
            }
        }
    }
}
