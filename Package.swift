// swift-tools-version:6.0
import PackageDescription
import class Foundation.ProcessInfo

// Tuned builds are opt-in: `LITEVISION_TARGET_CPU=native swift build -c release`
// (or znver4, skylake-avx512, haswell, ...). The default manifest carries no
// unsafe flags, so the package stays usable as a dependency.
// The default build needs no flags to be fast: kernels are generated at run time for the CPU
// found (Sources/MachineCode). A tuned build only adds compiler-vectorized Swift kernels.
let targetCPU = ProcessInfo.processInfo.environment["LITEVISION_TARGET_CPU"]
let avx512CPUs: Set<String> = ["znver4", "znver5", "skylake-avx512", "icelake-server",
                               "icelake-client", "cascadelake", "cooperlake", "tigerlake",
                               "sapphirerapids", "cannonlake"]
/// Whether the build machine's CPU has the AVX-512 subsets the intrinsics kernels use (for
/// `native`, which must not imply AVX-512: the compiler crashes on AVX-512 intrinsics otherwise).
func buildMachineHasAVX512() -> Bool {
    guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
          let flags = info.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else { return false }
    let set = Set(flags.split(separator: " ").map(String.init))
    return ["avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512_vnni"].allSatisfy(set.contains)
}
// Internal invariant checks (`#if LITEVISION_INTERNAL_CHECKS`: the typed tensor views' element
// type and byte count, kernel entry preconditions): on in debug builds, and in any build made with
// `LITEVISION_INTERNAL_CHECKS=1` in the environment (CI's test run). A define, not an unsafe flag:
// the default release build has the checks compiled out.
let internalChecks: SwiftSetting = ProcessInfo.processInfo.environment["LITEVISION_INTERNAL_CHECKS"] == "1"
    ? .define("LITEVISION_INTERNAL_CHECKS")
    : .define("LITEVISION_INTERNAL_CHECKS", .when(configuration: .debug))
// The tuned flags apply to `TFLiteKernels` only. They keep `-O`: Swift 6.3.1 crashes in IR
// generation of `QuantizedGEMM.int8Quads` with `-Ounchecked` and any `-target-cpu` (znver3 and
// znver4 alike, checked on an AMD Zen 4 on 2026-11-28).
var kernelSettings: [SwiftSetting] = [internalChecks]
if let cpu = targetCPU, !cpu.isEmpty {
    kernelSettings.append(.unsafeFlags(["-target-cpu", cpu]))
    kernelSettings.append(.define("LITEVISION_TUNED"))
    if avx512CPUs.contains(cpu) || (cpu == "native" && buildMachineHasAVX512()) {
        kernelSettings.append(.define("LITEVISION_AVX512"))
    }
}

let package = Package(
    name: "LiteVision",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "TFLiteInterpreter", targets: ["TFLiteInterpreter"]),
        .library(name: "ObjectDetection", targets: ["ObjectDetection", "ImageCodecs", "ModelHosting"]),
        .library(name: "BatchDetection", targets: ["BatchDetection"]),
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
        .target(name: "MachineCode"),
        .target(name: "TFLiteKernels", dependencies: ["MachineCode"], swiftSettings: kernelSettings),
        .target(name: "TFLiteInterpreter", dependencies: ["FlatBufferReader", "TFLiteSchema", "TFLiteKernels"],
                swiftSettings: [internalChecks]),
        .target(name: "ObjectTracking"),
        .target(name: "ModelHosting", dependencies: ["TFLiteInterpreter"]),
        .target(name: "ObjectDetection", dependencies: ["TFLiteInterpreter", "TFLiteKernels", "ObjectTracking", "ModelHosting"]),
        .target(name: "ImageCodecs", dependencies: ["ObjectDetection", "CLibPNG", "CTurboJPEG"]),
        .target(name: "BatchDetection", dependencies: ["ObjectDetection", "ImageCodecs"]),
        // The command-line options of ResourceLimits, shared by the executables (not a library product).
        .target(name: "ResourceLimitOptions", dependencies: [
            "TFLiteSchema", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(name: "tflite-dump", dependencies: [
            "TFLiteInterpreter", "TFLiteKernels", "MachineCode", "ResourceLimitOptions",
            .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(name: "litevision", dependencies: [
            "ObjectDetection", "ImageCodecs", "ModelHosting", "TFLiteInterpreter", "BatchDetection", "ResourceLimitOptions",
            .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(name: "bench", dependencies: [
            "ObjectDetection", "ImageCodecs", "TFLiteInterpreter", "TFLiteKernels", "MachineCode", "BatchDetection",
            "ModelHosting",
            .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Benchmarks/bench"),

        .target(name: "TestSupport", dependencies: ["TFLiteInterpreter"], path: "Tests/TestSupport"),
        .testTarget(name: "FlatBufferReaderTests", dependencies: ["FlatBufferReader", "TestSupport"]),
        .testTarget(name: "TFLiteSchemaTests", dependencies: ["TFLiteSchema", "TestSupport"]),
        .testTarget(name: "MachineCodeTests", dependencies: ["MachineCode"]),
        .testTarget(name: "TFLiteKernelsTests", dependencies: ["TFLiteKernels", "MachineCode", "TestSupport"]),
        .testTarget(name: "TFLiteInterpreterTests", dependencies: ["TFLiteInterpreter", "TestSupport"],
                    swiftSettings: [internalChecks]),
        .testTarget(name: "ObjectTrackingTests", dependencies: ["ObjectTracking", "TestSupport"]),
        .testTarget(name: "ModelHostingTests", dependencies: ["ModelHosting", "TestSupport"]),
        .testTarget(name: "ObjectDetectionTests", dependencies: ["ObjectDetection", "ImageCodecs", "ModelHosting", "ObjectTracking", "TestSupport"]),
        .testTarget(name: "ImageCodecsTests", dependencies: ["ImageCodecs", "TestSupport"]),
        .testTarget(name: "BatchDetectionTests", dependencies: ["BatchDetection", "ObjectDetection", "ImageCodecs", "TestSupport"]),
        .testTarget(name: "ResourceLimitOptionsTests", dependencies: [
            "ResourceLimitOptions", "TFLiteSchema", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
    ],
    swiftLanguageModes: [.v6]
)
