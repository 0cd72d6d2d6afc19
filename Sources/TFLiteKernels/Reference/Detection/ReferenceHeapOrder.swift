/// Binary-heap algorithms that visit and move elements in exactly the order of the C++
/// standard library the reference runtime is built with (GNU libstdc++: `make_heap`,
/// `push_heap`, `pop_heap`, `sort_heap`, `partial_sort`, `priority_queue`).
///
/// The reference detection kernels sort scores with `std::partial_sort` and
/// `std::priority_queue`, which are not stable: among equal scores the output order is
/// whatever these heap moves produce. Quantized scores tie often, so matching the reference
/// bit for bit requires the same moves. `precedes(a, b)` is the C++ comparator `comp(a, b)`.
enum ReferenceHeapOrder {
    /// `std::__push_heap`: moves `value` up from `hole` towards `top`.
    static func pushUp<C: MutableCollection & RandomAccessCollection>(
        _ a: inout C, base: Int, hole start: Int, top: Int, value: C.Element, _ precedes: (C.Element, C.Element) -> Bool
    ) where C.Index == Int {
        var hole = start
        var parent = (hole - 1) / 2
        while hole > top && precedes(a[base + parent], value) {
            a[base + hole] = a[base + parent]
            hole = parent
            parent = (hole - 1) / 2
        }
        a[base + hole] = value
    }

    /// `std::__adjust_heap`: sifts the hole at `start` down to a leaf, then pushes `value` up.
    static func adjust<C: MutableCollection & RandomAccessCollection>(
        _ a: inout C, base: Int, hole start: Int, length: Int, value: C.Element, _ precedes: (C.Element, C.Element) -> Bool
    ) where C.Index == Int {
        let top = start
        var hole = start
        var child = start
        while child < (length - 1) / 2 {
            child = 2 * (child + 1)
            if precedes(a[base + child], a[base + child - 1]) { child -= 1 }
            a[base + hole] = a[base + child]
            hole = child
        }
        if length & 1 == 0 && child == (length - 2) / 2 {
            child = 2 * (child + 1)
            a[base + hole] = a[base + child - 1]
            hole = child - 1
        }
        pushUp(&a, base: base, hole: hole, top: top, value: value, precedes)
    }

    /// `std::make_heap` over `a[base ..< base + length]`.
    /// - Precondition: `0 ≤ base`, `0 ≤ length`, `base + length ≤ a.count` (checked under
    ///   `LITEVISION_INTERNAL_CHECKS`: tuned builds drop the array's own bounds checks).
    static func makeHeap<C: MutableCollection & RandomAccessCollection>(
        _ a: inout C, base: Int, length: Int, _ precedes: (C.Element, C.Element) -> Bool
    ) where C.Index == Int {
        KernelPrecondition.check(base >= 0 && length >= 0 && base + length <= a.count,
                                 "heap \(base)..<\(base + length) outside \(a.count) elements")
        guard length >= 2 else { return }
        var parent = (length - 2) / 2
        while true {
            adjust(&a, base: base, hole: parent, length: length, value: a[base + parent], precedes)
            if parent == 0 { return }
            parent -= 1
        }
    }

    /// `std::__pop_heap(first, last, result)`: moves the top to `result`, re-heaps `value` (the old `*result`).
    static func popHeap<C: MutableCollection & RandomAccessCollection>(
        _ a: inout C, base: Int, length: Int, result: Int, _ precedes: (C.Element, C.Element) -> Bool
    ) where C.Index == Int {
        let value = a[result]
        a[result] = a[base]
        adjust(&a, base: base, hole: 0, length: length, value: value, precedes)
    }

    /// `std::sort_heap` over `a[base ..< base + length]`, a heap.
    /// - Precondition: as `makeHeap`'s (checked under `LITEVISION_INTERNAL_CHECKS`).
    static func sortHeap<C: MutableCollection & RandomAccessCollection>(
        _ a: inout C, base: Int, length: Int, _ precedes: (C.Element, C.Element) -> Bool
    ) where C.Index == Int {
        KernelPrecondition.check(base >= 0 && length >= 0 && base + length <= a.count,
                                 "heap \(base)..<\(base + length) outside \(a.count) elements")
        var last = length
        while last > 1 {
            last -= 1
            popHeap(&a, base: base, length: last, result: base + last, precedes)
        }
    }

    /// `std::partial_sort(first, first + middle, first + count)`: afterwards `a[0 ..< middle]`
    /// holds the first `middle` elements in `precedes` order, tie order as in libstdc++.
    /// - Precondition: `middle ≤ count ≤ a.count` when both are positive (otherwise nothing
    ///   happens); checked under `LITEVISION_INTERNAL_CHECKS`.
    static func partialSort<C: MutableCollection & RandomAccessCollection>(
        _ a: inout C, middle: Int, count: Int, _ precedes: (C.Element, C.Element) -> Bool
    ) where C.Index == Int {
        KernelPrecondition.check(middle <= 0 || count <= 0 || (middle <= count && count <= a.count),
                                 "partial sort of \(middle) of \(count) elements in \(a.count)")
        guard middle > 0, count > 0 else { return }
        makeHeap(&a, base: 0, length: middle, precedes)
        var i = middle
        while i < count {
            if precedes(a[i], a[0]) { popHeap(&a, base: 0, length: middle, result: i, precedes) }
            i += 1
        }
        sortHeap(&a, base: 0, length: middle, precedes)
    }
}

/// `std::priority_queue` on a `deque` with libstdc++'s heap moves: the top is the element
/// no other element "precedes" (a max-heap for `precedes = <`).
struct ReferencePriorityQueue<Element> {
    /// The heap, `storage[0 ..< count]`, in memory the caller owns.
    private var storage: UnsafeMutableBufferPointer<Element>
    private let precedes: (Element, Element) -> Bool
    /// Elements in the queue.
    private(set) var count = 0

    /// An empty queue of at most `storage.count` elements, kept in `storage` (initialized
    /// memory of a trivial type, which the queue overwrites).
    init(precedes: @escaping (Element, Element) -> Bool, storage: UnsafeMutableBufferPointer<Element>) {
        self.precedes = precedes
        self.storage = storage
    }

    var isEmpty: Bool { count == 0 }
    var top: Element? { count > 0 ? storage[0] : nil }

    /// `push`: `push_back` then `std::push_heap`.
    /// - Precondition: the queue holds fewer than `storage.count` elements (always checked:
    ///   a trap, not a write past the caller's memory).
    mutating func push(_ element: Element) {
        precondition(count < storage.count, "priority queue of \(storage.count) elements is full")
        storage[count] = element
        count += 1
        ReferenceHeapOrder.pushUp(&storage, base: 0, hole: count - 1, top: 0, value: element, precedes)
    }

    /// `pop`: `std::pop_heap` then `pop_back`.
    mutating func pop() {
        guard count > 0 else { return }
        if count > 1 {
            let last = count - 1
            ReferenceHeapOrder.popHeap(&storage, base: 0, length: last, result: last, precedes)
        }
        count -= 1
    }
}
