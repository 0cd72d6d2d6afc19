/// Places tensors in one arena from their lifetimes (greedy, as tflite-micro's
/// `GreedyMemoryPlanner`): tensors are placed one by one — the largest first, and again in order
/// of first use, keeping the smaller arena — each at the lowest aligned offset that does not
/// overlap any already-placed tensor whose lifetime intersects its own.
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

    /// Plans `requests` with offsets that are multiples of `alignment`: the smallest of the
    /// greedy placements in each of the ``PlacementOrder``s (ties to the first).
    /// - Complexity: O(n² log n) for n requests.
    static func plan(_ requests: [Request], alignment: Int = AlignedBuffer.alignment) -> Plan {
        var best: Plan?
        for order in PlacementOrder.allCases {
            let candidate = place(requests, in: order.sorted(requests), alignment: alignment)
            if candidate.arenaByteCount < best?.arenaByteCount ?? Int.max { best = candidate }
        }
        return best!
    }

    /// The order in which the greedy placement takes the requests. Greedy by size alone
    /// (tflite-micro's) can place a long-lived tensor badly: with each fused SiLU table's output
    /// living from its convolution on (``OutputByteMapFusion``), yolov8n_int8_640's arena came to
    /// 7,421,696 bytes against a live peak of 6,970,984; taken in order of first use, 6,971,072.
    enum PlacementOrder: CaseIterable {
        /// Largest first, then earliest first use.
        case bySize
        /// Earliest first use first, then largest.
        case byFirstUse

        /// Request indices in this order (ties to the lower index).
        func sorted(_ requests: [Request]) -> [Int] {
            requests.indices.sorted { a, b in
                let ra = requests[a], rb = requests[b]
                switch self {
                case .bySize:
                    if ra.byteCount != rb.byteCount { return ra.byteCount > rb.byteCount }
                    if ra.firstUse != rb.firstUse { return ra.firstUse < rb.firstUse }
                case .byFirstUse:
                    if ra.firstUse != rb.firstUse { return ra.firstUse < rb.firstUse }
                    if ra.byteCount != rb.byteCount { return ra.byteCount > rb.byteCount }
                }
                return a < b
            }
        }
    }

    /// Places the requests one by one in `order`, each at the lowest aligned offset clear of the
    /// placed requests whose lifetimes meet its own.
    private static func place(_ requests: [Request], in order: [Int], alignment: Int) -> Plan {
        var offsets = [Int](repeating: 0, count: requests.count)
        // By offset, ties in placement order: the live neighbours are visited lowest first.
        var placed: [Int] = []
        placed.reserveCapacity(requests.count)
        var arenaByteCount = 0
        for index in order {
            let request = requests[index]
            let size = alignUp(request.byteCount, alignment)
            var candidate = 0
            for other in placed where requests[other].isLive(togetherWith: request) {
                let start = offsets[other]
                if candidate + size <= start { break }
                candidate = max(candidate, alignUp(start + requests[other].byteCount, alignment))
            }
            offsets[index] = candidate
            // After the last request at or below `candidate` (binary search).
            var low = 0, high = placed.count
            while low < high {
                let middle = (low + high) / 2
                if offsets[placed[middle]] <= candidate { low = middle + 1 } else { high = middle }
            }
            placed.insert(index, at: low)
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
