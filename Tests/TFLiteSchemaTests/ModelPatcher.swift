import FlatBufferReader
import TFLiteSchema

/// Finds byte positions inside a real model (with the FlatBuffer reader) and overwrites
/// them, to build hostile variants of real files.
struct ModelPatcher {
    var bytes: [UInt8]
    private let root: FlatTable

    init(_ bytes: [UInt8]) throws {
        self.bytes = bytes
        root = try FlatBuffer(storage: ByteStorage(copying: bytes), limits: nil).rootTable()
    }

    /// Position of the root table.
    var rootPosition: Int { root.position }

    func subgraph(_ index: Int = 0) throws -> FlatTable { try root.vector(2, elementSize: 4)!.table(at: index) }
    func op(_ index: Int, subgraph: Int = 0) throws -> FlatTable {
        try self.subgraph(subgraph).vector(3, elementSize: 4)!.table(at: index)
    }
    func tensor(_ index: Int, subgraph: Int = 0) throws -> FlatTable {
        try self.subgraph(subgraph).vector(0, elementSize: 4)!.table(at: index)
    }
    func buffer(_ index: Int) throws -> FlatTable { try root.vector(4, elementSize: 4)!.table(at: index) }

    /// Position of the length word of vector field `field` of `table`.
    func vectorLengthPosition(_ table: FlatTable, field: Int) throws -> Int {
        try table.vector(field, elementSize: 1)!.elementsStart - 4
    }
    /// Position of element `index` of the `[int]` field `field` of `table`.
    func int32ElementPosition(_ table: FlatTable, field: Int, index: Int) throws -> Int {
        try table.vector(field, elementSize: 4)!.position(of: index)
    }
    /// Position of scalar field `field` of `table`, which must be present.
    func scalarPosition(_ table: FlatTable, field: Int, size: Int) throws -> Int {
        try table.fieldPosition(field, size: size)!
    }

    mutating func write(_ value: Int32, at position: Int) {
        withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(position..<(position + 4), with: $0) }
    }
    mutating func write(_ value: UInt32, at position: Int) { write(Int32(bitPattern: value), at: position) }
}
