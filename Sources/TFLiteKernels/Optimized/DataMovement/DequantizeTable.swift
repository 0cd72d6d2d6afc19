/// 8-bit per-tensor DEQUANTIZE through a table of the 256 codes' floats, each computed by
/// `DequantizeReference.affine`: the same floats, one load per element instead of a conversion
/// and a double-precision product.
public struct DequantizeTable: Sendable {
    /// The float of each code, indexed by the code's bit pattern.
    private let values: [Float]

    /// The table of `scale × (q − zeroPoint)` for int8 codes (`signed`) or uint8 codes.
    public init(scale: Float, zeroPoint: Int32, signed: Bool) {
        var values = [Float](repeating: 0, count: 256)
        values.withUnsafeMutableBufferPointer { table in
            if signed {
                let codes = (0..<256).map { Int8(truncatingIfNeeded: $0) }
                DequantizeReference.affine(codes, count: 256, scale: scale, zeroPoint: zeroPoint, output: table.baseAddress!)
            } else {
                let codes = (0..<256).map { UInt8($0) }
                DequantizeReference.affine(codes, count: 256, scale: scale, zeroPoint: zeroPoint, output: table.baseAddress!)
            }
        }
        self.values = values
    }

    /// `output[i]` = the float of code `input[i]` (bit patterns of int8 or uint8 codes) for `i`
    /// in `range`. O(range.count).
    public func run(_ input: UnsafePointer<UInt8>, output: UnsafeMutablePointer<Float>, range: Range<Int>) {
        KernelPrecondition.validRange(range)
        values.withUnsafeBufferPointer { table in
            let t = table.baseAddress!
            for i in range { output[i] = t[Int(input[i])] }
        }
    }
}
