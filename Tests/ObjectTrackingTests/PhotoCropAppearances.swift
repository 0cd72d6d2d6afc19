import Foundation
import ObjectTracking

/// Appearance descriptors of the objects in the sample photos: color histograms of the
/// jittered 16x16 crops in `Tests/Fixtures/tracking/photo_crops.json`
/// (written from Models/images by `Scripts/tracking_appearance.py`).
struct PhotoCropAppearances {
    /// Object name and one descriptor per jittered crop.
    let objects: [(name: String, crops: [AppearanceDescriptor])]
    /// Descriptors of random background windows (for false positives).
    let background: [AppearanceDescriptor]

    private struct File: Decodable {
        struct Object: Decodable { let name: String; let crops: [String] }
        let side: Int
        let objects: [Object]
        let background: [String]
    }

    static let fixtureURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/tracking/photo_crops.json").standardized

    static func load() throws -> PhotoCropAppearances {
        let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: fixtureURL))
        func descriptor(_ base64: String) throws -> AppearanceDescriptor {
            guard let data = Data(base64Encoded: base64),
                  let histogram = AppearanceDescriptor.colorHistogram(
                    pixels: [UInt8](data), width: file.side, height: file.side, bytesPerRow: file.side * 3, channels: 3,
                    region: BoundingBox(x: 0, y: 0, width: Double(file.side), height: Double(file.side)))
            else { throw CocoaError(.fileReadCorruptFile) }
            return histogram
        }
        return PhotoCropAppearances(
            objects: try file.objects.map { ($0.name, try $0.crops.map(descriptor)) },
            background: try file.background.map(descriptor))
    }
}
