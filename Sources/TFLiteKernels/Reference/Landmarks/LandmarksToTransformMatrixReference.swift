// MediaPipe's custom operator Landmarks2TransformMatrix (version 2), as MediaPipe's CPU kernel
// computes it: every product and sum rounded to float in the kernel's order, the C library's
// atan2f, sinf and cosf, so results are bit for bit MediaPipe's.

/// What a `Landmarks2TransformMatrix` node computes (its custom options, validated).
public struct LandmarksToTransformMatrixParameters: Sendable, Equatable {
    /// Landmarks whose rotated bounding box sizes the crop, in MediaPipe's order (its index
    /// pairs flattened; an odd count's last index repeated). Non-empty.
    public var subsetIndices: [Int]
    /// The landmarks whose direction (left → right) gives the rotation.
    public var leftRotationIndex: Int, rightRotationIndex: Int
    /// The rotation the crop is turned to, in radians.
    public var targetRotationRadians: Float
    /// Size of the crop the matrix maps into (positive).
    public var outputWidth: Int, outputHeight: Int
    /// How much larger than the landmarks' bounding box the crop is (positive).
    public var scaleX: Float, scaleY: Float

    /// Creates the parameters.
    public init(subsetIndices: [Int], leftRotationIndex: Int, rightRotationIndex: Int, targetRotationRadians: Float,
                outputWidth: Int, outputHeight: Int, scaleX: Float, scaleY: Float) {
        self.subsetIndices = subsetIndices
        self.leftRotationIndex = leftRotationIndex; self.rightRotationIndex = rightRotationIndex
        self.targetRotationRadians = targetRotationRadians
        self.outputWidth = outputWidth; self.outputHeight = outputHeight
        self.scaleX = scaleX; self.scaleY = scaleY
    }

    /// The largest landmark index read.
    public var largestIndex: Int { max(subsetIndices.max() ?? 0, leftRotationIndex, rightRotationIndex) }
}

/// `Landmarks2TransformMatrix`: from landmarks `(x, y, z)`, the 4 × 4 row-major matrix that maps
/// crop pixel coordinates to input coordinates, for a crop of the subset's bounding box turned
/// upright (rotation from the left and right landmarks), scaled by `scaleX`, `scaleY`.
public enum LandmarksToTransformMatrixReference {
    /// Writes the matrix's 16 values to `output`.
    /// - Precondition: `landmarks` holds `3 · (p.largestIndex + 1)` values; indices ≥ 0;
    ///   `p.subsetIndices` non-empty. Complexity: O(subset count).
    public static func run(_ p: LandmarksToTransformMatrixParameters, landmarks: UnsafePointer<Float>,
                           output: UnsafeMutablePointer<Float>) {
        KernelPrecondition.check(!p.subsetIndices.isEmpty && p.subsetIndices.allSatisfy { $0 >= 0 }
                           && p.leftRotationIndex >= 0 && p.rightRotationIndex >= 0, "Landmarks2TransformMatrix: an empty subset or a negative index")
        let left = 3 * p.leftRotationIndex, right = 3 * p.rightRotationIndex
        let rotation = p.targetRotationRadians
            - ElementwiseMath.atan2(landmarks[right + 1] - landmarks[left + 1], landmarks[right] - landmarks[left])

        // The subset turned by `rotation`, its bounding box, and the box's centre turned back.
        let turn = Matrix3(rotation: rotation), turnBack = Matrix3(rotation: -rotation)
        var low = turn * (landmarks[3 * p.subsetIndices[0]], landmarks[3 * p.subsetIndices[0] + 1], 1)
        var high = low
        for index in p.subsetIndices.dropFirst() {
            let v = turn * (landmarks[3 * index], landmarks[3 * index + 1], 1)
            if high.0 < v.0 { high.0 = v.0 }
            if high.1 < v.1 { high.1 = v.1 }
            if low.0 > v.0 { low.0 = v.0 }
            if low.1 > v.1 { low.1 = v.1 }
        }
        let cropWidth = high.0 - low.0, cropHeight = high.1 - low.1
        let centre = turnBack * ((low.0 + high.0) / 2, (low.1 + high.1) / 2, low.2)

        // From the identity: shift to the centre, turn, scale to the crop, shift by half the crop.
        var t = Matrix4.translation(0, 0) * Matrix4.translation(centre.0, centre.1)
        t = t * Matrix4(rotation: -rotation)
        t = t * Matrix4(scaleX: p.scaleX * cropWidth / Float(p.outputWidth), scaleY: p.scaleY * cropHeight / Float(p.outputHeight))
        t = t * Matrix4.translation(Float(-1.0 * (Double(p.outputWidth) / 2.0)), Float(-1.0 * (Double(p.outputHeight) / 2.0)))
        for i in 0..<16 { output[i] = t.values[i] }
    }
}

/// A row-major 3 × 3 float matrix with MediaPipe's product order (a float sum from 0, term by term).
private struct Matrix3 {
    var values: [Float]

    /// The rotation by `r` radians: `[cos −sin 0; sin cos 0; 0 0 1]`.
    init(rotation r: Float) {
        let c = ElementwiseMath.cos(r), s = ElementwiseMath.sin(r)
        values = [c, -s, 0, s, c, 0, 0, 0, 1]
    }

    static func * (m: Matrix3, v: (Float, Float, Float)) -> (Float, Float, Float) {
        func row(_ r: Int) -> Float {
            var sum: Float = 0
            sum = sum + m.values[3 * r] * v.0
            sum = sum + m.values[3 * r + 1] * v.1
            sum = sum + m.values[3 * r + 2] * v.2
            return sum
        }
        return (row(0), row(1), row(2))
    }
}

/// A row-major 4 × 4 float matrix with MediaPipe's product order.
private struct Matrix4 {
    var values: [Float]

    /// The rotation by `r` radians about z.
    init(rotation r: Float) {
        let c = ElementwiseMath.cos(r), s = ElementwiseMath.sin(r)
        values = [c, -s, 0, 0, s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    }

    /// The scaling of x and y.
    init(scaleX: Float, scaleY: Float) {
        values = [scaleX, 0, 0, 0, 0, scaleY, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    }

    private init(values: [Float]) { self.values = values }

    /// The translation by (x, y).
    static func translation(_ x: Float, _ y: Float) -> Matrix4 {
        Matrix4(values: [1, 0, 0, x, 0, 1, 0, y, 0, 0, 1, 0, 0, 0, 0, 1])
    }

    static func * (a: Matrix4, b: Matrix4) -> Matrix4 {
        var product = [Float](repeating: 0, count: 16)
        for r in 0..<4 {
            for c in 0..<4 {
                var sum: Float = 0
                for k in 0..<4 { sum = sum + a.values[4 * r + k] * b.values[4 * k + c] }
                product[4 * r + c] = sum
            }
        }
        return Matrix4(values: product)
    }
}
