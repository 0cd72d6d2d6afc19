import Foundation
import TestSupport
import XCTest

/// A temporary folder of work items for batch tests: the sample photos and deliberately broken
/// files (truncated PNG, text named .png, empty file, a directory, a missing path).
struct BatchWorkItems {
    /// The folder holding the broken files (removed by ``remove()``).
    let directory: URL
    /// Paths of the sample photos (PNG).
    let photos: [String]
    /// Broken items with the error kind each must produce.
    let broken: [(path: String, kind: String)]

    /// Creates the folder; skips when the sample photos are absent.
    init() throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: TestPaths.imagesDirectory.path)) ?? []
        photos = names.filter { $0.hasSuffix(".png") }.sorted().map { TestPaths.imagesDirectory.appendingPathComponent($0).path }
        guard photos.count >= 3 else { throw TestEnvironment.missing("Models/images has no sample photos: run Scripts/fetch-models.sh") }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("litevision-batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let png = try Data(contentsOf: URL(fileURLWithPath: photos[0]))
        let truncated = directory.appendingPathComponent("truncated.png")
        try png.prefix(png.count / 3).write(to: truncated)
        let text = directory.appendingPathComponent("notes.png")
        try Data("these are not pixels\n".utf8).write(to: text)
        let empty = directory.appendingPathComponent("empty.png")
        try Data().write(to: empty)
        let folder = directory.appendingPathComponent("folder.png")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        broken = [(truncated.path, "invalidImage"), (text.path, "unsupportedFormat"), (empty.path, "invalidImage"),
                  (folder.path, "unreadable"), (directory.appendingPathComponent("missing.png").path, "notFound")]
    }

    /// `count` input lines cycling through photos and broken files (every fifth item broken,
    /// every other item in the `{"id", "path"}` form with a numeric id), plus one malformed JSON line.
    func lines(count: Int) -> [String] {
        var lines: [String] = []
        var photo = 0, bad = 0
        for k in 0..<count {
            let path: String
            if k % 5 == 4 { path = broken[bad % broken.count].path; bad += 1 } else { path = photos[photo % photos.count]; photo += 1 }
            lines.append(k % 2 == 0 ? path : "{\"id\": \(k), \"path\": \"\(path)\"}")
        }
        lines.insert("{\"id\": \"bad-line\", \"path\": 7}", at: min(3, lines.count))
        return lines
    }

    /// Deletes the folder.
    func remove() { try? FileManager.default.removeItem(at: directory) }
}
