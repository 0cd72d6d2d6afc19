import TestSupport
import XCTest
import ObjectTracking

final class AssignmentSolverTests: XCTestCase {
    func testOptimalBeatsGreedyOnClassicCase() {
        // Greedy takes (0,0)=1 then must take (1,1)=10: total 11. Optimal: (0,1)+(1,0) = 2+2 = 4.
        let costs: [[Double?]] = [[1, 2], [2, 10]]
        XCTAssertEqual(AssignmentSolver.solve(costs: costs), [AssignedPair(row: 0, column: 1), AssignedPair(row: 1, column: 0)])
        XCTAssertEqual(AssignmentSolver.solve(costs: costs, strategy: .greedy),
                       [AssignedPair(row: 0, column: 0), AssignedPair(row: 1, column: 1)])
    }

    func testForbiddenPairsAreNeverChosenAndCardinalityIsMaximised() {
        // Row 0 could take column 0 cheaply, but then row 1 (only allowed at column 0) goes unmatched.
        let costs: [[Double?]] = [[0.1, 0.9], [0.5, nil]]
        XCTAssertEqual(AssignmentSolver.solve(costs: costs), [AssignedPair(row: 0, column: 1), AssignedPair(row: 1, column: 0)])
        XCTAssertEqual(AssignmentSolver.solve(costs: [[nil, nil], [nil, .infinity]]), [])
        XCTAssertEqual(AssignmentSolver.solve(costs: []), [])
        XCTAssertEqual(AssignmentSolver.solve(costs: [[1, 2], [3]]), [], "ragged matrices are rejected")
    }

    func testRectangularMatricesBothWays() {
        let wide: [[Double?]] = [[5, 1, 7]]
        XCTAssertEqual(AssignmentSolver.solve(costs: wide), [AssignedPair(row: 0, column: 1)])
        let tall: [[Double?]] = [[5], [1], [7]]
        XCTAssertEqual(AssignmentSolver.solve(costs: tall), [AssignedPair(row: 1, column: 0)])
    }

    /// The optimal solver agrees with exhaustive search on random matrices with forbidden cells.
    func testOptimalMatchesBruteForceOnRandomMatrices() {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<300 {
            let rows = Int.random(in: 1...5, using: &rng), columns = Int.random(in: 1...5, using: &rng)
            let costs: [[Double?]] = (0..<rows).map { _ in
                (0..<columns).map { _ in Double.random(in: 0..<1, using: &rng) < 0.25 ? nil : Double.random(in: -3..<3, using: &rng) }
            }
            let pairs = AssignmentSolver.solve(costs: costs)
            XCTAssertEqual(Set(pairs.map(\.row)).count, pairs.count)
            XCTAssertEqual(Set(pairs.map(\.column)).count, pairs.count)
            let best = bruteForce(costs)
            XCTAssertEqual(pairs.count, best.count, "\(costs)")
            XCTAssertEqual(pairs.reduce(0) { $0 + costs[$1.row][$1.column]! }, best.cost, accuracy: 1e-9, "\(costs)")
        }
    }

    /// Largest number of pairs, then smallest cost, by trying every assignment.
    private func bruteForce(_ costs: [[Double?]]) -> (count: Int, cost: Double) {
        var best = (count: 0, cost: 0.0)
        func visit(_ row: Int, _ used: Set<Int>, _ count: Int, _ cost: Double) {
            if row == costs.count {
                if count > best.count || (count == best.count && cost < best.cost) { best = (count, cost) }
                return
            }
            visit(row + 1, used, count, cost)
            for c in costs[row].indices where !used.contains(c) {
                if let v = costs[row][c] { visit(row + 1, used.union([c]), count + 1, cost + v) }
            }
        }
        visit(0, [], 0, 0)
        return best
    }

    /// Maximum-weight matching keeps one strong pair rather than two weak ones.
    func testMaximumWeightDoesNotTradeStrongPairForTwoWeakOnes() {
        let weights: [[Double?]] = [[0.9, 0.4], [0.4, nil]]
        XCTAssertEqual(AssignmentSolver.solve(weights: weights), [AssignedPair(row: 0, column: 0)])
        XCTAssertEqual(AssignmentSolver.solve(weights: weights, strategy: .greedy), [AssignedPair(row: 0, column: 0)])
        // Cardinality-first cost minimisation pairs both rows instead.
        XCTAssertEqual(AssignmentSolver.solve(costs: weights.map { $0.map { $0.map { 1 - $0 } } }).count, 2)
        XCTAssertEqual(AssignmentSolver.solve(weights: [[0, -1], [.nan, nil]]), [], "non-positive weights are forbidden")
    }

    /// The maximum-weight solver agrees with exhaustive search.
    func testMaximumWeightMatchesBruteForce() {
        var rng = SeededGenerator(seed: 11)
        for _ in 0..<300 {
            let rows = Int.random(in: 1...5, using: &rng), columns = Int.random(in: 1...5, using: &rng)
            let weights: [[Double?]] = (0..<rows).map { _ in
                (0..<columns).map { _ in Double.random(in: 0..<1, using: &rng) < 0.3 ? nil : Double.random(in: 0.01..<1, using: &rng) }
            }
            let total = AssignmentSolver.solve(weights: weights).reduce(0) { $0 + weights[$1.row][$1.column]! }
            var best = 0.0
            func visit(_ row: Int, _ used: Set<Int>, _ sum: Double) {
                if row == rows { best = max(best, sum); return }
                visit(row + 1, used, sum)
                for c in 0..<columns where !used.contains(c) {
                    if let w = weights[row][c] { visit(row + 1, used.union([c]), sum + w) }
                }
            }
            visit(0, [], 0)
            XCTAssertEqual(total, best, accuracy: 1e-9, "\(weights)")
        }
    }
}
