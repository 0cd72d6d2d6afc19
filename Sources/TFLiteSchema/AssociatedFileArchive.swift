import FlatBufferReader

/// The ZIP archive of associated files (label lists, vocabularies) appended to a model by
/// the metadata writer. Parsed from the end-of-central-directory record; stored and deflated
/// entries; every local header must agree with its central-directory entry, entries may not
/// overlap, names may not escape (`..`, absolute paths, NUL), and the entry count, each
/// entry's size and the total size are capped (``ResourceLimits``) before anything is inflated.
public enum AssociatedFileArchive {
    /// Most entries accepted.
    public static let maxEntries = 4096

    private static let endRecordSignature: UInt32 = 0x0605_4B50
    private static let centralSignature: UInt32 = 0x0201_4B50
    private static let localSignature: UInt32 = 0x0403_4B50
    private static let endRecordSize = 22
    private static let centralHeaderSize = 46
    private static let localHeaderSize = 30

    /// The files of the archive at the end of `bytes`; empty when there is no archive.
    public static func files(in bytes: [UInt8], limits: ResourceLimits = .default) throws -> [String: [UInt8]] {
        try read(storage: ByteStorage(copying: bytes), limits: limits)
    }

    /// The files of the archive at the end of `storage`; empty when there is no archive.
    static func read(storage: ByteStorage, limits: ResourceLimits = .default) throws -> [String: [UInt8]] {
        guard let end = findEndRecord(storage) else { return [:] }
        func u16(_ at: Int) throws -> Int { Int(try field(storage, UInt16.self, at)) }
        func u32(_ at: Int) throws -> Int { Int(try field(storage, UInt32.self, at)) }
        let disk = try u16(end + 4), centralDisk = try u16(end + 6)
        let diskEntries = try u16(end + 8), totalEntries = try u16(end + 10)
        let centralSize = try u32(end + 12), centralOffset = try u32(end + 16)
        guard disk == 0, centralDisk == 0, diskEntries == totalEntries else {
            throw TFLiteSchemaError.invalidArchive("multi-disk archives are not supported")
        }
        guard totalEntries != 0xFFFF, centralSize != 0xFFFF_FFFF, centralOffset != 0xFFFF_FFFF else {
            throw TFLiteSchemaError.invalidArchive("ZIP64 archives are not supported")
        }
        guard totalEntries <= maxEntries else {
            throw TFLiteSchemaError.invalidArchive("\(totalEntries) entries exceed the limit of \(maxEntries)")
        }
        // The archive may be preceded by the model: offsets are relative to its start.
        let centralStart = end - centralSize
        let base = centralStart - centralOffset
        guard centralStart >= 0, base >= 0 else {
            throw TFLiteSchemaError.invalidArchive("central directory (\(centralSize) bytes at \(centralOffset)) lies outside the file")
        }

        var entries: [Entry] = []
        var cursor = centralStart
        for index in 0..<totalEntries {
            let entry = try readCentralEntry(storage, at: cursor, base: base, index: index)
            guard entry.nextCentral <= end else {
                throw TFLiteSchemaError.invalidArchive("central directory entry \(index) overruns the directory")
            }
            cursor = entry.nextCentral
            entries.append(entry)
        }
        try checkNamesAndLayout(entries, centralStart: centralStart)

        var files: [String: [UInt8]] = [:]
        var total = 0
        for entry in entries {
            try ResourceLimitError.check(entry.uncompressedSize, limits.maximumArchiveEntryByteCount,
                                         limit: "maximumArchiveEntryByteCount", unit: "bytes",
                                         "entry \(entry.name) of the model's ZIP archive")
            total += entry.uncompressedSize
            try ResourceLimitError.check(total, limits.maximumArchiveByteCount, limit: "maximumArchiveByteCount",
                                         unit: "bytes", "the model's ZIP archive (uncompressed)")
        }
        for entry in entries { files[entry.name] = try extract(entry, storage: storage) }
        return files
    }

    /// One central-directory entry, with its local header already checked.
    private struct Entry {
        var name: String
        var method: Int
        var crc: UInt32
        var compressedSize: Int
        var uncompressedSize: Int
        /// Start of the local header.
        var localStart: Int
        /// Start and end of the stored data.
        var dataStart: Int
        var dataEnd: Int
        var nextCentral: Int
    }

    private static func field<T: FixedWidthInteger>(_ storage: ByteStorage, _ type: T.Type, _ at: Int) throws -> T {
        guard let value = storage.load(T.self, at: at) else {
            throw TFLiteSchemaError.invalidArchive("record at offset \(at) extends past the end of the file")
        }
        return value
    }

    /// The last end-of-central-directory record whose comment reaches exactly to the end.
    private static func findEndRecord(_ storage: ByteStorage) -> Int? {
        let count = storage.count
        guard count >= endRecordSize else { return nil }
        let lowest = Swift.max(0, count - endRecordSize - 0xFFFF)
        // Concrete little-endian reads on the bytes: this scan visits up to 64K positions of every
        // model without an archive, and the generic `ByteStorage.load` per position took ~3 ms.
        // Only the file's tail is read (a model read on demand reads no other page for it).
        let tail = storage.unsafeBytes(in: lowest..<count)
        var position = count - endRecordSize
        while position >= lowest {
            let at = position - lowest
            if UInt32(littleEndian: tail.loadUnaligned(fromByteOffset: at, as: UInt32.self)) == endRecordSignature {
                let comment = UInt16(littleEndian: tail.loadUnaligned(fromByteOffset: at + 20, as: UInt16.self))
                if position + endRecordSize + Int(comment) == count { return position }
            }
            position -= 1
        }
        return nil
    }

    private static func readCentralEntry(_ storage: ByteStorage, at position: Int, base: Int, index: Int) throws -> Entry {
        func u16(_ offset: Int) throws -> Int { Int(try field(storage, UInt16.self, position + offset)) }
        func u32(_ offset: Int) throws -> Int { Int(try field(storage, UInt32.self, position + offset)) }
        guard try field(storage, UInt32.self, position) == centralSignature else {
            throw TFLiteSchemaError.invalidArchive("central directory entry \(index) has a bad signature")
        }
        let flags = try u16(8), method = try u16(10)
        let crc = UInt32(try u32(16))
        let compressed = try u32(20), uncompressed = try u32(24)
        let nameLength = try u16(28), extraLength = try u16(30), commentLength = try u16(32)
        let localOffset = try u32(42)
        let nameStart = position + centralHeaderSize
        guard nameStart + nameLength <= storage.count else {
            throw TFLiteSchemaError.invalidArchive("central directory entry \(index) name extends past the end of the file")
        }
        let nameBytes = storage.copyBytes(in: nameStart..<(nameStart + nameLength))
        let name = String(decoding: nameBytes, as: UTF8.self)
        let label = "entry \(index) (\(name))"
        try checkName(nameBytes, label: label)
        guard flags & 1 == 0 else { throw TFLiteSchemaError.invalidArchive("\(label) is encrypted") }
        guard method == 0 || method == 8 else {
            throw TFLiteSchemaError.invalidArchive("\(label) uses unsupported compression method \(method)")
        }
        guard method == 8 || compressed == uncompressed else {
            throw TFLiteSchemaError.invalidArchive("\(label) is stored but sizes differ (\(compressed) vs \(uncompressed))")
        }

        // The local header must repeat the central directory's facts.
        let local = base + localOffset
        func l16(_ offset: Int) throws -> Int { Int(try field(storage, UInt16.self, local + offset)) }
        func l32(_ offset: Int) throws -> Int { Int(try field(storage, UInt32.self, local + offset)) }
        guard try field(storage, UInt32.self, local) == localSignature else {
            throw TFLiteSchemaError.invalidArchive("\(label) local header at \(local) has a bad signature")
        }
        let localNameLength = try l16(26), localExtraLength = try l16(28)
        let localNameStart = local + localHeaderSize
        guard localNameStart + localNameLength <= storage.count,
              storage.copyBytes(in: localNameStart..<(localNameStart + localNameLength)) == nameBytes else {
            throw TFLiteSchemaError.invalidArchive("\(label) local header name differs from the central directory")
        }
        guard try l16(8) == method else {
            throw TFLiteSchemaError.invalidArchive("\(label) local header method differs from the central directory")
        }
        if try l16(6) & 8 == 0 {
            guard UInt32(try l32(14)) == crc, try l32(18) == compressed, try l32(22) == uncompressed else {
                throw TFLiteSchemaError.invalidArchive("\(label) local header sizes or CRC differ from the central directory")
            }
        }
        let dataStart = localNameStart + localNameLength + localExtraLength
        let dataEnd = dataStart + compressed
        guard dataEnd <= storage.count else {
            throw TFLiteSchemaError.invalidArchive("\(label) data (\(compressed) bytes at \(dataStart)) extends past the end of the file")
        }
        return Entry(name: name, method: method, crc: crc, compressedSize: compressed, uncompressedSize: uncompressed,
                     localStart: local, dataStart: dataStart, dataEnd: dataEnd,
                     nextCentral: nameStart + nameLength + extraLength + commentLength)
    }

    /// Rejects empty, NUL-containing, absolute and `..` names.
    private static func checkName(_ bytes: [UInt8], label: String) throws {
        guard !bytes.isEmpty else { throw TFLiteSchemaError.invalidArchive("\(label) has an empty name") }
        guard !bytes.contains(0) else { throw TFLiteSchemaError.invalidArchive("\(label) name contains NUL") }
        guard bytes[0] != UInt8(ascii: "/"), bytes[0] != UInt8(ascii: "\\"),
              !(bytes.count >= 2 && bytes[1] == UInt8(ascii: ":")) else {
            throw TFLiteSchemaError.invalidArchive("\(label) has an absolute name")
        }
        let components = bytes.split(whereSeparator: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") })
        guard !components.contains(where: { Array($0) == Array("..".utf8) }) else {
            throw TFLiteSchemaError.invalidArchive("\(label) name contains '..'")
        }
    }

    /// Rejects duplicate names and entries that overlap each other or the central directory.
    private static func checkNamesAndLayout(_ entries: [Entry], centralStart: Int) throws {
        var seen = Set<String>()
        for entry in entries {
            guard seen.insert(entry.name).inserted else {
                throw TFLiteSchemaError.invalidArchive("duplicate entry name \(entry.name)")
            }
            guard entry.dataEnd <= centralStart else {
                throw TFLiteSchemaError.invalidArchive("entry \(entry.name) overlaps the central directory")
            }
        }
        let sorted = entries.sorted { $0.localStart < $1.localStart }
        for (previous, next) in zip(sorted, sorted.dropFirst()) where next.localStart < previous.dataEnd {
            throw TFLiteSchemaError.invalidArchive("entries \(previous.name) and \(next.name) overlap")
        }
    }

    private static func extract(_ entry: Entry, storage: ByteStorage) throws -> [UInt8] {
        let data = storage.unsafeBytes(in: entry.dataStart..<entry.dataEnd)
        let content: [UInt8]
        if entry.method == 0 {
            content = Array(data)
        } else {
            content = try ZipInflater.inflate(data, expectedSize: entry.uncompressedSize, name: entry.name)
        }
        let crc = content.withUnsafeBytes { ZipInflater.crc32($0) }
        guard crc == entry.crc else {
            throw TFLiteSchemaError.invalidArchive("entry \(entry.name) fails its CRC check")
        }
        return content
    }
}
