/// One matched pair of an assignment problem.
public struct AssignedPair: Hashable, Sendable {
    /// Row index (for the tracker: a track).
    public var row: Int
    /// Column index (for the tracker: a detection).
    public var column: Int
    /// Creates a pair.
    public init(row: Int, column: Int) { self.row = row; self.column = column }
}

/// How rows and columns are paired.
public enum AssignmentStrategy: Hashable, Sendable {
    /// Optimal (Hungarian method): for ``AssignmentSolver/solve(costs:strategy:)`` the most
    /// pairs possible and among those the lowest total cost; for
    /// ``AssignmentSolver/solve(weights:strategy:)`` the largest total weight.
    case optimal
    /// Greedy: repeatedly takes the best remaining allowed pair (cheapest cost or heaviest
    /// weight; ties: lower row, then lower column).
    case greedy
}

/// Solves rectangular assignment problems where some pairs are forbidden.
public enum AssignmentSolver {
    /// Pairs rows with columns.
    ///
    /// - Parameters:
    ///   - costs: `costs[row][column]`; `nil` (or a non-finite value) forbids the pair.
    ///     All rows must have the same length.
    ///   - strategy: optimal (default) or greedy.
    /// - Returns: the chosen pairs sorted by row. Every pair is allowed; each row and column
    ///   appears at most once.
    /// - Complexity: optimal O(n² m) for an n × m matrix (n ≤ m after transposing); greedy O(k log k)
    ///   for k allowed pairs.
    public static func solve(costs: [[Double?]], strategy: AssignmentStrategy = .optimal) -> [AssignedPair] {
        let rows = costs.count
        guard rows > 0 else { return [] }
        let columns = costs[0].count
        guard columns > 0, costs.allSatisfy({ $0.count == columns }) else { return [] }
        switch strategy {
        case .greedy: return greedy(costs, columns: columns)
        case .optimal: return optimal(costs, rows: rows, columns: columns)
        }
    }

    /// Pairs rows with columns to maximise the total weight (a maximum-weight matching).
    ///
    /// Unlike ``solve(costs:strategy:)`` this never trades one strong pair for two weak ones
    /// just to pair more rows, which is what a tracker wants: a track left unmatched for a
    /// frame is better than two tracks swapping their detections.
    /// - Parameters:
    ///   - weights: `weights[row][column]`; `nil`, non-finite or non-positive values forbid the pair.
    /// - Returns: the chosen pairs sorted by row.
    public static func solve(weights: [[Double?]], strategy: AssignmentStrategy = .optimal) -> [AssignedPair] {
        let rows = weights.count
        guard rows > 0 else { return [] }
        let columns = weights[0].count
        guard columns > 0, weights.allSatisfy({ $0.count == columns }) else { return [] }
        func allowed(_ w: Double?) -> Double? {
            guard let w, w.isFinite, w > 0 else { return nil }
            return w
        }
        switch strategy {
        case .greedy:
            return greedy(weights.map { $0.map { allowed($0).map { -$0 } } }, columns: columns)
        case .optimal:
            // Every pair is allowed in the solve (forbidden ones weigh 0), so the minimum total
            // of negated weights is the maximum total weight; zero-weight pairs are dropped.
            let costs: [[Double?]] = weights.map { $0.map { -(allowed($0) ?? 0) } }
            return optimal(costs, rows: rows, columns: columns).filter { allowed(weights[$0.row][$0.column]) != nil }
        }
    }

    private static func allowedCost(_ value: Double?) -> Double? {
        guard let value, value.isFinite else { return nil }
        return value
    }

    private static func greedy(_ costs: [[Double?]], columns: Int) -> [AssignedPair] {
        var candidates: [(cost: Double, row: Int, column: Int)] = []
        for (r, row) in costs.enumerated() {
            for c in 0..<columns { if let cost = allowedCost(row[c]) { candidates.append((cost, r, c)) } }
        }
        candidates.sort { a, b in
            if a.cost != b.cost { return a.cost < b.cost }
            if a.row != b.row { return a.row < b.row }
            return a.column < b.column
        }
        var rowUsed = Set<Int>(), columnUsed = Set<Int>()
        var pairs: [AssignedPair] = []
        for candidate in candidates where !rowUsed.contains(candidate.row) && !columnUsed.contains(candidate.column) {
            rowUsed.insert(candidate.row); columnUsed.insert(candidate.column)
            pairs.append(AssignedPair(row: candidate.row, column: candidate.column))
        }
        return pairs.sorted { $0.row < $1.row }
    }

    /// Hungarian method with potentials on a matrix where forbidden pairs cost more than
    /// any set of allowed pairs, so the result first maximises the number of allowed pairs.
    private static func optimal(_ costs: [[Double?]], rows: Int, columns: Int) -> [AssignedPair] {
        let transposed = rows > columns
        let n = transposed ? columns : rows, m = transposed ? rows : columns
        var largest = 0.0, smallest = 0.0, anyAllowed = false
        for row in costs {
            for value in row {
                if let v = allowedCost(value) { largest = max(largest, v); smallest = min(smallest, v); anyAllowed = true }
            }
        }
        guard anyAllowed else { return [] }
        // Shift costs to be non-negative; a forbidden pair costs more than n allowed pairs.
        let spread = largest - smallest
        let forbidden = (spread + 1) * Double(n + 1)
        var matrix = [Double](repeating: forbidden, count: n * m)
        for i in 0..<n {
            for j in 0..<m {
                let value = transposed ? costs[j][i] : costs[i][j]
                if let v = allowedCost(value) { matrix[i * m + j] = v - smallest }
            }
        }
        // 1-based potentials formulation: u over rows, v over columns, p[j] = row matched to column j.
        var u = [Double](repeating: 0, count: n + 1)
        var v = [Double](repeating: 0, count: m + 1)
        var p = [Int](repeating: 0, count: m + 1)
        var way = [Int](repeating: 0, count: m + 1)
        for i in 1...n {
            p[0] = i
            var j0 = 0
            var minv = [Double](repeating: .infinity, count: m + 1)
            var used = [Bool](repeating: false, count: m + 1)
            repeat {
                used[j0] = true
                let i0 = p[j0]
                var delta = Double.infinity
                var j1 = 0
                for j in 1...m where !used[j] {
                    let current = matrix[(i0 - 1) * m + (j - 1)] - u[i0] - v[j]
                    if current < minv[j] { minv[j] = current; way[j] = j0 }
                    if minv[j] < delta { delta = minv[j]; j1 = j }
                }
                for j in 0...m {
                    if used[j] { u[p[j]] += delta; v[j] -= delta } else { minv[j] -= delta }
                }
                j0 = j1
            } while p[j0] != 0
            repeat {
                let j1 = way[j0]
                p[j0] = p[j1]
                j0 = j1
            } while j0 != 0
        }
        var pairs: [AssignedPair] = []
        for j in 1...m where p[j] != 0 {
            let i = p[j] - 1
            guard matrix[i * m + (j - 1)] < forbidden else { continue }
            pairs.append(transposed ? AssignedPair(row: j - 1, column: i) : AssignedPair(row: i, column: j - 1))
        }
        return pairs.sorted { $0.row < $1.row }
    }
}
