// The reference runtime's int16 LOGISTIC and TANH on its interpolated sigmoid table (the path
// every input scale takes in the reference kernels, and the one the default kernels take for
// scales that are not a power of two): the input is rescaled onto a grid where 2^17 steps
// cover ±10.7 (LOGISTIC) or ±5.3 (TANH), the high bits pick one of 256 sigmoid samples, the
// low bits interpolate linearly to the next one, and the symmetry sigmoid(−x) = 1 − sigmoid(x)
// (tanh(x) = 2·sigmoid(2x) − 1) gives negative inputs.

extension ActivationReference {
    /// Input rescaling of the int16 LOGISTIC / TANH table path, from the reference `Prepare`.
    public struct Int16SigmoidTableParams: Sendable, Equatable {
        /// Integer multiplier applied to every input code (already includes the factor 3).
        public var multiplier: Int32
        /// Right shift (with rounding) after the multiplication.
        public var rightShift: Int

        /// Creates parameters from a multiplier and a right shift.
        public init(multiplier: Int32, rightShift: Int) { self.multiplier = multiplier; self.rightShift = rightShift }

        /// The reference's parameters for a general input scale: `scale × 4096 × 3`, doubled
        /// (and the right shift increased) while at most 32767 / 2 and the shift at most 30,
        /// truncated to an integer. Returns nil when the multiplier is above 65536 (a scale
        /// above about 5.3, whose products overflow 32 bits in the reference) or truncates to 0
        /// (a scale below about 3.8e-14, which the reference would send down its power-of-two
        /// path with a shift it cannot apply).
        public static func general(inputScale: Float) -> Int16SigmoidTableParams? {
            var multiplier = Double(inputScale) * 4096.0 * 3.0
            var shift = 0
            while multiplier <= 32767.0 / 2.0 && shift <= 30 {
                shift += 1
                multiplier *= 2
            }
            guard multiplier.isFinite, multiplier >= 1, multiplier < 65537 else { return nil }
            return .init(multiplier: Int32(multiplier), rightShift: shift)
        }

        /// The rescaled input: `(x × multiplier + rounding) >> rightShift`.
        @inline(__always)
        func rescale(_ x: Int16) -> Int32 {
            let round: Int32 = rightShift > 0 ? Int32(1) << Int32(rightShift - 1) : 0
            return (Int32(x) &* multiplier &+ round) >> Int32(rightShift)
        }
    }

    /// int16 LOGISTIC (output scale 1/32768, zero point 0) of the elements in `range`, as the
    /// reference's table kernel computes it.
    public static func int16LogisticTable(_ p: Int16SigmoidTableParams, range: Range<Int>,
                                          _ x: UnsafePointer<Int16>, _ out: UnsafeMutablePointer<Int16>) {
        let table = Int16SigmoidTable.samples
        for i in range {
            let v = p.rescale(x[i])
            let magnitude = v.magnitude
            let index = Int(magnitude >> 9)
            var result: UInt32
            if index >= 255 {
                result = 0x7FFF << 10
            } else {
                let a = UInt32(table[index]), b = UInt32(table[index + 1])
                result = (a << 9) &+ (magnitude & 0x1FF) &* (b &- a)
            }
            result = v >= 0 ? result &+ (1 << 9) : (UInt32(1) << 25) &- result &+ (1 << 9) &- 1
            out[i] = Int16(truncatingIfNeeded: result >> 10)
        }
    }

    /// int16 TANH (output scale 1/32768, zero point 0) of the elements in `range`, as the
    /// reference's table kernel computes it.
    public static func int16TanhTable(_ p: Int16SigmoidTableParams, range: Range<Int>,
                                      _ x: UnsafePointer<Int16>, _ out: UnsafeMutablePointer<Int16>) {
        let table = Int16SigmoidTable.samples
        for i in range {
            let v = p.rescale(x[i])
            let magnitude = v.magnitude
            let index = Int(magnitude >> 8)
            var result: Int32
            if index >= 255 {
                result = 0xFFFF << 8
            } else {
                let a = UInt32(table[index]), b = UInt32(table[index + 1])
                result = Int32(bitPattern: (a << 8) &+ (magnitude & 0xFF) &* (b &- a))
            }
            result = v >= 0 ? result &- (1 << 23) &+ (1 << 7) : (0 &- result) &+ (1 << 23) &+ (1 << 7) &- 1
            out[i] = Int16(truncatingIfNeeded: result >> 8)
        }
    }
}

/// The reference runtime's 256 samples of the logistic function used by its int16 LOGISTIC and
/// TANH: entry k is sigmoid(k / 24) in units of 2^-16 (the table values themselves, which are
/// not all the nearest rounding, so bit-exactness needs them as they are).
enum Int16SigmoidTable {
    static let samples: [UInt16] = [
        32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149,
        40794, 41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369,
        47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169,
        53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
        57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370,
        60565, 60753, 60935, 61110, 61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302,
        62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186, 63279, 63368, 63454, 63536,
        63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
        64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786,
        64816, 64845, 64873, 64900, 64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079,
        65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234, 65246, 65258,
        65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
        65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433,
        65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474,
        65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498,
        65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
        65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522,
        65523, 65523, 65524, 65524, 65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528,
        65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530, 65530, 65530, 65531, 65531,
        65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
        65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534,
        65534, 65534, 65534, 65535,
    ]
}
