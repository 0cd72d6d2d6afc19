// swift-tools-version:6.0
import PackageDescription
import class Foundation.ProcessInfo

// Tuned builds are opt-in: `LITEVISION_TARGET_CPU=native swift build -c release`
// (or znver4, skylake-avx512, haswell, ...). The default manifest carries no
// unsafe flags, so the package stays usable as a dependency.
let targetCPU = ProcessInfo.processInfo.environment["LITEVISION_TARGET_CPU"]
let avx512CPUs: Set<String> = ["native", "znver4", "znver5", "skylake-avx512", "icelake-server",
                               "icelake-client", "cascadelake", "cooperlake", "tigerlake",
                               "sapphirerapids", "cannonlake", "alderlake"]
var kernelSettings: [SwiftSetting] = []
if let cpu = targetCPU, !cpu.isEmpty {
    kernelSettings.append(.unsafeFlags(["-Ounchecked", "-target-cpu", cpu]))
    kernelSettings.append(.define("LITEVISION_TUNED"))
    if avx512CPUs.contains(cpu) { kernelSettings.append(.define("LITEVISION_AVX512")) }
}

let package = Package(
    name: "LiteVision",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "TFLiteInterpreter", targets: ["TFLiteInterpreter"]),
        .library(name: "ObjectDetection", targets: ["ObjectDetection", "ImageCodecs", "ModelHosting"]),
        .executable(name: "litevision", targets: ["litevision"]),
        .executable(name: "tflite-dump", targets: ["tflite-dump"]),
        .executable(name: "bench", targets: ["bench"]),
    ],
    dependencies: [
        // Executables only: the library products have no package dependencies.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .systemLibrary(name: "CLibPNG", path: "Sources/CLibPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .systemLibrary(name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev"]), .brew(["jpeg-turbo"])]),
        .target(name: "FlatBufferReader"),
        .target(name: "TFLiteSchema", dependencies: ["FlatBufferReader", "CZlib"]),
        .target(name: "TFLiteKernels", swiftSettings: kernelSettings),
        .target(name: "TFLiteInterpreter", dependencies: ["FlatBufferReader", "TFLiteSchema", "TFLiteKernels"],
                swiftSettings: kernelSettings),
        .target(name: "ObjectTracking"),
        .target(name: "ModelHosting", dependencies: ["TFLiteInterpreter"]),
        .target(name: "ObjectDetection", dependencies: ["TFLiteInterpreter", "TFLiteKernels", "ObjectTracking", "ModelHosting"],
                swiftSettings: kernelSettings),
        .target(name: "ImageCodecs", dependencies: ["ObjectDetection", "CLibPNG", "CTurboJPEG"]),
        .executableTarget(name: "tflite-dump", dependencies: [
            "TFLiteInterpreter", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(name: "litevision", dependencies: [
            "ObjectDetection", "ImageCodecs", "ModelHosting", "TFLiteInterpreter",
            .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(name: "bench", dependencies: [
            "ObjectDetection", "ImageCodecs", "TFLiteInterpreter",
            .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Benchmarks/bench"),

        .target(name: "TestSupport", dependencies: ["TFLiteInterpreter"], path: "Tests/TestSupport"),
        .testTarget(name: "FlatBufferReaderTests", dependencies: ["FlatBufferReader", "TestSupport"]),
        .testTarget(name: "TFLiteSchemaTests", dependencies: ["TFLiteSchema", "TestSupport"]),
        .testTarget(name: "TFLiteKernelsTests", dependencies: ["TFLiteKernels", "TestSupport"]),
        .testTarget(name: "TFLiteInterpreterTests", dependencies: ["TFLiteInterpreter", "TestSupport"]),
        .testTarget(name: "ObjectTrackingTests", dependencies: ["ObjectTracking", "TestSupport"]),
        .testTarget(name: "ModelHostingTests", dependencies: ["ModelHosting", "TestSupport"]),
        .testTarget(name: "ObjectDetectionTests", dependencies: ["ObjectDetection", "ImageCodecs", "ModelHosting", "ObjectTracking", "TestSupport"]),
        .testTarget(name: "ImageCodecsTests", dependencies: ["ImageCodecs", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
