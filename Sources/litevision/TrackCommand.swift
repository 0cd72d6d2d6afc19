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
            INPUT is a folder of PNG or JPEG frames (sorted by name), a YUV4MPEG2 file (.y4m), or - for \
            YUV4MPEG2 on standard input, e.g. `ffmpeg -i video.mp4 -f yuv4mpegpipe - | litevision track -`. \
            Always runs in stream mode; prints one line per frame.
            """)

    @Argument(help: "A folder of PNG or JPEG frames, a .y4m file, or - for y4m on stdin.")
    var input: String

    @OptionGroup var detection: DetectionOptionGroup

    @Flag(help: "Print one JSON object per frame: {\"frame\": n, \"objects\": [...]}.")
    var json = false

    @Option(help: "Frame rate of an image folder (y4m streams carry their own).")
    var fps: Double = 30

    @Option(help: "Write annotated frames into this directory.")
    var annotate: String?

    func run() async throws {
        guard detection.mode == .stream else { throw ValidationError("track needs --mode stream") }
        guard fps > 0 else { throw ValidationError("--fps must be positive") }
        let detector = try detection.makeDetector()
        let orientation = try detection.imageOrientation()
        let frames = try FrameSource(path: input, orientation: orientation)
        let framesPerSecond = frames.framesPerSecond ?? fps
        if let annotate { try FileManager.default.createDirectory(atPath: annotate, withIntermediateDirectories: true) }
        while let frame = try frames.nextFrame() {
            let (n, image) = (frame.index, frame.image)
            let objects = try detector.results(in: image, timestamp: Double(n) / framesPerSecond)
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
        }
    }
}

/// `{"frame": n, "objects": [...]}`.
struct FrameResultJSON: Encodable {
    var frame: Int
    var objects: [ObjectJSON]
}
