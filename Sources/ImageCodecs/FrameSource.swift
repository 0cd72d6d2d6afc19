import Foundation
import ObjectDetection

/// Video frames for tracking from one of three inputs: a folder of PNG or JPEG frames
/// (sorted by file name, recognised from their bytes), a YUV4MPEG2 file, or `-` for YUV4MPEG2 on standard input
/// (`ffmpeg -i clip.mp4 -f yuv4mpegpipe - | litevision track -`).
public final class FrameSource {
    /// One frame and where it came from.
    public struct Frame: Sendable {
        /// Zero-based frame number.
        public var index: Int
        /// The image file name for folder inputs; nil for video streams.
        public var name: String?
        /// The frame.
        public var image: VisionImage
    }

    private enum Input {
        case imageFiles(folder: String, names: [String])
        case y4m(Y4MReader)
    }

    private let input: Input
    private let orientation: ImageOrientation
    private let limits: ImageLimits
    private let minimumShortSide: Int?
    private var nextIndex = 0

    /// Frames per second when the input states it (YUV4MPEG2 `F` parameter).
    public var framesPerSecond: Double? {
        if case let .y4m(reader) = input { return reader.header.framesPerSecond }
        return nil
    }

    /// Number of frames when known in advance (image folders).
    public var frameCount: Int? {
        if case let .imageFiles(_, names) = input { return names.count }
        return nil
    }

    /// Opens `path`: `-` reads YUV4MPEG2 from standard input, a directory yields its PNG and
    /// JPEG files (recognised from their first bytes, whatever their names) in name order,
    /// any other path is read as a YUV4MPEG2 file. Frames keep their EXIF orientation unless
    /// `orientation` is other than `.up`.
    ///
    /// `minimumShortSide` (`ObjectDetector.preferredMinimumShortSide`) lets JPEG frames of a
    /// folder decode at a reduced scale (1/2, 1/4, 1/8) that keeps their shorter side at least
    /// this long, as `detect` does for photos: the frame's ``VisionImage/reducedScaleSource``
    /// records the full size, so `ObjectDetector` still reports boxes in full-frame pixels.
    /// PNG and YUV4MPEG2 frames always come at full size. nil (default) decodes at full size.
    /// - Throws: ``ImageCodecError`` when the input cannot be opened, a folder has no PNG
    ///   or JPEG files, or the stream header is invalid.
    public init(path: String, orientation: ImageOrientation = .up, limits: ImageLimits = .default,
                minimumShortSide: Int? = nil) throws {
        self.orientation = orientation
        self.limits = limits
        self.minimumShortSide = minimumShortSide
        if path == "-" {
            input = .y4m(try Y4MReader(fileHandle: .standardInput, orientation: orientation, limits: limits))
            return
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ImageCodecError.fileAccess(path: path, reason: "no such file or directory")
        }
        if isDirectory.boolValue {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: path)
                    .filter { !$0.hasPrefix(".") && Self.isImageFile((path as NSString).appendingPathComponent($0)) }
                    .sorted()
            } catch {
                throw ImageCodecError.fileAccess(path: path, reason: "\(error)")
            }
            guard !names.isEmpty else {
                throw ImageCodecError.fileAccess(path: path, reason: "folder contains no PNG or JPEG frames")
            }
            input = .imageFiles(folder: path, names: names)
        } else {
            input = .y4m(try Y4MReader(path: path, orientation: orientation, limits: limits))
        }
    }

    /// True when the file at `path` starts with a PNG or JPEG signature.
    private static func isImageFile(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: ImageFileFormat.signatureLength)) ?? Data()
        return ImageFileFormat(sniffing: [UInt8](head)) != nil
    }

    /// The next frame, or nil after the last one.
    public func nextFrame() throws -> Frame? {
        switch input {
        case let .imageFiles(folder, names):
            guard nextIndex < names.count else { return nil }
            let name = names[nextIndex]
            let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
            let image: VisionImage
            do {
                image = try VisionImage(contentsOf: path, orientation: orientation == .up ? nil : orientation, limits: limits,
                                        minimumShortSide: minimumShortSide)
            } catch let error as ImageCodecError {
                guard case .fileAccess = error else {
                    throw ImageCodecError.fileAccess(path: path, reason: "frame \(nextIndex): \(error)")
                }
                throw error
            }
            defer { nextIndex += 1 }
            return Frame(index: nextIndex, name: name, image: image)
        case let .y4m(reader):
            guard let image = try reader.nextFrame() else { return nil }
            defer { nextIndex += 1 }
            return Frame(index: nextIndex, name: nil, image: image)
        }
    }
}

/// The frames of a ``FrameSource`` as an `AsyncSequence`, read on demand (each `next()` reads
/// one frame synchronously, so a slow consumer never makes frames pile up in memory):
///
///     for try await frame in FrameSequence(path: "clip.y4m") { ... }
public struct FrameSequence: AsyncSequence, Sendable {
    /// The element type.
    public typealias Element = FrameSource.Frame

    /// Input path (see ``FrameSource/init(path:orientation:limits:minimumShortSide:)``).
    public let path: String
    /// Orientation given to every frame.
    public let orientation: ImageOrientation
    /// Size limits.
    public let limits: ImageLimits
    /// Reduced-scale decoding of JPEG frames (see ``FrameSource/init(path:orientation:limits:minimumShortSide:)``).
    public let minimumShortSide: Int?

    /// Describes the frames of `path`; the input is opened when iteration starts.
    public init(path: String, orientation: ImageOrientation = .up, limits: ImageLimits = .default,
                minimumShortSide: Int? = nil) {
        self.path = path
        self.orientation = orientation
        self.limits = limits
        self.minimumShortSide = minimumShortSide
    }

    /// Opens the input on the first call to `next()`.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let sequence: FrameSequence
        var source: FrameSource?
        var finished = false

        /// The next frame; nil at the end; throws ``ImageCodecError`` for unreadable input.
        public mutating func next() async throws -> FrameSource.Frame? {
            guard !finished else { return nil }
            do {
                if source == nil {
                    source = try FrameSource(path: sequence.path, orientation: sequence.orientation, limits: sequence.limits,
                                             minimumShortSide: sequence.minimumShortSide)
                }
                guard let frame = try source?.nextFrame() else {
                    finished = true
                    return nil
                }
                return frame
            } catch {
                finished = true
                throw error
            }
        }
    }

    /// Creates an iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(sequence: self)
    }
}
