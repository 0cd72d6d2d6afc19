import Foundation

/// Where the default detector finds its pinned models (`Scripts/fetch-models.sh` puts them in
/// `Models/`): `$LITEVISION_MODELS` when set, else `Models` in the current directory.
public enum DefaultModels {
    /// The directory holding `deeplabv3.tflite` and `efficientnet_lite0.tflite`.
    public static var directory: String {
        ProcessInfo.processInfo.environment["LITEVISION_MODELS"] ?? "Models"
    }
    /// The segmentation model behind the default "prominent objects" localizer.
    public static let localizerFileName = "deeplabv3.tflite"
    /// The ImageNet classifier behind the default coarse categories and the default
    /// localizer's activation-map objects (`EverydayObjectLocalizer`).
    public static let classifierFileName = "efficientnet_lite0.tflite"

    static func path(_ fileName: String, in directory: String) throws -> String {
        let path = (directory as NSString).appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: path) else {
            throw ObjectDetectionError.invalidResource(
                "default model \(path) is missing: run Scripts/fetch-models.sh (or set LITEVISION_MODELS)")
        }
        return path
    }
}
