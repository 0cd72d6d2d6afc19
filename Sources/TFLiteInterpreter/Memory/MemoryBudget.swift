import TFLiteSchema

/// The bytes one model or interpreter has allocated, counted against ``ResourceLimits``
/// *before* each allocation: derived constants at load, outputs evaluated at prepare, the
/// arena and variable tensors. A model that asks for more fails with
/// ``InterpreterError/resourceLimitExceeded(_:)`` naming the limit, not with the system's
/// out-of-memory killer.
struct MemoryBudget {
    /// The limits in force.
    let limits: ResourceLimits
    /// Bytes reserved so far.
    private(set) var used: Int

    /// A budget of which `alreadyUsed` bytes are taken (e.g. by the model's derived constants).
    init(limits: ResourceLimits, alreadyUsed: Int = 0) {
        self.limits = limits
        used = alreadyUsed
    }

    /// Throws when one tensor of `bytes` is above ``ResourceLimits/maximumTensorByteCount``.
    func checkTensor(_ bytes: Int, _ subject: @autoclosure () -> String) throws {
        try Self.translate {
            try ResourceLimitError.check(bytes, limits.maximumTensorByteCount, limit: "maximumTensorByteCount",
                                         unit: "bytes", subject())
        }
    }

    /// Reserves `bytes` for `subject`, or throws when the total would pass
    /// ``ResourceLimits/maximumTotalByteCount`` (nothing is reserved then).
    mutating func reserve(_ bytes: Int, _ subject: @autoclosure () -> String) throws {
        let (total, overflow) = used.addingReportingOverflow(max(0, bytes))
        try Self.translate {
            try ResourceLimitError.check(overflow ? Int.max : total, limits.maximumTotalByteCount,
                                         limit: "maximumTotalByteCount", unit: "bytes",
                                         "\(subject()) (\(bytes) bytes on top of \(used) already allocated)")
        }
        used = total
    }

    /// Runs `body`, turning a ``ResourceLimitError`` into the interpreter's error.
    static func translate<R>(_ body: () throws -> R) throws -> R {
        do { return try body() } catch let error as ResourceLimitError {
            throw InterpreterError.resourceLimitExceeded(error.description)
        }
    }
}
