// Row-split forms of the copying operators (CONCATENATION, SLICE / STRIDED_SLICE with a unit
// innermost step) so the thread pool can share them: each takes a range of outer rows and
// moves whole contiguous runs, with short runs copied inline in 16-byte vectors instead of
// one library call per run. Pure data movement: the bytes equal the reference's.

/// Contiguous-run copies over ranges of outer rows.
public enum RowCopyOptimized {
    /// Copies `count` bytes; runs under 256 bytes inline (no call), longer ones with `copyMemory`.
    /// - Precondition: `count ≥ 0`; every pointer holds at least `count` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    @inline(__always)
    public static func bytes(_ dst: UnsafeMutableRawPointer, _ src: UnsafeRawPointer, _ count: Int) {
        KernelPrecondition.validCount(count)
        if count >= 256 { dst.copyMemory(from: src, byteCount: count); return }
        var i = 0
        while i + 16 <= count {
            dst.storeBytes(of: src.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self), toByteOffset: i, as: SIMD16<UInt8>.self)
            i += 16
        }
        while i + 4 <= count {
            dst.storeBytes(of: src.loadUnaligned(fromByteOffset: i, as: UInt32.self), toByteOffset: i, as: UInt32.self)
            i += 4
        }
        while i < count {
            dst.storeBytes(of: src.load(fromByteOffset: i, as: UInt8.self), toByteOffset: i, as: UInt8.self)
            i += 1
        }
    }

    /// CONCATENATION rows `outer`: output row `o` is input `k`'s row `o` (`innerByteCounts[k]`
    /// bytes) for each input in turn. `rowBytes` is the sum of `innerByteCounts`.
    public static func concatenate(outer: Range<Int>, innerByteCounts: [Int], rowBytes: Int,
                                   inputs: [UnsafeRawPointer], output: UnsafeMutableRawPointer) {
        precondition(innerByteCounts.count == inputs.count)
        innerByteCounts.withUnsafeBufferPointer { counts in
            inputs.withUnsafeBufferPointer { sources in
                for o in outer {
                    var dst = output + o * rowBytes
                    for k in 0..<counts.count {
                        let n = counts[k]
                        if n > 0 { bytes(dst, sources[k] + o * n, n) }
                        dst += n
                    }
                }
            }
        }
    }

    /// The number of contiguous runs of a strided window (every dimension but the innermost),
    /// or nil when the innermost step is not 1 (elements are not contiguous).
    public static func runCount(_ window: StridedWindow) -> Int? {
        guard let last = window.counts.last, window.elementSteps.last == 1, last > 0 else { return nil }
        return window.counts.dropLast().reduce(1, *)
    }

    /// Copies runs `runs` of a strided window with a unit innermost step (see `runCount`)
    /// into the contiguous output; the call's only temporary is its index digits, one `Int` per
    /// dimension (bounded by the window's rank), a temporary (stack memory while small): not a
    /// per-layer buffer, so not kernel workspace.
    public static func stridedRuns(_ window: StridedWindow, runs: Range<Int>, elementSize: Int,
                                   input: UnsafeRawPointer, output: UnsafeMutableRawPointer) {
        let rank = window.counts.count
        let runElements = window.counts[rank - 1]
        let runBytes = runElements * elementSize
        guard !runs.isEmpty else { return }
        window.counts.withUnsafeBufferPointer { counts in
            window.elementSteps.withUnsafeBufferPointer { steps in
                withUnsafeTemporaryAllocation(of: Int.self, capacity: max(1, rank - 1)) { index in
                    // The outer digits of the first run, then one odometer step per run.
                    var odometer = StridedOdometer(counts: counts.baseAddress!, steps: steps.baseAddress!,
                                                   index: index.baseAddress!, last: rank - 2,
                                                   position: runs.lowerBound, base: window.baseOffset)
                    for r in runs {
                        bytes(output + r * runBytes, input + odometer.offset * elementSize, runBytes)
                        _ = odometer.advance()
                    }
                }
            }
        }
    }
}
