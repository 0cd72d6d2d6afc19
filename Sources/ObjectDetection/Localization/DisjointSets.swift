/// Union–find over `0..<count` with union by size and path halving.
struct DisjointSets {
    private var parent: [Int]
    /// Size of each set, valid at its root.
    private(set) var size: [Int]

    init(count: Int) {
        parent = Array(0..<count)
        size = [Int](repeating: 1, count: count)
    }

    /// The root of `x`'s set.
    mutating func find(_ x: Int) -> Int {
        var x = x
        while parent[x] != x {
            parent[x] = parent[parent[x]]
            x = parent[x]
        }
        return x
    }

    /// Joins the sets of roots `a` and `b`; returns the new root (`a` when they are one set).
    mutating func union(_ a: Int, _ b: Int) -> Int {
        guard a != b else { return a }
        let (big, small) = size[a] >= size[b] ? (a, b) : (b, a)
        parent[small] = big
        size[big] += size[small]
        return big
    }
}
