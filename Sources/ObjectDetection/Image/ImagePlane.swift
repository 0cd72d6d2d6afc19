/// One validated plane of a pixel buffer: `rows` rows of `rowBytes` bytes starting at `offset`,
/// consecutive rows `bytesPerRow` apart.
struct ImagePlane: Sendable {
    /// Backing bytes (may be shared with other planes of the same buffer).
    let bytes: [UInt8]
    /// Index of the first byte of row 0.
    let offset: Int
    /// Distance between the starts of consecutive rows.
    let bytesPerRow: Int

    /// Validates that `bytes` holds `rows` rows of `rowBytes` bytes at the given stride.
    init(name: String, bytes: [UInt8], offset: Int = 0, bytesPerRow: Int, rowBytes: Int, rows: Int) throws {
        guard bytesPerRow >= rowBytes else {
            throw ImageError.invalidRowStride(plane: name, bytesPerRow: bytesPerRow, minimum: rowBytes)
        }
        guard offset >= 0 else {
            throw ImageError.invalidParameters("negative offset \(offset) for plane \(name)")
        }
        let (span, spanOverflow) = (rows - 1).multipliedReportingOverflow(by: bytesPerRow)
        let (end1, overflow1) = span.addingReportingOverflow(rowBytes)
        let (required, overflow2) = end1.addingReportingOverflow(offset)
        guard !spanOverflow, !overflow1, !overflow2 else {
            throw ImageError.bufferTooShort(plane: name, required: Int.max, actual: bytes.count)
        }
        guard bytes.count >= required else {
            throw ImageError.bufferTooShort(plane: name, required: required, actual: bytes.count)
        }
        self.bytes = bytes
        self.offset = offset
        self.bytesPerRow = bytesPerRow
    }

    /// Wraps a buffer already known to be a tightly packed plane (no validation).
    init(trustedBytes bytes: [UInt8], bytesPerRow: Int) {
        self.bytes = bytes
        self.offset = 0
        self.bytesPerRow = bytesPerRow
    }
}
