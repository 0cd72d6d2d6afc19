import FlatBufferReader

struct MetadataDecoder {
    let storage: ByteStorage
    let range: Range<Int>
    func decode() throws -> ModelMetadata? { nil }
}
