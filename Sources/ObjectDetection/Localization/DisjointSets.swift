/// Union–find over `0..<count` (fewer than 2³¹ elements) with union by size and path halving.
/// Parents and sizes are 32-bit, so a large forest (a pixel graph) stays twice as dense in the cache.
struct DisjointSets {
    private var parent: [Int32]
    /// Size of each set, valid at its root.
    private var sizes: [Int32]

    init(count: Int) {
        precondition(count < Int(Int32.max), "DisjointSets: \(count) elements do not fit 32-bit parents")
        parent = (0..<Int32(count)).map { $0 }
        sizes = [Int32](repeating: 1, count: count)
    }

    /// The size of the set whose root is `root`.
    func size(of root: Int) -> Int { Int(sizes[root]) }

    /// The root of `x`'s set.
    mutating func find(_ x: Int) -> Int {
        var x = Int32(truncatingIfNeeded: x)
        while parent[Int(x)] != x {
            parent[Int(x)] = parent[Int(parent[Int(x)])]
            x = parent[Int(x)]
        }
        return Int(x)
    }

    /// Joins the sets of roots `a` and `b`; returns the new root (`a` when they are one set).
    mutating func union(_ a: Int, _ b: Int) -> Int {
        guard a != b else { return a }
        let (big, small) = sizes[a] >= sizes[b] ? (a, b) : (b, a)
        parent[small] = Int32(truncatingIfNeeded: big)
        sizes[big] += sizes[small]
        return big
    }
}
