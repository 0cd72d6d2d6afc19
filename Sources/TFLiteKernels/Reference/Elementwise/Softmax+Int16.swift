// The reference runtime's int16 SOFTMAX (int16 in and out, zero points 0, output in units of
// 2^-15): each difference to the row maximum is rescaled so that [−65535, 0] spans [−10, 0],
// exponentiated through an interpolated table, summed, and multiplied by a reciprocal read from
// a second table of 1/(1+x) after normalising the sum.

import Foundation

extension SoftmaxReference {
    /// Parameters and tables of the int16 SOFTMAX, from the reference `Prepare`.
    public struct Int16Params: Sendable, Equatable {
        /// Multiplier taking an input difference onto the exp table's input grid.
        public var inputMultiplier: QuantizedMultiplier
        /// exp(x) for x in [−10, 0], output in [−1, 1].
        public let expTable: Int16InterpolatedTable
        /// 1/(1+x) for x in [0, 1], output in [−1, 1].
        public let reciprocalTable: Int16InterpolatedTable

        /// Parameters for `beta` and the input scale. The exp table's grid step is 10/65535.
        public init(beta: Float, inputScale: Float) {
            inputMultiplier = QuantizedMultiplier(Double(inputScale * beta) / (10.0 / 65535.0))
            let range = 65535.0
            expTable = Int16InterpolatedTable(inputScale: 10.0 / range, inputZeroPoint: 32767,
                                              outputScale: 2.0 / range, outputZeroPoint: 0) { Foundation.exp($0) }
            reciprocalTable = Int16InterpolatedTable(inputScale: 1.0 / range, inputZeroPoint: -32768,
                                                     outputScale: 2.0 / range, outputZeroPoint: 0) { 1.0 / (1.0 + $0) }
        }
    }

    /// int16 SOFTMAX over `rows` of `depth` elements. `out` also holds each row's exponentials
    /// before they are scaled, so it must not alias `x`.
    public static func int16(_ p: Int16Params, depth: Int, rows: Range<Int>, _ x: UnsafePointer<Int16>,
                             _ out: UnsafeMutablePointer<Int16>) {
        guard depth > 0 else { return }
        for row in rows {
            let input = x + row * depth, output = out + row * depth
            var maximum = Int16.min
            for c in 0..<depth { maximum = Swift.max(maximum, input[c]) }
            var sum: Int32 = 0
            for c in 0..<depth {
                let difference = Int32(input[c]) - Int32(maximum)
                let scaled = multiplyByQuantizedMultiplier(difference, p.inputMultiplier.multiplier, p.inputMultiplier.shift)
                let centred = Int16(Swift.min(Swift.max(scaled &+ 32767, -32768), 32767))
                let e = p.expTable.lookup(centred)
                output[c] = e
                sum &+= Int32(e)
            }
            let headroomPlusOne = UInt32(bitPattern: sum).leadingZeroBitCount
            let shiftedSum = Int32(truncatingIfNeeded: ((Int64(sum) << Int64(headroomPlusOne - 1)) + (1 << 13)) >> 14)
            let centredSum = Int16(Swift.min(Swift.max(shiftedSum &- (32768 + 65536), -32768), 32767))
            let reciprocal = Int64(p.reciprocalTable.lookup(centredSum))
            let rightShift = 31 - headroomPlusOne
            let round = Int64(1) << Int64(rightShift - 1)
            for c in 0..<depth {
                let result = Int32(truncatingIfNeeded: (Int64(output[c]) * reciprocal + round) >> Int64(rightShift))
                output[c] = Int16(Swift.min(Swift.max(result, 0), 32767))
            }
        }
    }
}
