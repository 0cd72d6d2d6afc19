/// Writes small stored-entry ZIP archives for archive tests, with hooks to make them hostile.
struct ZipArchiveBuilder {
    struct Entry {
        var name: [UInt8]
        var data: [UInt8]
        /// Overrides the local-header offset recorded in the central directory.
        var recordedOffset: Int?
        /// Overrides the compressed/uncompressed size recorded in the central directory.
        var recordedSize: Int?
        /// Overrides the sizes in both the local header and the central directory.
        var claimedSize: Int?
        init(_ name: String, _ text: String) { self.name = Array(name.utf8); data = Array(text.utf8) }
        init(nameBytes: [UInt8], _ text: String) { name = nameBytes; data = Array(text.utf8) }
    }

    var entries: [Entry]

    /// The archive bytes; offsets are relative to the archive start (as appended to a model).
    func build() -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        func u16(_ v: Int, _ target: inout [UInt8]) { target += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
        func u32(_ v: Int, _ target: inout [UInt8]) { for shift in [0, 8, 16, 24] { target.append(UInt8((v >> shift) & 0xFF)) } }
        for entry in entries {
            let offset = out.count
            let crc = Int(Self.crc32(entry.data))
            u32(0x0403_4B50, &out); u16(20, &out); u16(0, &out); u16(0, &out); u16(0, &out); u16(0, &out)
            let localSize = entry.claimedSize ?? entry.data.count
            u32(crc, &out); u32(localSize, &out); u32(localSize, &out)
            u16(entry.name.count, &out); u16(0, &out); out += entry.name; out += entry.data
            let size = entry.recordedSize ?? entry.claimedSize ?? entry.data.count
            u32(0x0201_4B50, &central); u16(20, &central); u16(20, &central); u16(0, &central); u16(0, &central)
            u16(0, &central); u16(0, &central); u32(crc, &central); u32(size, &central); u32(size, &central)
            u16(entry.name.count, &central); u16(0, &central); u16(0, &central); u16(0, &central); u16(0, &central)
            u32(0, &central); u32(entry.recordedOffset ?? offset, &central); central += entry.name
        }
        let centralOffset = out.count
        out += central
        u32(0x0605_4B50, &out); u16(0, &out); u16(0, &out); u16(entries.count, &out); u16(entries.count, &out)
        u32(central.count, &out); u32(centralOffset, &out); u16(0, &out)
        return out
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}
