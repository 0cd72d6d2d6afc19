// MediaPipe's custom operator TransformLandmarks (version 2), as MediaPipe's CPU kernel
// computes it (float products and sums in its order): bit for bit MediaPipe's.

/// `TransformLandmarks`: maps landmarks `(x, y)` or `(x, y, z)` by the first two rows of a 4 × 4
/// matrix (x and y only; z is copied).
public enum TransformLandmarksReference {
    /// Transforms `count` landmarks of `dimensions` values each from `landmarks` into `output`.
    /// - Precondition: `dimensions` is 2 or 3; `matrix` holds at least 8 values.
    ///   Complexity: O(count).
    public static func run(count: Int, dimensions: Int, landmarks: UnsafePointer<Float>, matrix: UnsafePointer<Float>,
                           output: UnsafeMutablePointer<Float>) {
        KernelPrecondition.check(dimensions == 2 || dimensions == 3, "TransformLandmarks: \(dimensions) values per landmark")
        for i in 0..<count {
            let offset = i * dimensions
            let (u, v) = (landmarks[offset], landmarks[offset + 1])
            output[offset] = matrix[0] * u + matrix[1] * v + matrix[2] * 0 + matrix[3] * 1
            output[offset + 1] = matrix[4] * u + matrix[5] * v + matrix[6] * 0 + matrix[7] * 1
            if dimensions == 3 { output[offset + 2] = landmarks[offset + 2] }
        }
    }
}
