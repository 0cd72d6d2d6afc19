// The reference runtime's 513-entry int16 lookup tables (its int16 SOFTMAX's exp and 1/(1+x),
// int16 RSQRT):
// 512 samples of a function over the int16 input range, each nudged by half the error that
// linear interpolation would make at the middle of its interval, plus the last point; a lookup
// takes the high 9 bits of the input as the index and interpolates over the low 7 bits.

/// A 513-entry int16 → int16 table with 7-bit linear interpolation, built and read as the
/// reference's `LUTPopulate<int16_t>` (double-precision variant) and `LUTLookup` do.
public struct Int16InterpolatedTable: Sendable, Equatable {
    /// The 513 entries.
    public let entries: [Int16]

    /// Samples `transform` over the real input range of int16 codes (`inputScale`,
    /// `inputZeroPoint`) and quantizes its values onto the output range (`outputScale`,
    /// `outputZeroPoint`), in the precision of `F` (the reference builds SOFTMAX's tables in
    /// double and RSQRT's in float) with rounding half away from zero.
    public init<F: BinaryFloatingPoint>(inputScale: F, inputZeroPoint: Int32, outputScale: F, outputZeroPoint: Int32,
                                        _ transform: (F) -> F) {
        let inputMin = inputScale * F(-32768 - inputZeroPoint)
        let inputMax = inputScale * F(32767 - inputZeroPoint)
        let outputMin = outputScale * F(-32768 - outputZeroPoint)
        let outputMax = outputScale * F(32767 - outputZeroPoint)
        let steps = 512
        let step = (inputMax - inputMin) / F(steps)
        let halfStep = step / 2
        let scaling = F(65536) / (outputMax - outputMin)
        func round(_ v: F) -> F { v.rounded(.toNearestOrAwayFromZero) }
        func clamp(_ v: F) -> Int16 { v.isNaN ? 0 : Int16(Swift.min(Swift.max(v, -32768), 32767)) }
        var table = [Int16](repeating: 0, count: steps + 1)
        for i in 0..<steps {
            let value = transform(inputMin + F(i) * step)
            let midpoint = transform(inputMin + F(i) * step + halfStep)
            let next = transform(inputMin + F(i + 1) * step)
            let sample = round(value * scaling)
            let interpolatedMidpoint = round((next * scaling + round(value * scaling)) / 2)
            let midpointError = interpolatedMidpoint - round(midpoint * scaling)
            table[i] = clamp(sample - round(midpointError / 2))
        }
        table[steps] = clamp(round(transform(inputMax) * scaling))
        entries = table
    }

    /// The interpolated value at `x`: entry `256 + (x >> 7)` plus the slope to the next entry
    /// times the low 7 bits, rounded; arithmetic wraps to 16 bits as the reference's does.
    @inline(__always)
    public func lookup(_ x: Int16) -> Int16 {
        let index = 256 + Int(x >> 7)
        let offset = Int32(x & 0x7F)
        let base = entries[index]
        let slope = Int32(Int16(truncatingIfNeeded: Int32(entries[index + 1]) - Int32(base)))
        let delta = (slope * offset + 64) >> 7
        return Int16(truncatingIfNeeded: Int32(base) + delta)
    }

    /// Looks up every element in `range` (the reference's int16 `LookupTable`).
    public func apply(range: Range<Int>, _ x: UnsafePointer<Int16>, _ out: UnsafeMutablePointer<Int16>) {
        for i in range { out[i] = lookup(x[i]) }
    }
}
