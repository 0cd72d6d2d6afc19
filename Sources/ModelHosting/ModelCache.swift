import Foundation

/// The on-disk cache of downloaded models, laid out per model name and version:
///
///     {cache}/{name}/current.json              pointer to the installed version (DownloadedModelRecord)
///     {cache}/{name}/{version}/{sha16}.tflite  verified model files
///     {cache}/{name}/.partial-{sha256}         download in progress (resumable), never served
///     {cache}/{name}/.partial-{sha256}.json    its resume validator (ETag / Last-Modified, URL)
///     {cache}/{name}/.tmp-*                    temporary files of atomic writes
///     {cache}/{name}/.lock                     advisory lock held while the model's files change
///
/// A version becomes current only by the atomic rename of `current.json`, written after the
/// model file was verified, fsynced and renamed into its version directory. So after a crash at
/// any point the pointer names exactly the old or the new verified file; ``removeStaleFiles()``
/// deletes what a crash left behind (temporary files, unreferenced versions).
struct ModelCache: Sendable {
    /// The cache's root directory.
    let root: URL

    private static let recordFileName = "current.json"
    private static let partialPrefix = ".partial-"
    private static let temporaryPrefix = ".tmp-"
    private static let lockFileName = ".lock"

    func modelDirectory(_ name: String) -> URL {
        root.appendingPathComponent(name, isDirectory: true)
    }

    func recordURL(_ name: String) -> URL {
        modelDirectory(name).appendingPathComponent(ModelCache.recordFileName)
    }

    func partialURL(_ name: String, sha256: String) -> URL {
        modelDirectory(name).appendingPathComponent(ModelCache.partialPrefix + sha256)
    }

    func partialInfoURL(_ name: String, sha256: String) -> URL {
        modelDirectory(name).appendingPathComponent(ModelCache.partialPrefix + sha256 + ".json")
    }

    /// The installed record for `name`, if its pointer decodes and its file exists with the recorded size.
    func record(_ name: String) -> DownloadedModelRecord? {
        guard RemoteModel.isValidName(name),
              let data = FileManager.default.contents(atPath: recordURL(name).path),
              let record = try? ModelCache.decoder.decode(DownloadedModelRecord.self, from: data),
              record.name == name, isSafeRelativePath(record.relativePath)
        else { return nil }
        let path = filePath(of: record)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              (attributes[.size] as? NSNumber)?.intValue == record.size
        else { return nil }
        return record
    }

    /// Absolute path of a record's model file.
    func filePath(of record: DownloadedModelRecord) -> String {
        modelDirectory(record.name).appendingPathComponent(record.relativePath).path
    }

    /// All installed records, sorted by name.
    func allRecords() -> [DownloadedModelRecord] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.sorted().compactMap { record($0) }
    }

    /// Creates the model's directory if needed.
    func prepareDirectory(_ name: String) throws {
        do {
            try FileManager.default.createDirectory(at: modelDirectory(name), withIntermediateDirectories: true)
        } catch {
            throw ModelHostingError.fileSystem("cannot create \(modelDirectory(name).path): \(ModelHostingError.reason(error))")
        }
    }

    /// Makes the verified file at `verifiedPath` the current version of `manifest.name`:
    /// fsync file → rename into `{version}/` → fsync directories → atomically replace the
    /// pointer → remove the previous version. Returns the installed file's path.
    func install(verifiedPath: String, manifest: ModelManifest, host: URL, manifestETag: String?) throws -> String {
        let name = manifest.name
        let versionDirectory = modelDirectory(name).appendingPathComponent(manifest.version, isDirectory: true)
        let relativePath = manifest.version + "/" + String(manifest.sha256.prefix(16)) + ".tflite"
        let target = modelDirectory(name).appendingPathComponent(relativePath).path
        try DurableFileSystem.sync(verifiedPath)
        do {
            try FileManager.default.createDirectory(at: versionDirectory, withIntermediateDirectories: true)
        } catch {
            throw ModelHostingError.fileSystem("cannot create \(versionDirectory.path): \(ModelHostingError.reason(error))")
        }
        try DurableFileSystem.rename(verifiedPath, to: target)
        try DurableFileSystem.sync(versionDirectory.path)
        try DurableFileSystem.sync(modelDirectory(name).path)
        let record = DownloadedModelRecord(name: name, version: manifest.version, size: manifest.size,
                                           sha256: manifest.sha256, relativePath: relativePath,
                                           host: host.absoluteString, manifestETag: manifestETag,
                                           installedAt: Date())
        try writeRecord(record)
        removeStaleFiles(in: name)
        return target
    }

    /// Atomically replaces the pointer of `record.name`.
    func writeRecord(_ record: DownloadedModelRecord) throws {
        let data: Data
        do { data = try ModelCache.encoder.encode(record) } catch {
            throw ModelHostingError.fileSystem("cannot encode record: \(error)")
        }
        try DurableFileSystem.writeAtomically(data, to: recordURL(record.name).path)
    }

    /// Removes the model: first the pointer (atomically, so it is never half there), then its
    /// files. The directory and its lock file stay (removing a lock file others may wait on
    /// would let two holders in).
    func delete(_ name: String) throws {
        let directory = modelDirectory(name)
        let fileManager = FileManager.default
        guard fileManager.fileExists(atPath: directory.path) else { return }
        if fileManager.fileExists(atPath: recordURL(name).path) {
            do { try fileManager.removeItem(at: recordURL(name)) } catch {
                throw ModelHostingError.fileSystem("cannot remove \(recordURL(name).path): \(ModelHostingError.reason(error))")
            }
            try DurableFileSystem.sync(directory.path)
        }
        for entry in (try? fileManager.contentsOfDirectory(atPath: directory.path)) ?? [] where entry != ModelCache.lockFileName {
            do { try fileManager.removeItem(at: directory.appendingPathComponent(entry)) } catch {
                throw ModelHostingError.fileSystem("cannot remove \(directory.appendingPathComponent(entry).path): \(ModelHostingError.reason(error))")
            }
        }
    }

    /// Start-up cleanup for every model directory (see ``removeStaleFiles(in:)``), skipping
    /// models whose lock another manager holds (it is installing them right now).
    func removeStaleFiles() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        for name in names where RemoteModel.isValidName(name) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: modelDirectory(name).path, isDirectory: &isDirectory),
                  isDirectory.boolValue,
                  let lock = try? ModelDirectoryLock.tryAcquire(directory: modelDirectory(name))
            else { continue }
            removeStaleFiles(in: name)
            lock.release()
        }
    }

    /// Deletes what an interrupted install leaves: temporary files, version directories and
    /// model files the pointer does not name. Resumable partial downloads are kept.
    func removeStaleFiles(in name: String) {
        let fileManager = FileManager.default
        let directory = modelDirectory(name)
        let current = record(name)
        let entries = (try? fileManager.contentsOfDirectory(atPath: directory.path)) ?? []
        for entry in entries {
            let url = directory.appendingPathComponent(entry)
            if entry.hasPrefix(ModelCache.temporaryPrefix) {
                try? fileManager.removeItem(at: url)
                continue
            }
            if entry == ModelCache.recordFileName || entry.hasPrefix(ModelCache.partialPrefix) { continue }
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue,
                  RemoteModel.isValidName(entry)
            else { continue }
            guard let current, current.version == entry else {
                try? fileManager.removeItem(at: url)
                continue
            }
            let keep = (current.relativePath as NSString).lastPathComponent
            for file in (try? fileManager.contentsOfDirectory(atPath: url.path)) ?? [] where file != keep {
                try? fileManager.removeItem(at: url.appendingPathComponent(file))
            }
        }
    }

    /// Removes partial downloads of `name` other than the one for `keepSHA256`.
    func removePartials(of name: String, except keepSHA256: String) {
        let directory = modelDirectory(name)
        let keep = [ModelCache.partialPrefix + keepSHA256, ModelCache.partialPrefix + keepSHA256 + ".json"]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        where entry.hasPrefix(ModelCache.partialPrefix) && !keep.contains(entry) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(entry))
        }
    }

    private func isSafeRelativePath(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { RemoteModel.isValidName(String($0)) }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
