import FlatBufferReader

enum AssociatedFileArchive {
    static func read(storage: ByteStorage) throws -> [String: [UInt8]] { [:] }
}
