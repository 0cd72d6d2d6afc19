/// What a model needs that this engine cannot run, found at load time, before any invoke:
/// every operator whose code the engine lacks, and every operator whose prepare-time
/// validation rejects its types, options or shapes (see ``Model/checkSupport(_:limits:)``).
///
/// Empty ``findings`` means every operator of every subgraph prepared: the model runs with
/// its declared input shapes. The report is `Codable` for `tflite-dump --check --json`.
public struct SupportReport: Codable, Sendable, Equatable {
    /// Why an operator (or the model) cannot run.
    public enum Reason: String, Codable, Sendable, Equatable {
        /// The operator code (builtin or custom name) has no kernel in this engine.
        case unknownOperator
        /// The kernel exists but not for this combination of tensor types.
        case unsupportedType
        /// The kernel exists but not with this option (e.g. a fused activation it lacks).
        case unsupportedOption
        /// The operator's tensors, shapes or options are inconsistent (the reference would
        /// reject the model too), or the subgraph itself is malformed.
        case invalidModel
        /// Preparing the operator would exceed the ``ResourceLimits`` the check ran under.
        case resourceLimit
    }

    /// One operator (or one subgraph, when `operatorIndex` is nil) that cannot run.
    public struct Finding: Codable, Sendable, Equatable, CustomStringConvertible {
        /// Subgraph position in the model.
        public var subgraph: Int
        /// Operator position in the subgraph; nil for a problem of the subgraph as a whole.
        public var operatorIndex: Int?
        /// Operator display name (builtin name, or the custom name); nil with `operatorIndex`.
        public var operatorName: String?
        /// The class of problem.
        public var reason: Reason
        /// The engine's message, naming the types, option or tensor at fault.
        public var message: String

        /// `subgraph 0, operator 3 (DIV): unsupportedType: DIV on int8 tensors`.
        public var description: String {
            let place = operatorIndex.map { "subgraph \(subgraph), operator \($0) (\(operatorName ?? "?"))" }
                ?? "subgraph \(subgraph)"
            return "\(place): \(reason.rawValue): \(message)"
        }
    }

    /// Every problem found, in subgraph then operator order.
    public var findings: [Finding]

    /// True when nothing stops the model from running.
    public var isSupported: Bool { findings.isEmpty }

    /// A report of `findings`.
    public init(findings: [Finding]) { self.findings = findings }
}
