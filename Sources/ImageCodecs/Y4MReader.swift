import Foundation
import ObjectDetection

/// Reads YUV4MPEG2 (`.y4m`) video frame by frame from memory, a file, or a pipe such as
/// standard input (`ffmpeg -i video.mp4 -f yuv4mpegpipe - | litevision track -`).
///
/// Frames are returned as ``VisionImage`` values in planar YUV (`.i420` for the 4:2:0
/// colorspaces, `.i422`, `.i444`) or `.gray8` for `Cmono` (luma expanded to full range).
/// Memory use is one frame plus a 1 MiB read buffer.
public final class Y4MReader {
    /// The stream header.
    public let header: Y4MHeader
    /// Number of frames returned so far.
    public private(set) var frameIndex = 0
    private let stream: ByteStream
    private let orientation: ImageOrientation

    /// Longest accepted header or frame-header line.
    static let maxHeaderLength = 4096

    /// Reads a stream held in memory.
    public convenience init(data: [UInt8], orientation: ImageOrientation = .up, limits: ImageLimits = .default) throws {
        try self.init(stream: ByteStream(bytes: data), orientation: orientation, limits: limits)
    }

    /// Reads a stream from a file handle (a file, or a pipe such as `FileHandle.standardInput`).
    public convenience init(fileHandle: FileHandle, orientation: ImageOrientation = .up,
                            limits: ImageLimits = .default) throws {
        try self.init(stream: ByteStream(handle: fileHandle), orientation: orientation, limits: limits)
    }

    /// Opens a `.y4m` file.
    public convenience init(path: String, orientation: ImageOrientation = .up, limits: ImageLimits = .default) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ImageCodecError.fileAccess(path: path, reason: "cannot open for reading")
        }
        try self.init(stream: ByteStream(handle: handle), orientation: orientation, limits: limits)
    }

    init(stream: ByteStream, orientation: ImageOrientation, limits: ImageLimits) throws {
        self.stream = stream
        self.orientation = orientation
        let (line, complete) = try stream.readLine(maxLength: Self.maxHeaderLength)
        guard complete else {
            throw ImageCodecError.invalidY4M(line.isEmpty ? "empty stream" : "header line is unterminated or too long")
        }
        header = try Y4MHeader(line: line, limits: limits)
    }

    /// Reads the next frame; nil at the end of the stream.
    /// - Throws: ``ImageCodecError/invalidY4M(_:)`` for a bad frame header,
    ///   ``ImageCodecError/truncatedY4MFrame(frameIndex:expected:received:)`` when data ends mid-frame.
    public func nextFrame() throws -> VisionImage? {
        if try stream.isAtEnd() { return nil }
        let (line, complete) = try stream.readLine(maxLength: Self.maxHeaderLength)
        guard complete, line.count >= 5, Array(line[0..<5]) == Array("FRAME".utf8),
              line.count == 5 || line[5] == 0x20 else {
            throw ImageCodecError.invalidY4M("frame \(frameIndex) does not start with a FRAME header")
        }
        let expected = header.frameByteCount
        let bytes = try stream.read(count: expected)
        guard bytes.count == expected else {
            throw ImageCodecError.truncatedY4MFrame(frameIndex: frameIndex, expected: expected, received: bytes.count)
        }
        defer { frameIndex += 1 }
        let format = header.colorspace.pixelFormat
        if format == .gray8 {
            return try VisionImage(pixels: expandLuma(bytes), width: header.width, height: header.height,
                                   format: .gray8, orientation: orientation)
        }
        return try VisionImage(contiguousPlanarYUV: format, bytes: bytes, width: header.width, height: header.height,
                               range: header.colorRange, orientation: orientation)
    }

    /// Reads all remaining frames.
    public func readAllFrames() throws -> [VisionImage] {
        var frames = [VisionImage]()
        while let frame = try nextFrame() { frames.append(frame) }
        return frames
    }

    /// Maps video-range luma (16...235) to full-range gray; full-range luma is returned unchanged.
    private func expandLuma(_ luma: [UInt8]) -> [UInt8] {
        guard header.colorRange == .video else { return luma }
        let table = (0..<256).map { value -> UInt8 in
            let scaled = (Double(value) - 16) * 255 / 219
            return UInt8(min(255, max(0, scaled.rounded())))
        }
        return luma.map { table[Int($0)] }
    }
}
