import TFLiteInterpreter

/// How outputs are compared with reference (golden) outputs.
public enum GoldenTolerance: String, Sendable {
    /// max|actual - expected| <= 2e-3 * max(1, max|expected|).
    case float
    /// Bit-exact bytes.
    case exact
    /// |actual - expected| <= 1 in stored (quantized) units.
    case oneStep = "one_step"
}

/// Tolerant comparison of tensors and arrays, with messages that say what differs.
public enum TolerantCompare {
    /// Relative tolerance of the float rule.
    public static let floatTolerance = 2e-3

    /// Nil when `actual` matches `expected` under the float rule, else a description.
    public static func floatMismatch(_ actual: [Double], _ expected: [Double]) -> String? {
        guard actual.count == expected.count else {
            return "element count \(actual.count) != \(expected.count)"
        }
        let scale = max(1, expected.reduce(0) { $1.isFinite ? max($0, abs($1)) : $0 })
        var worst = 0.0, worstIndex = 0
        for i in actual.indices {
            if actual[i].isNaN && expected[i].isNaN { continue }
            let diff = abs(actual[i] - expected[i])
            if diff.isNaN { return "element \(i): got \(actual[i]), expected \(expected[i])" }
            if diff > worst { worst = diff; worstIndex = i }
        }
        guard worst > floatTolerance * scale else { return nil }
        return "max |diff| = \(worst) at element \(worstIndex) (got \(actual[worstIndex]), expected \(expected[worstIndex])); allowed \(floatTolerance * scale)"
    }

    /// Nil when the integer values differ by at most `step`, else a description.
    public static func stepMismatch(_ actual: [Double], _ expected: [Double], step: Double = 1) -> String? {
        guard actual.count == expected.count else { return "element count \(actual.count) != \(expected.count)" }
        var worst = 0.0, worstIndex = 0, count = 0
        for i in actual.indices {
            let diff = abs(actual[i] - expected[i])
            if diff > step { count += 1 }
            if diff > worst { worst = diff; worstIndex = i }
        }
        guard worst > step else { return nil }
        return "\(count) elements differ by more than \(step); worst \(worst) at element \(worstIndex) (got \(actual[worstIndex]), expected \(expected[worstIndex]))"
    }

    /// Nil when `actual` (type, shape and values) matches `expected` under `tolerance`.
    public static func mismatch(_ actual: Tensor, _ expected: NumPyArray, tolerance: GoldenTolerance) -> String? {
        let actualArray: NumPyArray
        do {
            actualArray = try NumPyArray(dataType: NumPyArray.DataType(actual.dataType),
                                         shape: actual.shape.dimensions, data: actual.data)
        } catch { return "output '\(actual.name)': \(error)" }
        return mismatch(actualArray, expected, tolerance: tolerance).map { "output '\(actual.name)': \($0)" }
    }

    /// Nil when two arrays (type, shape and values) match under `tolerance`.
    public static func mismatch(_ actual: NumPyArray, _ expected: NumPyArray, tolerance: GoldenTolerance) -> String? {
        guard actual.dataType == expected.dataType else {
            return "dtype \(actual.dataType) != expected \(expected.dataType)"
        }
        guard actual.shape == expected.shape else { return "shape \(actual.shape) != expected \(expected.shape)" }
        switch tolerance {
        case .exact:
            guard actual.data != expected.data else { return nil }
            let a = actual.doubleValues(), e = expected.doubleValues()
            let index = a.indices.first { a[$0].bitPattern != e[$0].bitPattern } ?? 0
            let differing = a.indices.filter { a[$0].bitPattern != e[$0].bitPattern }.count
            return "not bit-exact: \(differing) elements differ, first at \(index) (got \(a[index]), expected \(e[index]))"
        case .oneStep:
            if [.float16, .float32, .float64].contains(actual.dataType) {
                return floatMismatch(actual.doubleValues(), expected.doubleValues())
            }
            return stepMismatch(actual.doubleValues(), expected.doubleValues())
        case .float:
            return floatMismatch(actual.doubleValues(), expected.doubleValues())
        }
    }
}
