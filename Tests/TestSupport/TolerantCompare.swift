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
///
/// Every comparison goes through ``mismatch(_:_:allowed:)``, which is NaN- and infinity-aware:
/// a NaN matches only a NaN, an infinity only the same infinity, and a non-finite value on one
/// side against a finite one on the other is always a mismatch (never hidden by `max` or by a
/// NaN difference that compares false).
public enum TolerantCompare {
    /// Relative tolerance of the float rule.
    public static let floatTolerance = 2e-3

    /// Nil when every `actual[i]` is within `allowed(expected[i])` of `expected[i]` (NaN only
    /// against NaN, an infinity only against the same infinity), else a description naming the
    /// number of mismatches, the first non-finite mismatch or else the worst one.
    public static func mismatch(_ actual: [Double], _ expected: [Double], allowed: (Double) -> Double) -> String? {
        guard actual.count == expected.count else { return "element count \(actual.count) != \(expected.count)" }
        var count = 0, worst = 0.0, worstIndex = -1, nonFiniteIndex = -1
        for i in actual.indices {
            let a = actual[i], e = expected[i]
            if a == e || (a.isNaN && e.isNaN) { continue }
            if !a.isFinite || !e.isFinite {
                count += 1
                if nonFiniteIndex < 0 { nonFiniteIndex = i }
                continue
            }
            let diff = abs(a - e)
            guard diff > allowed(e) else { continue }
            count += 1
            if diff > worst { worst = diff; worstIndex = i }
        }
        guard count > 0 else { return nil }
        if nonFiniteIndex >= 0 {
            return "\(count) of \(actual.count) elements differ; element \(nonFiniteIndex): got \(actual[nonFiniteIndex]), expected \(expected[nonFiniteIndex])"
        }
        return "\(count) of \(actual.count) elements differ; worst |diff| \(worst) at element \(worstIndex) (got \(actual[worstIndex]), expected \(expected[worstIndex]); allowed \(allowed(expected[worstIndex])))"
    }

    /// The float rule's allowed difference for `expected`: 2e-3 × max(1, max finite |expected|).
    public static func floatAllowance(_ expected: [Double]) -> Double {
        floatTolerance * max(1, expected.reduce(0) { $1.isFinite ? max($0, abs($1)) : $0 })
    }

    /// Nil when `actual` matches `expected` under the float rule, else a description.
    public static func floatMismatch(_ actual: [Double], _ expected: [Double]) -> String? {
        let allowed = floatAllowance(expected)
        return mismatch(actual, expected) { _ in allowed }
    }

    /// Nil when the integer values differ by at most `step`, else a description.
    public static func stepMismatch(_ actual: [Double], _ expected: [Double], step: Double = 1) -> String? {
        mismatch(actual, expected) { _ in step }
    }

    /// Nil when the values are bit-identical as doubles (so -0 differs from +0), else a description.
    public static func exactMismatch(_ actual: [Double], _ expected: [Double]) -> String? {
        guard actual.count == expected.count else { return "element count \(actual.count) != \(expected.count)" }
        let differing = actual.indices.filter { actual[$0].bitPattern != expected[$0].bitPattern }
        guard let index = differing.first else { return nil }
        return "not bit-exact: \(differing.count) of \(actual.count) elements differ, first at \(index) (got \(actual[index]), expected \(expected[index]))"
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
            return exactMismatch(actual.doubleValues(), expected.doubleValues())
                ?? "not bit-exact: the bytes differ (NaN payloads)"
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
