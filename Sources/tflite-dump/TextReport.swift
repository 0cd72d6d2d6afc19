import TFLiteSchema

/// Renders a `ModelSummary` as the human-readable `tflite-dump` report.
struct TextReport {
    let summary: ModelSummary
    /// How many labels to list.
    var labelPreview = 10

    func render() -> String {
        var lines: [String] = []
        let s = summary
        lines.append("Model: \(s.path) (\(bytes(s.fileSize)), schema version \(s.version))")
        if !s.description.isEmpty { lines.append("Description: \(s.description)") }
        lines.append("Subgraphs: \(s.subgraphCount), tensors: \(s.tensorCount), operators: \(s.operators.count), "
                     + "buffers: \(s.bufferCount) (\(bytes(s.constantBytes)) of constants)")
        if !s.signatures.isEmpty { lines.append("Signatures: \(s.signatures.joined(separator: ", "))") }
        lines.append("")
        lines.append("Inputs:")
        lines += s.inputs.map { "  " + tensorLine($0) }
        lines.append("Outputs:")
        lines += s.outputs.map { "  " + tensorLine($0) }
        lines.append("")
        lines.append("Operator counts:")
        for (name, count) in s.operatorCounts.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
            lines.append("  \(pad(name, 32)) \(count)")
        }
        lines.append("")
        lines.append("Operators:")
        for op in s.operators {
            let options = op.optionOrder.compactMap { key in op.options[key].map { "\(key)=\($0)" } }.joined(separator: " ")
            var line = "  \(pad(String(op.index), 4)) \(pad(op.op, 28)) in \(op.inputs) out \(op.outputs)"
            if !options.isEmpty { line += "  " + options }
            if op.macs > 0 { line += "  MACs=\(count(op.macs))" }
            lines.append(line)
        }
        if let tensors = s.tensors {
            lines.append("")
            lines.append("Tensors:")
            lines.append("  \(pad("#", 5)) \(pad("type", 8)) \(pad("shape", 20)) \(pad("const bytes", 12)) name / quantization")
            for tensor in tensors {
                var line = "  \(pad(String(tensor.index), 5)) \(pad(tensor.type, 8)) \(pad(shape(tensor.shape), 20)) "
                line += "\(pad(tensor.constantBytes > 0 ? String(tensor.constantBytes) : "-", 12)) \(tensor.name)"
                if let q = tensor.quantization { line += "  " + quantization(q) }
                if tensor.isSparse { line += "  sparse" }
                if tensor.isVariable { line += "  variable" }
                lines.append(line)
            }
        }
        lines.append("")
        lines.append("Estimated MACs: \(count(s.estimatedMACs)) (\(s.estimatedMACs))")
        if let arena = s.arenaBytes { lines.append("Arena: \(bytes(arena))") } else {
            lines.append("Arena: \(s.arenaNote ?? "unknown")")
        }
        lines.append("Unsupported operators: "
                     + (s.unsupportedOperators.isEmpty ? "none" : s.unsupportedOperators.joined(separator: ", ")))
        lines.append("")
        lines += metadataLines(s.metadata)
        return lines.joined(separator: "\n")
    }

    private func metadataLines(_ m: ModelSummary.MetadataSummary) -> [String] {
        var lines = ["Metadata:"]
        let fields: [(String, String?)] = [("name", m.name), ("version", m.version), ("author", m.author),
                                           ("license", m.license), ("description", m.description)]
        let present = fields.compactMap { key, value in value.map { "  \(key): \($0)" } }
        if present.isEmpty && m.labels.isEmpty && m.normalization.isEmpty && m.associatedFiles.isEmpty {
            return lines + ["  none"]
        }
        lines += present
        for unit in m.normalization {
            lines.append("  input \(unit.input) normalization: mean \(unit.mean) std \(unit.std)")
        }
        for threshold in m.scoreThresholds {
            lines.append("  output \(threshold.output) score threshold: \(threshold.threshold)")
        }
        if let output = m.labelsOutputIndex {
            let preview = m.labels.prefix(labelPreview).joined(separator: ", ")
            let locale = m.labelLocale.map { " (\($0))" } ?? ""
            lines.append("  output \(output) labels: \(m.labels.count)\(locale): \(preview)\(m.labels.count > labelPreview ? ", ..." : "")")
        } else {
            lines.append("  labels: none")
        }
        if !m.associatedFiles.isEmpty { lines.append("  associated files: \(m.associatedFiles.joined(separator: ", "))") }
        return lines
    }

    private func tensorLine(_ tensor: ModelSummary.TensorSummary) -> String {
        var line = "[\(tensor.index)] \(tensor.name)  \(shape(tensor.shape)) \(tensor.type)"
        if let signature = tensor.shapeSignature, signature != tensor.shape { line += " (signature \(shape(signature)))" }
        if let q = tensor.quantization { line += "  " + quantization(q) }
        return line
    }

    private func quantization(_ q: ModelSummary.QuantizationSummary) -> String {
        if q.scales.count == 1 { return "scale=\(q.scales[0]) zero_point=\(q.zeroPoints.first ?? 0)" }
        return "per-axis(dim \(q.quantizedDimension), \(q.scales.count) scales)"
    }

    private func shape(_ shape: [Int]) -> String {
        shape.isEmpty ? "[]" : shape.map(String.init).joined(separator: "x")
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private func bytes(_ count: Int) -> String {
        if count >= 1 << 20 { return "\(Double(count * 10 / (1 << 20)) / 10) MiB" }
        if count >= 1 << 10 { return "\(Double(count * 10 / (1 << 10)) / 10) KiB" }
        return "\(count) bytes"
    }

    private func count(_ value: Int) -> String {
        if value >= 1_000_000_000 { return "\(Double(value / 10_000_000) / 100) G" }
        if value >= 1_000_000 { return "\(Double(value / 10_000) / 100) M" }
        if value >= 1_000 { return "\(Double(value / 10) / 100) K" }
        return String(value)
    }
}
