import Foundation

extension ObjectLabel {
    /// The label as the command line and annotated images show it: its text (or
    /// `class <index>` without label names) and the confidence to 2 decimals, e.g. `Food 0.87`.
    public var caption: String {
        "\(text ?? "class \(index)") \(String(format: "%.2f", confidence))"
    }
}

extension DetectedObject {
    /// One human-readable line: tracking ID, box in whole pixels and every label's caption,
    /// e.g. `#3 [x 12 y 40 w 64 h 81] Food 0.87, Home good 0.10` (the text output of
    /// `litevision detect` and `track`, which indent it by two spaces).
    public var summary: String {
        let box = String(format: "[x %.0f y %.0f w %.0f h %.0f]", frame.minX, frame.minY, frame.width, frame.height)
        let id = trackingID.map { "#\($0) " } ?? ""
        return "\(id)\(box)" + (labels.isEmpty ? "" : " " + labels.map(\.caption).joined(separator: ", "))
    }
}
