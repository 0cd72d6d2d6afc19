import TestSupport
import XCTest
@testable import TFLiteKernels

/// `ConvRequantizer`'s vector requantization against `multiplyByQuantizedMultiplier` (the
/// reference's double rounding) lane by lane: random and extreme accumulators (Int32.min/max,
/// ±2^k and neighbours), every shift from −31 to +30, multipliers including 0, 2^30 and
/// Int32.max, per-channel (mixed shifts) and per-tensor (uniform shift) tables, with and without
/// left shifts, on the build's path and the portable one; and the 8-bit stores (vector and scalar tails) against `requantize`.
final class ConvRequantizerTests: XCTestCase {
    private func accumulators(_ rng: inout SeededGenerator) -> SIMD16<Int32> {
        var v = SIMD16<Int32>()
        for l in 0..<16 {
            switch rng.int(0...5) {
            case 0: v[l] = [Int32.min, Int32.max, Int32.min + 1, Int32.max - 1, 0, -1, 1][rng.int(0...6)]
            case 1:
                let k = rng.int(0...30)
                v[l] = (Int32(1) << Int32(k)) &+ Int32(rng.int(-1...1))
                if rng.int(0...1) == 0 { v[l] = 0 &- v[l] }
            case 2: v[l] = Int32(rng.int(-70000...70000))
            default: v[l] = Int32(truncatingIfNeeded: rng.next())
            }
        }
        return v
    }

    private func multiplier(_ rng: inout SeededGenerator) -> Int32 {
        switch rng.int(0...5) {
        case 0: return [0, 1 << 30, Int32.max, (1 << 30) + 1, Int32.max - 1][rng.int(0...4)]
        default: return Int32(rng.int((1 << 30)...Int(Int32.max)))
        }
    }

    private func check(_ multipliers: [QuantizedMultiplier], _ rng: inout SeededGenerator, rounds: Int) {
        let q = QuantizedConvolutionParameters(inputOffset: 0, filterOffset: 0, outputOffset: 0,
                                               outputMultipliers: multipliers,
                                               activationMin: Int32.min, activationMax: Int32.max)
        let r = ConvRequantizer(q)
        XCTAssertTrue(r.vectorizable)
        let blocks = multipliers.count / 16
        for _ in 0..<rounds {
            let acc = accumulators(&rng)
            for blk in 0..<blocks {
                let got = r.requantize(acc, channel: blk * 16)
                XCTAssertEqual(r.requantizePortable(acc, channel: blk * 16), got)
                for l in 0..<16 {
                    let m = multipliers[blk * 16 + l]
                    let want = multiplyByQuantizedMultiplier(acc[l], m.multiplier, m.shift)
                    if got[l] != want {
                        XCTFail("x \(acc[l]) m \(m.multiplier) shift \(m.shift): \(got[l]) != \(want)")
                        return
                    }
                }
            }
        }
    }

    /// The single rounding of the generated requantization (`ConvRequantizer.singleRounding`, and
    /// the AVX2 form's `unsignedSingleRounding` and `highWordSingleRounding`) equals the reference's two for every right shift 0...31 (with the output offsets folded
    /// in where `foldsOffset` allows), on random and extreme accumulators and multipliers, and
    /// on ties of both roundings: products exactly halfway for the high multiply (multiplier
    /// 2^30, odd accumulators) and high products exactly halfway for the right shift.
    func testSingleRoundingMatchesTheReferenceDoubleRounding() {
        var rng = SeededGenerator(seed: 43)
        for s in Int32(0)...31 {
            var cases: [(Int32, Int32)] = []
            for _ in 0..<400 {
                let acc = accumulators(&rng)
                cases.append((acc[rng.int(0...15)], multiplier(&rng)))
            }
            for x in [Int32.min, Int32.min + 1, -3, -1, 0, 1, 3, Int32.max] { cases.append((x, 1 << 30)) }
            if s > 0 {
                // m = 2^30: the high multiply gives ⌊(x + 1) / 2⌋; pick x so it is ±2^(s−1) (+ k·2^s).
                for k in Int32(-2)...2 {
                    for half in [Int32(1) << (s - 1), -(Int32(1) << (s - 1))] {
                        let y = Int64(half) + Int64(k) << Int64(s)
                        if let x = Int32(exactly: 2 * y) { cases += [(x, 1 << 30), (x &- 1, 1 << 30), (x &+ 1, 1 << 30)] }
                    }
                }
            }
            let offsets: [Int32] = [0, -128, 127, 255, -255].filter { ConvRequantizer.foldsOffset(rightShift: s, outputOffset: $0) }
            XCTAssertEqual(offsets.count, s <= 22 ? 5 : 1, "shift \(s)")
            for (x, m) in cases {
                for o in offsets {
                    let want = multiplyByQuantizedMultiplier(x, m, -Int(s)) &+ o
                    let got = ConvRequantizer.singleRounding(x, multiplier: m, rightShift: s, outputOffset: o)
                    if got != want { return XCTFail("x \(x) m \(m) shift \(s) offset \(o): \(got) != \(want)") }
                    // The AVX2 form: the addend plus 2^63, a logical shift, the post-shift offset.
                    let unsigned = ConvRequantizer.unsignedSingleRounding(x, multiplier: m, rightShift: s, outputOffset: o)
                    if unsigned != want { return XCTFail("unsigned: x \(x) m \(m) shift \(s) offset \(o): \(unsigned) != \(want)") }
                    // The AVX2 form's high-word blocks (shifts of at least 1): the high half, a 32-bit shift.
                    if s >= 1 {
                        let highWord = ConvRequantizer.highWordSingleRounding(x, multiplier: m, rightShift: s, outputOffset: o)
                        if highWord != want { return XCTFail("high word: x \(x) m \(m) shift \(s) offset \(o): \(highWord) != \(want)") }
                    }
                }
            }
        }
    }

    /// Without the negative addend (`roundsNegativesAway: false`, what the generated AVX-512
    /// requantization runs in layers that `clampsNegativeResults`) the clamped result equals the
    /// reference's whenever the clamp starts at or above the output offset: for every right
    /// shift, folded offsets at both ends, random and extreme accumulators, and the right
    /// shift's negative ties (where the two roundings differ). With a clamp starting below the
    /// offset, the same cases do differ somewhere, so the flag is what makes it exact.
    func testRoundingNegativesHalfUpIsExactWhereTheClampTakesThemToTheMinimum() {
        var rng = SeededGenerator(seed: 44)
        var differencesBelowTheOffset = 0
        for s in Int32(0)...31 {
            var cases: [(Int32, Int32)] = []
            for _ in 0..<300 {
                let acc = accumulators(&rng)
                cases.append((acc[rng.int(0...15)], multiplier(&rng)))
            }
            if s > 0 {
                // m = 2^30 halves x; x = 2·(k·2^s − 2^(s−1)) is a negative tie of the right shift.
                for k in Int32(-3)...0 {
                    let y = (Int64(k) << Int64(s)) - (Int64(1) << Int64(s - 1))
                    if let x = Int32(exactly: 2 * y) { cases += [(x, 1 << 30), (x &- 1, 1 << 30), (x &+ 1, 1 << 30)] }
                }
            }
            let offsets: [Int32] = [0, -128, -100, 5, 127, 255].filter { ConvRequantizer.foldsOffset(rightShift: s, outputOffset: $0) }
            for (x, m) in cases {
                for o in offsets {
                    let want = multiplyByQuantizedMultiplier(x, m, -Int(s)) &+ o
                    let got = ConvRequantizer.singleRounding(x, multiplier: m, rightShift: s, outputOffset: o,
                                                             roundsNegativesAway: false)
                    XCTAssertEqual(got, ConvRequantizer.unsignedSingleRounding(x, multiplier: m, rightShift: s, outputOffset: o,
                                                                               roundsNegativesAway: false))
                    if s >= 1 {
                        XCTAssertEqual(got, ConvRequantizer.highWordSingleRounding(x, multiplier: m, rightShift: s, outputOffset: o,
                                                                                   roundsNegativesAway: false))
                    }
                    for low in [o, o + 1, o + 3] {
                        XCTAssertTrue(ConvRequantizer.clampsNegativeResults(activationMin: low, outputOffset: o))
                        let clamp = { (v: Int32) in min(max(v, low), low + 200) }
                        if clamp(got) != clamp(want) {
                            return XCTFail("x \(x) m \(m) shift \(s) offset \(o) clamp from \(low): \(got) != \(want)")
                        }
                    }
                    let below = o - 1
                    if min(max(got, below), below + 200) != min(max(want, below), below + 200) { differencesBelowTheOffset += 1 }
                }
            }
        }
        XCTAssertGreaterThan(differencesBelowTheOffset, 0, "a clamp below the offset needs the negative addend")
    }

    /// The block flags the generated requantization branches on: the clamped-negatives bit in
    /// every block exactly when the clamp starts at or above the output offset, the residual bit
    /// only in blocks with an offset that cannot be folded (a right shift above 22).
    func testRoundingTermFlags() {
        let shifts = (0..<40).map { $0 == 21 ? -25 : -7 }
        for (low, offset, clamped) in [(Int32(-128), Int32(-128), true), (-20, -20, true), (-128, 13, false), (-5, 0, false)] {
            let q = QuantizedConvolutionParameters(
                inputOffset: 0, filterOffset: 0, outputOffset: offset,
                outputMultipliers: shifts.map { QuantizedMultiplier(multiplier: 1 << 30, shift: $0) },
                activationMin: low, activationMax: 127)
            let r = ConvRequantizer(q)
            for block in 0..<3 {
                let flag = r.roundingTerms(atChannel: 16 * block).load(fromByteOffset: ConvRequantizer.residualFlagBytes, as: Int64.self)
                XCTAssertEqual(flag & ConvRequantizer.clampedNegativesFlag != 0, clamped, "clamp from \(low), offset \(offset)")
                XCTAssertEqual(flag & ConvRequantizer.residualOffsetFlag != 0, block == 1 && offset != 0, "block \(block)")
            }
        }
    }

    func testVectorMatchesReferenceForEveryShift() {
        var rng = SeededGenerator(seed: 41)
        for shift in -31...30 {
            // Uniform shift (per-tensor): one table of 32 channels with varied multipliers.
            let uniform = (0..<32).map { _ in QuantizedMultiplier(multiplier: multiplier(&rng), shift: shift) }
            check(uniform, &rng, rounds: 400)
        }
    }

    func testVectorMatchesReferenceForMixedShifts() {
        var rng = SeededGenerator(seed: 42)
        for round in 0..<200 {
            let maxShift = round % 2 == 0 ? 0 : 30
            let mixed = (0..<48).map { _ in QuantizedMultiplier(multiplier: multiplier(&rng), shift: rng.int(-31...maxShift)) }
            check(mixed, &rng, rounds: 50)
        }
    }

    func testEightBitStoresMatchRequantize() {
        var rng = SeededGenerator(seed: 43)
        for round in 0..<300 {
            let channels = rng.int(1...40)
            let uint8 = round % 2 == 0
            let multipliers = (0..<channels).map { _ in QuantizedMultiplier(multiplier: multiplier(&rng), shift: rng.int(-20...2)) }
            let offset = uint8 ? Int32(rng.int(0...255)) : Int32(rng.int(-128...127))
            let q = QuantizedConvolutionParameters(inputOffset: 0, filterOffset: 0, outputOffset: offset,
                                                   outputMultipliers: multipliers,
                                                   activationMin: uint8 ? Int32(rng.int(0...100)) : -128,
                                                   activationMax: uint8 ? 255 : Int32(rng.int(0...127)))
            let r = ConvRequantizer(q)
            var ch = 0
            while ch < channels {
                let lanes = min(16, channels - ch)
                let acc = accumulators(&rng)
                if uint8 {
                    var out = [UInt8](repeating: 0, count: 16)
                    out.withUnsafeMutableBufferPointer { r.store(acc, channel: ch, lanes: lanes, to: $0.baseAddress!) }
                    for l in 0..<lanes { XCTAssertEqual(Int32(out[l]), q.requantize(acc[l], channel: ch + l)) }
                } else {
                    var out = [Int8](repeating: 0, count: 16)
                    out.withUnsafeMutableBufferPointer { r.store(acc, channel: ch, lanes: lanes, to: $0.baseAddress!) }
                    for l in 0..<lanes { XCTAssertEqual(Int32(out[l]), q.requantize(acc[l], channel: ch + l)) }
                }
                ch += lanes
            }
        }
    }
}
