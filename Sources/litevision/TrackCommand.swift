import ArgumentParser
import Foundation
import ImageCodecs
import ObjectDetection

/// `litevision track`: track objects across the frames of a video.
struct TrackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Track objects across video frames.",
        discussion: """
            INPUT is a folder of PNG frames (sorted by name), a YUV4MPEG2 file (.y4m), or - for \
            YUV4MPEG2 on standard input, e.g. `ffmpeg -i video.mp4 -f yuv4mpegpipe - | litevision track -`. \
            Always runs in stream mode; prints one line per frame.
            """)

    @Argument(help: "A folder of PNG frames, a .y4m file, or - for y4m on stdin.")
    var input: String

    @OptionGroup var detection: DetectionOptionGroup

    @Flag(help: "Print one JSON object per frame: {\"frame\": n, \"objects\": [...]}.")
    var json = false

    @Option(help: "Frame rate of a PNG folder (y4m streams carry their own).")
    var fps: Double = 30

    @Option(help: "Write annotated frames into this directory.")
    var annotate: String?

    func run() async throws {
        guard detection.mode == .stream else { throw ValidationError("track needs --mode stream") }
        guard fps > 0 else { throw ValidationError("--fps must be positive") }
        let detector = try detection.makeDetector()
        let orientation = try detection.imageOrientation()
        let frames = try FrameSource(input: input, orientation: orientation, fps: fps)
        if let annotate { try FileManager.default.createDirectory(atPath: annotate, withIntermediateDirectories: true) }
        var n = 0
        while let (image, timestamp) = try frames.next() {
            let objects = try detector.results(in: image, timestamp: timestamp)
            if json {
                print(try jsonLine(FrameResultJSON(frame: n, objects: objects.map(ObjectJSON.init))))
            } else {
                print("frame \(n): \(objects.count) object\(objects.count == 1 ? "" : "s")")
                objects.forEach { print(describe($0)) }
            }
            if let annotate {
                try annotatedImage(image, objects)
                    .writePNG(to: (annotate as NSString).appendingPathComponent(String(format: "frame-%05d.png", n)))
            }
            n += 1
        }
    }
}

/// `{"frame": n, "objects": [...]}`.
struct FrameResultJSON: Encodable {
    var frame: Int
    var objects: [ObjectJSON]
}

/// Frames with timestamps from a PNG folder or a YUV4MPEG2 stream.
private final class FrameSource {
    private var pngPaths: [String] = []
    private var y4m: Y4MReader?
    private var index = 0
    private let fps: Double
    private let orientation: ImageOrientation

    init(input: String, orientation: ImageOrientation, fps: Double) throws {
        self.orientation = orientation
        var isDirectory: ObjCBool = false
        if input == "-" {
            y4m = try Y4MReader(fileHandle: .standardInput, orientation: orientation)
        } else if FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory), isDirectory.boolValue {
            pngPaths = try FileManager.default.contentsOfDirectory(atPath: input)
                .filter { $0.lowercased().hasSuffix(".png") }.sorted()
                .map { (input as NSString).appendingPathComponent($0) }
            guard !pngPaths.isEmpty else { throw ValidationError("no PNG frames in \(input)") }
        } else {
            y4m = try Y4MReader(path: input, orientation: orientation)
        }
        self.fps = y4m?.header.framesPerSecond ?? fps
    }

    func next() throws -> (VisionImage, Double)? {
        defer { index += 1 }
        let timestamp = Double(index) / fps
        if let y4m { return try y4m.nextFrame().map { ($0, timestamp) } }
        guard index < pngPaths.count else { return nil }
        return (try VisionImage(pngFile: pngPaths[index], orientation: orientation), timestamp)
    }
}
