/// Reference (oracle) FULLY_CONNECTED kernels; weights are `[outputSize, inputSize]` (row-major).
public enum FullyConnectedReference {}

extension FullyConnectedReference {
    /// Float FULLY_CONNECTED (TFLite `reference_ops::FullyConnected`).
    /// - Complexity: O(batches · outputSize · inputSize).
    public static func float(_ g: FullyConnectedGeometry, activationMin: Float, activationMax: Float,
                             input: UnsafePointer<Float>, weights: UnsafePointer<Float>,
                             bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>) {
        for b in 0..<g.batches {
            let row = input + b * g.inputSize
            for o in 0..<g.outputSize {
                let w = weights + o * g.inputSize
                var total: Float = 0
                for i in 0..<g.inputSize { total += row[i] * w[i] }
                let value = total + (bias?[o] ?? 0)
                output[b * g.outputSize + o] = min(max(value, activationMin), activationMax)
            }
        }
    }
}
