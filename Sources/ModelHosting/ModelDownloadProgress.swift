/// A snapshot of a download's progress.
public struct ModelDownloadProgress: Sendable, Hashable {
    /// Bytes of the model file present so far (including bytes kept from an earlier, resumed attempt).
    public var completedBytes: Int64
    /// The model file's size from the manifest; 0 until the manifest has been read.
    public var totalBytes: Int64

    /// A snapshot.
    public init(completedBytes: Int64, totalBytes: Int64) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// `completedBytes / totalBytes` in 0...1 (0 while the size is unknown).
    public var fractionCompleted: Double {
        totalBytes > 0 ? min(1, Double(completedBytes) / Double(totalBytes)) : 0
    }
}
