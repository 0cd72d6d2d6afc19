import Foundation

/// An n-dimensional array in NumPy's `.npy` format: element type, shape and the raw
/// little-endian, row-major (C order) bytes. Reads format versions 1, 2 and 3 and writes
/// version 1 (version 2 when the header needs it).
///
/// ```swift
/// let array = try NumPyArray(contentsOf: "input.npy")
/// try interpreter.copy(array.data, toInputAt: 0)
/// ```
public struct NumPyArray: Equatable, Sendable {
    /// Element type.
    public var dataType: DataType
    /// Shape; `[]` for a scalar.
    public var shape: [Int]
    /// Elements as little-endian bytes in C order; `elementCount * dataType.byteSize` bytes.
    public var data: Data

    /// Creates an array; the byte count must match the shape and type.
    public init(dataType: DataType, shape: [Int], data: Data) throws {
        guard let count = TensorLayout.elementCount(shape) else { throw NumPyError.invalidShape(shape) }
        let (bytes, overflow) = count.multipliedReportingOverflow(by: dataType.byteSize)
        guard !overflow, bytes == data.count else {
            throw NumPyError.dataSizeMismatch(expected: overflow ? -1 : bytes, actual: data.count)
        }
        self.dataType = dataType; self.shape = shape; self.data = data
    }

    /// Creates a float32 array from values.
    public init(shape: [Int], float32 values: [Float]) throws {
        try self.init(dataType: .float32, shape: shape,
                      data: values.withUnsafeBytes { Data($0) })
    }

    /// Number of elements.
    public var elementCount: Int { shape.reduce(1, *) }

    /// Reads a `.npy` file.
    public init(contentsOf path: String) throws {
        let bytes: Data
        do { bytes = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw NumPyError.unreadable("\(path): \(error.localizedDescription)")
        }
        try self.init(npyData: bytes)
    }

    /// Parses the bytes of a `.npy` file.
    public init(npyData: Data) throws {
        let header = try NumPyHeader(parsing: npyData)
        let payload = npyData.subdata(in: (npyData.startIndex + header.dataOffset)..<npyData.endIndex)
        try self.init(dataType: header.dataType, shape: header.shape, data: payload)
    }

    /// The array as `.npy` file bytes.
    public func npyData() -> Data {
        var bytes = NumPyHeader.encode(dataType: dataType, shape: shape)
        bytes.append(data)
        return bytes
    }

    /// Writes the array as a `.npy` file.
    public func write(to path: String) throws {
        try data.withUnsafeBytes { try Self.write(dataType: dataType, shape: shape, bytes: $0, to: path) }
    }

    /// Writes a `.npy` file of `dataType` and `shape` holding `bytes`, streamed from memory
    /// (no copy). Errors name the file and the system's reason (e.g. "No space left on device").
    public static func write(dataType: DataType, shape: [Int], bytes: UnsafeRawBufferPointer, to path: String) throws {
        guard let file = fopen(path, "wb") else {
            throw NumPyError.unwritable("\(path): \(String(cString: strerror(errno)))")
        }
        let header = NumPyHeader.encode(dataType: dataType, shape: shape)
        var failure: Int32 = 0
        let headerWritten = header.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        if headerWritten != header.count { failure = errno != 0 ? errno : EIO }
        if failure == 0, let base = bytes.baseAddress, !bytes.isEmpty, fwrite(base, 1, bytes.count, file) != bytes.count {
            failure = errno != 0 ? errno : EIO
        }
        if fclose(file) != 0 && failure == 0 { failure = errno != 0 ? errno : EIO }
        guard failure == 0 else {
            unlink(path)
            throw NumPyError.unwritable("\(path): \(String(cString: strerror(failure)))")
        }
    }

    /// The elements converted to `Double` (bools as 0/1), for comparisons and printing.
    public func doubleValues() -> [Double] {
        data.withUnsafeBytes { raw in
            (0..<elementCount).map { i in dataType.loadDouble(from: raw, at: i) }
        }
    }
}
