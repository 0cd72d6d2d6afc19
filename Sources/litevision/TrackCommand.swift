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

    @OptionGroup var tracking: TrackingOptionGroup

    @Flag(help: "Print one JSON object per frame: {\"frame\": n, \"objects\": [...]}.")
    var json = false

    @Option(help: "Frame rate of an image folder (y4m streams carry their own).")
    var fps: Double = 30

    @Option(help: "Write annotated frames into this directory.")
    var annotate: String?

    func run() async throws {
        guard detection.mode == .stream else { throw ValidationError("track needs --mode stream") }
        guard fps > 0 else { throw ValidationError("--fps must be positive") }
        let detector = try detection.makeDetector(tracking: tracking)
        let orientation = try detection.imageOrientation()
        // JPEG frames much larger than the models need decode at a reduced scale (as `detect`
        // does); the detector still reports boxes in full-frame pixels.
        let frames = try FrameSource(path: input, orientation: orientation, limits: detection.imageLimits,
                                     minimumShortSide: detector.preferredMinimumShortSide)
        let framesPerSecond = frames.framesPerSecond ?? fps
        if let annotate { try FileManager.default.createDirectory(atPath: annotate, withIntermediateDirectories: true) }
        while let frame = try frames.nextFrame() {
            let (n, image) = (frame.index, frame.image)
            let objects = try detector.results(in: image, timestamp: Double(n) / framesPerSecond)
            if json {
                print(try DetectionJSON.line(FrameDetectionRecord(frame: n, objects: objects)))
            } else {
                print("frame \(n): \(objects.count) object\(objects.count == 1 ? "" : "s")")
                objects.forEach { print("  " + $0.summary) }
            }
            if let annotate {
                // Boxes are in full-frame pixels: draw them on the full-size decode.
                var full = image
                if image.reducedScaleSource != nil, let name = frame.name {
                    full = try VisionImage(contentsOf: (input as NSString).appendingPathComponent(name),
                                           orientation: orientation == .up ? nil : orientation, limits: detection.imageLimits)
                }
                try full.annotated(with: objects)
                    .writePNG(to: (annotate as NSString).appendingPathComponent(String(format: "frame-%05d.png", n)))
            }
        }
    }
}

/// How `track` keeps IDs: the lost-track window, class-aware matching, re-identification.
struct TrackingOptionGroup: ParsableArguments {
    @Option(help: "Seconds a lost object keeps its ID and can be re-identified when it comes back.")
    var trackingWindow: Double = 2

    @Option(help: "Frames a lost object keeps its ID (the longer of this and --tracking-window applies).")
    var trackingWindowFrames: Int = 10

    @Flag(inversion: .prefixedNo, help: "Class-aware matching: re-identify only within a detector class, prefer same-class matches.")
    var classAware = true

    @Option(help: "Smallest appearance similarity (0...1) for giving a returning object its old ID.")
    var reidThreshold: Double = 0.8

    @Flag(inversion: .prefixedNo, help: "Compensate camera motion (pans) measured between frames.")
    var cameraMotion = true

    /// Checks the values.
    func validate() throws {
        guard trackingWindow.isFinite, trackingWindow >= 0 else { throw ValidationError("--tracking-window must be 0 or more seconds") }
        guard trackingWindowFrames >= 0 else { throw ValidationError("--tracking-window-frames must be 0 or more") }
        guard (0...1).contains(reidThreshold) else { throw ValidationError("--reid-threshold must be within 0...1") }
    }

    /// Copies the settings into detector options.
    func apply(to options: inout ObjectDetectorOptions) {
        options.trackingWindowSeconds = trackingWindow
        options.maxMissedFrames = trackingWindowFrames
        options.isClassAwareTracking = classAware
        options.reidentificationThreshold = reidThreshold
        options.compensatesCameraMotion = cameraMotion
    }

    /// Copies the settings into detector options.
    func apply(to options: inout CustomObjectDetectorOptions) {
        options.trackingWindowSeconds = trackingWindow
        options.maxMissedFrames = trackingWindowFrames
        options.isClassAwareTracking = classAware
        options.reidentificationThreshold = reidThreshold
        options.compensatesCameraMotion = cameraMotion
    }
}
