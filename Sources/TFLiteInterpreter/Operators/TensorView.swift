import TFLiteSchema

/// A typed, read-only view of a tensor's elements: how an operator hands a tensor's memory to a
/// kernel, instead of binding raw memory itself.
///
/// Made by ``RuntimeTensor/view(as:_:)`` (or ``RuntimeTensor/byteView(_:)``). With
/// `LITEVISION_INTERNAL_CHECKS` (debug builds, CI's test run) making a view checks the contract of
/// ``TensorViewCheck/violation(_:_:as:)`` — `Element` stores the tensor's type, the byte count
/// matches, the memory is aligned — and the subscript checks its index; a violation traps. Without
/// the flag a view is its base pointer and compiles to nothing.
struct TensorView<Element> {
    /// The first element.
    let base: UnsafePointer<Element>
    #if LITEVISION_INTERNAL_CHECKS
    /// Elements in the view (kept only when checks are on).
    let count: Int
    #endif

    /// The read-only side of a checked writable view.
    @inline(__always)
    init(_ view: MutableTensorView<Element>) {
        base = UnsafePointer(view.base)
        #if LITEVISION_INTERNAL_CHECKS
        count = view.count
        #endif
    }

    /// Element `i`. Precondition: `0 <= i < ` the tensor's element count (checked under the flag).
    @inline(__always)
    subscript(i: Int) -> Element {
        #if LITEVISION_INTERNAL_CHECKS
        precondition(i >= 0 && i < count, "TensorView: index \(i) out of 0..<\(count)")
        #endif
        return base[i]
    }
}

/// A typed, writable view of a tensor's elements (an operator's output, a scatter target).
///
/// The same contract and checks as ``TensorView``; made by ``RuntimeTensor/mutableView(as:_:)``
/// (or ``RuntimeTensor/mutableByteView(_:)``).
struct MutableTensorView<Element> {
    /// The first element.
    let base: UnsafeMutablePointer<Element>
    #if LITEVISION_INTERNAL_CHECKS
    /// Elements in the view (kept only when checks are on).
    let count: Int
    #endif

    /// A view of `count` elements at `base` (`count` is evaluated only when checks are on).
    /// Precondition: the caller checked the contract (``RuntimeTensor`` does).
    @inline(__always)
    fileprivate init(base: UnsafeMutablePointer<Element>, count: @autoclosure () -> Int) {
        self.base = base
        #if LITEVISION_INTERNAL_CHECKS
        self.count = count()
        #endif
    }

    /// Element `i`. Precondition: `0 <= i < ` the tensor's element count (checked under the flag).
    @inline(__always)
    subscript(i: Int) -> Element {
        get {
            #if LITEVISION_INTERNAL_CHECKS
            precondition(i >= 0 && i < count, "MutableTensorView: index \(i) out of 0..<\(count)")
            #endif
            return base[i]
        }
        nonmutating set {
            #if LITEVISION_INTERNAL_CHECKS
            precondition(i >= 0 && i < count, "MutableTensorView: index \(i) out of 0..<\(count)")
            #endif
            base[i] = newValue
        }
    }
}

extension RuntimeTensor {
    /// The tensor's elements as `Element` values, read-only.
    ///
    /// Precondition (checked under `LITEVISION_INTERNAL_CHECKS`): `Element` stores ``type``
    /// (``TensorViewCheck/stores(_:as:)``), and the data is aligned and as long as ``byteCount``.
    /// - Throws: ``InterpreterError/invocationFailed(_:)`` naming `op` when the tensor has no memory.
    @inline(__always)
    func view<Element>(as _: Element.Type, _ op: @autoclosure () -> String) throws -> TensorView<Element> {
        TensorView(try mutableView(as: Element.self, op()))
    }

    /// The tensor's elements as `Element` values, writable. Same precondition as ``view(as:_:)``.
    /// - Throws: ``InterpreterError/invocationFailed(_:)`` naming `op` when the tensor has no memory.
    @inline(__always)
    func mutableView<Element>(as _: Element.Type, _ op: @autoclosure () -> String) throws -> MutableTensorView<Element> {
        guard let data else { throw missingData(op()) }
        #if LITEVISION_INTERNAL_CHECKS
        if let problem = TensorViewCheck.violation(self, data, as: Element.self) { preconditionFailure("\(op()): \(problem)") }
        #endif
        return MutableTensorView(base: data.assumingMemoryBound(to: Element.self), count: elementCount)
    }

    /// The elements of a one-byte tensor (int8, uint8, bool) as their bit patterns, read-only: for
    /// kernels that treat codes as bytes (lookup tables, byte maps). Precondition (checked under
    /// the flag): ``type`` is one byte wide.
    /// - Throws: ``InterpreterError/invocationFailed(_:)`` naming `op` when the tensor has no memory.
    @inline(__always)
    func byteView(_ op: @autoclosure () -> String) throws -> TensorView<UInt8> {
        TensorView(try mutableByteView(op()))
    }

    /// The elements of a one-byte tensor as their bit patterns, writable (see ``byteView(_:)``).
    /// - Throws: ``InterpreterError/invocationFailed(_:)`` naming `op` when the tensor has no memory.
    @inline(__always)
    func mutableByteView(_ op: @autoclosure () -> String) throws -> MutableTensorView<UInt8> {
        guard let data else { throw missingData(op()) }
        #if LITEVISION_INTERNAL_CHECKS
        if let problem = TensorViewCheck.byteViolation(self, data) { preconditionFailure("\(op()): \(problem)") }
        #endif
        return MutableTensorView(base: data.assumingMemoryBound(to: UInt8.self), count: elementCount)
    }

    /// The error of a view of a tensor without memory (out of line: views inline only the check).
    @inline(never)
    private func missingData(_ op: String) -> InterpreterError {
        .invocationFailed("\(op): tensor '\(name)' has no data")
    }
}
