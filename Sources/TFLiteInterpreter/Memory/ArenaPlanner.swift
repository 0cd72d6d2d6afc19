/// Places tensors in one arena from their lifetimes (greedy by size, as tflite-micro's
/// `GreedyMemoryPlanner`): the largest tensors are placed first, each at the lowest aligned
/// offset that does not overlap any already-placed tensor whose lifetime intersects its own.
/// Tensors that are never alive at the same time share memory.
enum ArenaPlanner {
    /// One buffer to place: its size and the inclusive range of steps during which it is live.
    struct Request: Equatable, Sendable {
        /// Bytes needed.
        var byteCount: Int
        /// First step (operator position) at which the buffer is live.
        var firstUse: Int
        /// Last step at which the buffer is live (inclusive).
        var lastUse: Int

        /// True when the two lifetimes share at least one step.
        func isLive(togetherWith other: Request) -> Bool {
            firstUse <= other.lastUse && other.firstUse <= lastUse
        }
    }

    /// The result: an offset per request (same order) and the arena size.
    struct Plan: Equatable, Sendable {
        /// Byte offset of each request in the arena, a multiple of the alignment.
        var offsets: [Int]
        /// Bytes the arena needs.
        var arenaByteCount: Int
    }

    /// Plans `requests` with offsets that are multiples of `alignment`.
    /// - Complexity: O(n² log n) for n requests.
    static func plan(_ requests: [Request], alignment: Int = AlignedBuffer.alignment) -> Plan {
        let order = requests.indices.sorted { a, b in
            let ra = requests[a], rb = requests[b]
            if ra.byteCount != rb.byteCount { return ra.byteCount > rb.byteCount }
            if ra.firstUse != rb.firstUse { return ra.firstUse < rb.firstUse }
            return a < b
        }
        var offsets = [Int](repeating: 0, count: requests.count)
        var placed: [Int] = []
        var arenaByteCount = 0
        for index in order {
            let request = requests[index]
            let size = alignUp(request.byteCount, alignment)
            let neighbours = placed.filter { requests[$0].isLive(togetherWith: request) }
                .sorted { offsets[$0] < offsets[$1] }
            var candidate = 0
            for other in neighbours {
                let start = offsets[other]
                if candidate + size <= start { break }
                candidate = max(candidate, alignUp(start + requests[other].byteCount, alignment))
            }
            offsets[index] = candidate
            placed.append(index)
            arenaByteCount = max(arenaByteCount, candidate + size)
        }
        return Plan(offsets: offsets, arenaByteCount: arenaByteCount)
    }

    /// The most bytes that `requests` keep live at one step: the largest sum of `byteCount` over
    /// the requests whose lifetimes contain a step. No placement of them can use less memory, so
    /// it is the bound a plan's `arenaByteCount` is measured against (the package's one
    /// live-tensor analysis: the interpreter reports it beside the arena, `bench` prints it).
    /// - Complexity: O(n log n) for n requests.
    static func peakLiveByteCount(_ requests: [Request]) -> Int {
        // +bytes where a lifetime starts, -bytes one step after it ends; ends sort before starts.
        var events: [(step: Int, change: Int)] = []
        events.reserveCapacity(2 * requests.count)
        for request in requests {
            events.append((request.firstUse, request.byteCount))
            events.append((request.lastUse + 1, -request.byteCount))
        }
        events.sort { a, b in a.step != b.step ? a.step < b.step : a.change < b.change }
        var live = 0, peak = 0
        for event in events {
            live += event.change
            peak = max(peak, live)
        }
        return peak
    }

    /// `value` rounded up to a multiple of `alignment`.
    static func alignUp(_ value: Int, _ alignment: Int) -> Int {
        (value + alignment - 1) / alignment * alignment
    }
}
