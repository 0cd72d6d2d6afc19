import CZlib

/// Raw-deflate decompression and CRC-32 through the system zlib.
enum ZipInflater {
    /// Inflates raw deflate data (no zlib header) that must expand to exactly `expectedSize` bytes.
    static func inflate(_ compressed: UnsafeRawBufferPointer, expectedSize: Int, name: String) throws -> [UInt8] {
        // One spare byte: zlib refuses a null output pointer, and it reveals data longer than declared.
        var output = [UInt8](repeating: 0, count: expectedSize + 1)
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw TFLiteSchemaError.invalidArchive("\(name): cannot initialize inflate")
        }
        defer { inflateEnd(&stream) }
        guard compressed.count <= Int(UInt32.max), expectedSize <= Int(UInt32.max) else {
            throw TFLiteSchemaError.invalidArchive("\(name): entry too large")
        }
        let status: Int32 = output.withUnsafeMutableBytes { target in
            stream.next_in = UnsafeMutablePointer(mutating: compressed.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(compressed.count)
            stream.next_out = target.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(target.count)
            return CZlib.inflate(&stream, Z_FINISH)
        }
        guard status == Z_STREAM_END, Int(stream.total_out) == expectedSize else {
            throw TFLiteSchemaError.invalidArchive(
                "\(name): deflate data is corrupt or does not expand to \(expectedSize) bytes (zlib status \(status))")
        }
        output.removeLast()
        return output
    }

    /// CRC-32 of `bytes` (ZIP polynomial).
    static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        return UInt32(CZlib.crc32(0, base.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
    }
}
