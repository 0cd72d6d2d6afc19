/// Checks of the preconditions a public kernel entry point states in its doc comment.
///
/// Kernels trust their callers: they take raw pointers and counts and do not bounds-check their
/// loops. With `LITEVISION_INTERNAL_CHECKS` (debug builds, and builds made with
/// `LITEVISION_INTERNAL_CHECKS=1` in the environment, as CI's test run is) an entry point traps
/// when a checkable precondition (a range, a count, a layout's rows) does not hold; other builds
/// compile the checks to nothing. What a kernel cannot see (how many elements a pointer holds)
/// is stated in the doc comment only; the interpreter's typed tensor views check it.
@usableFromInline
enum KernelPrecondition {
    /// Traps with `message` when `condition` is false, in builds with internal checks only.
    /// (`fatalError`, not `precondition`: kernels compiled with `-Ounchecked`, as tuned builds
    /// once were, drop preconditions, and asking for internal checks there must still check.)
    @inlinable @inline(__always)
    static func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                      file: StaticString = #fileID, line: UInt = #line) {
        #if LITEVISION_INTERNAL_CHECKS
        if !condition() { fatalError(message(), file: file, line: line) }
        #endif
    }

    /// Checks that `range` is a non-negative element range.
    @inlinable @inline(__always)
    static func validRange(_ range: Range<Int>, file: StaticString = #fileID, line: UInt = #line) {
        check(range.lowerBound >= 0, "kernel range \(range) starts below 0", file: file, line: line)
    }

    /// Traps with the message `violation` returns, when it returns one, in builds with internal
    /// checks only. For contracts checked by a function that names what is broken (nil when the
    /// contract holds), which tests call with violating arguments without trapping: the argument
    /// blocks of the generated kernels (`GeneratedFloatTileArguments.violation(rows:panelWidth:)`
    /// and its siblings), the detection workspace (`DetectionPostProcessWorkspace.violation`).
    @inlinable @inline(__always)
    static func holds(_ violation: @autoclosure () -> String?, file: StaticString = #fileID, line: UInt = #line) {
        #if LITEVISION_INTERNAL_CHECKS
        if let message = violation() { fatalError(message, file: file, line: line) }
        #endif
    }

    /// Whether the byte ranges `a ..< a + aBytes` and `b ..< b + bBytes` share a byte (empty
    /// ranges share none).
    static func overlap(_ a: UnsafeRawPointer, _ aBytes: Int, _ b: UnsafeRawPointer, _ bBytes: Int) -> Bool {
        let x = UInt(bitPattern: Int(bitPattern: a)), y = UInt(bitPattern: Int(bitPattern: b))
        guard aBytes > 0, bBytes > 0 else { return false }
        return x < y &+ UInt(bBytes) && y < x &+ UInt(aBytes)
    }

    /// Checks that `count` is not negative.
    @inlinable @inline(__always)
    static func validCount(_ count: Int, _ what: StaticString = "count", file: StaticString = #fileID, line: UInt = #line) {
        check(count >= 0, "kernel \(what) \(count) is negative", file: file, line: line)
    }
}
