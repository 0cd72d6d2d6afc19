import TFLiteInterpreter
import TFLiteSchema

/// `tflite-dump --check MODEL`: the operators of the model the engine cannot run
/// (``Model/checkSupport(_:limits:)``), as text or as a JSON object
/// `{"model": path, "supported": bool, "findings": [{subgraph, operatorIndex, operatorName, reason, message}]}`.
struct SupportCheckReport: Encodable {
    var model: String
    var supported: Bool
    var findings: [SupportReport.Finding]

    /// Checks `file` (read from `path`) within `limits`.
    init(path: String, file: TFLiteModelFile, limits: ResourceLimits) {
        let report = Model.checkSupport(file, limits: limits)
        model = path
        supported = report.isSupported
        findings = report.findings
    }

    /// One line per finding, or a line saying every operator prepares.
    func render() -> String {
        guard !findings.isEmpty else { return "\(model): every operator is supported" }
        var lines = ["\(model): \(findings.count) operator\(findings.count == 1 ? "" : "s") the engine cannot run:"]
        lines += findings.map { "  \($0)" }
        return lines.joined(separator: "\n")
    }
}
