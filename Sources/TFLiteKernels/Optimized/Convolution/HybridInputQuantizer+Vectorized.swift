/// The two passes of `HybridInputQuantizer` over a row with the scalar loop's results: in
/// generated code where the process has it (`HybridInputQuantizeAVX`), else 16 values at a time
/// in portable SIMD, the rest value by value. A hybrid layer quantizes its whole float input at
/// every invoke, and the scalar passes were half of yolov8n_dynamic_range_640's time (AMD Zen 4,
/// EPYC family 25 model 17: 150 of 290 ms per invoke).
extension HybridInputQuantizer {
    /// The least and greatest of `values[0 ..< count]` as the scalar loop `if v < lo { lo = v }`
    /// / `if v > hi { hi = v }` from `seed` (default `values[0]` for both) finds them: NaNs never
    /// replace a bound (a NaN first value stays both bounds). Only which zero a bound of ±0 is
    /// may differ. `kernels`: the generated code to use (tests pass each level's; nil: the
    /// portable loops).
    /// - Precondition: `count ≥ 1`.
    @inline(__always)
    static func valueRange(_ values: UnsafePointer<Float>, count: Int, from seed: (lo: Float, hi: Float)? = nil,
                           kernels: GeneratedKernels? = GeneratedKernels.current) -> (lo: Float, hi: Float) {
        var (lo, hi) = seed ?? (values[0], values[0])
        var i = 0
        if let generated = kernels?.hybridQuantize, count >= generated.lanes {
            var bounds = SIMD32<Float>(lowHalf: SIMD16(repeating: lo), highHalf: SIMD16(repeating: hi))
            withUnsafeMutableBytes(of: &bounds) { memory in
                var arguments = GeneratedHybridQuantizeArguments(source: UnsafeRawPointer(values), destination: nil, count: count,
                                                                 bounds: memory.baseAddress)
                KernelPrecondition.holds(arguments.violation(quantizing: false))
                withUnsafePointer(to: &arguments) { generated.bounds(UnsafeRawPointer($0)) }
            }
            for lane in 0..<generated.lanes {
                if bounds[lane] < lo { lo = bounds[lane] }
                if bounds[16 &+ lane] > hi { hi = bounds[16 &+ lane] }
            }
            i = count / generated.lanes * generated.lanes
        } else if count >= 16 {
            var low = SIMD16<Float>(repeating: lo), high = SIMD16<Float>(repeating: hi)
            while i &+ 16 <= count {
                let v = UnsafeRawPointer(values + i).loadUnaligned(as: SIMD16<Float>.self)
                low.replace(with: v, where: v .< low)
                high.replace(with: v, where: v .> high)
                i &+= 16
            }
            for lane in 0..<16 {
                if low[lane] < lo { lo = low[lane] }
                if high[lane] > hi { hi = high[lane] }
            }
        }
        while i < count {
            let v = values[i]
            if v < lo { lo = v }
            if v > hi { hi = v }
            i &+= 1
        }
        return (lo, hi)
    }

    /// `quantized[i] = clamp(roundHalfAwayFromZero(offset + values[i] · inverse), lower, upper)`
    /// for `i < count` (a product and a sum rounded apart, as the scalar loop; NaN gives 0).
    /// The vector form clamps in float before rounding, which gives the same integers: the
    /// bounds are integers and the rounding is monotonic.
    /// `kernels` as for `valueRange`.
    /// - Precondition: `count ≥ 0`; `lower ≤ 0 ≤ upper` are integers within Int8.
    @inline(__always)
    static func quantize(_ values: UnsafePointer<Float>, count: Int, inverse: Float, offset: Float,
                         lower: Float, upper: Float, into quantized: UnsafeMutablePointer<Int8>,
                         kernels: GeneratedKernels? = GeneratedKernels.current) {
        var i = 0
        if let generated = kernels?.hybridQuantize, count >= 16 {
            var arguments = GeneratedHybridQuantizeArguments(source: UnsafeRawPointer(values), destination: UnsafeMutableRawPointer(quantized),
                                                             count: count, inverse: inverse, offset: offset, lower: lower, upper: upper)
            KernelPrecondition.holds(arguments.violation(quantizing: true))
            withUnsafePointer(to: &arguments) { generated.quantize(UnsafeRawPointer($0)) }
            i = count / 16 * 16
        }
        let scale = SIMD16<Float>(repeating: inverse), shift = SIMD16<Float>(repeating: offset)
        let low = SIMD16<Float>(repeating: lower), high = SIMD16<Float>(repeating: upper)
        let two23 = SIMD16<Float>(repeating: 8_388_608), half = SIMD16<Float>(repeating: 0.5)
        let one = SIMD16<Float>(repeating: 1), zero = SIMD16<Float>()
        let signBit = SIMD16<UInt32>(repeating: 0x8000_0000)
        while i &+ 16 <= count {
            let v = UnsafeRawPointer(values + i).loadUnaligned(as: SIMD16<Float>.self)
            var y = shift + v * scale
            y.replace(with: high, where: y .> high)
            y.replace(with: low, where: y .< low)
            y.replace(with: zero, where: y .!= y)                 // NaN → 0
            // |y| ≤ 128: floor by the nearest integer (adding 2^23 rounds to one) stepped down
            // where it rounded up; the fraction is exact, and ≥ 0.5 steps away from zero.
            let bits = unsafeBitCast(y, to: SIMD16<UInt32>.self)
            let magnitude = unsafeBitCast(bits & ~signBit, to: SIMD16<Float>.self)
            var whole = (magnitude + two23) - two23
            whole.replace(with: whole - one, where: whole .> magnitude)
            whole.replace(with: whole + one, where: magnitude - whole .>= half)
            let rounded = unsafeBitCast(unsafeBitCast(whole, to: SIMD16<UInt32>.self) | (bits & signBit), to: SIMD16<Float>.self)
            let integers = Conv2DOptimized.exactInteger(rounded)
            UnsafeMutableRawPointer(quantized + i).storeBytes(of: SIMD16<Int8>(truncatingIfNeeded: integers), as: SIMD16<Int8>.self)
            i &+= 16
        }
        let (qmin, qmax) = (Int32(lower), Int32(upper))
        while i < count {
            let q = roundHalfAwayFromZero(offset + values[i] * inverse)
            quantized[i] = Int8(truncatingIfNeeded: Swift.min(qmax, Swift.max(qmin, q)))
            i &+= 1
        }
    }
}
