import Foundation
import ImageCodecs
import ObjectDetection

/// Reads and decodes one work item's image file, classifying every failure as a
/// ``BatchItemError`` (never throwing anything else, never crashing on hostile files).
public struct ImageFileLoader: Sendable {
    /// Files larger than this are rejected before reading (default 256 MiB).
    public var maximumFileSize: Int
    /// Pixel-count limit applied before decoding allocates.
    public var limits: ImageLimits
    /// Orientation of the stored images.
    public var orientation: ImageOrientation
    /// JPEG files much larger than this (shorter side) decode at 1/2, 1/4 or 1/8 scale; the
    /// image records the reduction, so detections stay in the full photo's pixels
    /// (`ObjectDetector/preferredMinimumShortSide`). nil decodes at full scale.
    public var minimumShortSide: Int?

    /// Creates a loader.
    public init(maximumFileSize: Int = 256 << 20, limits: ImageLimits = .default, orientation: ImageOrientation = .up) {
        self.maximumFileSize = maximumFileSize
        self.limits = limits
        self.orientation = orientation
    }

    /// The decoded image at `path`.
    public func load(_ path: String) -> Result<VisionImage, BatchItemError> {
        let bytes: [UInt8]
        switch readFile(path) {
        case .success(let b): bytes = b
        case .failure(let error): return .failure(error)
        }
        guard ImageFileFormat(sniffing: bytes.prefix(ImageFileFormat.signatureLength)) != nil else {
            if bytes.isEmpty { return .failure(BatchItemError(.invalidImage, "\(path) is empty")) }
            return .failure(BatchItemError(.unsupportedFormat, "\(path) is neither a PNG nor a JPEG file"))
        }
        do {
            // JPEG files keep their EXIF orientation unless one was given.
            return .success(try VisionImage(imageData: bytes, orientation: orientation == .up ? nil : orientation,
                                            limits: limits, minimumShortSide: minimumShortSide))
        } catch {
            return .failure(BatchItemError(.invalidImage, "\(path): \(error)"))
        }
    }

    /// The whole file, or a classified read failure.
    private func readFile(_ path: String) -> Result<[UInt8], BatchItemError> {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return .failure(openFailure(path, errno)) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return .failure(ioFailure(path, errno)) }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            let what = (status.st_mode & S_IFMT) == S_IFDIR ? "a directory" : "not a regular file"
            return .failure(BatchItemError(.unreadable, "\(path) is \(what)"))
        }
        let size = Int(status.st_size)
        guard size <= maximumFileSize else {
            return .failure(BatchItemError(.fileTooLarge, "\(path) has \(size) bytes; the limit is \(maximumFileSize)"))
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, size - filled) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return .failure(ioFailure(path, errno)) }
            if n == 0 { break }   // the file shrank while being read: decode what is there
            filled += n
        }
        if filled < size { bytes.removeLast(size - filled) }
        return .success(bytes)
    }

    private func openFailure(_ path: String, _ code: Int32) -> BatchItemError {
        switch code {
        case ENOENT, ENOTDIR: return BatchItemError(.notFound, "no file at \(path)")
        case EACCES, EPERM: return BatchItemError(.unreadable, "\(path) is not readable: permission denied")
        default: return ioFailure(path, code)
        }
    }

    private func ioFailure(_ path: String, _ code: Int32) -> BatchItemError {
        BatchItemError(.unreadable, "cannot read \(path): \(String(cString: strerror(code)))")
    }
}
