import Foundation

/// The header of a `.npy` file: magic, version, and the Python-literal dictionary with
/// `descr`, `fortran_order` and `shape`. Every read is bounds-checked.
struct NumPyHeader {
    /// Element type from `descr`.
    let dataType: NumPyArray.DataType
    /// Shape from `shape`.
    let shape: [Int]
    /// Offset of the first data byte from the start of the file.
    let dataOffset: Int

    private static let magic: [UInt8] = [0x93, 0x4E, 0x55, 0x4D, 0x50, 0x59]  // \x93NUMPY

    /// Most dimensions accepted (NumPy's own limit is 64; TFLite models use at most 6).
    static let maximumRank = 64

    /// Parses the header at the start of `file`.
    init(parsing file: Data) throws {
        let bytes = [UInt8](file.prefix(12))
        guard bytes.count >= 10, Array(bytes[0..<6]) == Self.magic else { throw NumPyError.notNumPyFile }
        let major = bytes[6], minor = bytes[7]
        let headerLength: Int, headerStart: Int
        switch major {
        case 1:
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8
            headerStart = 10
        case 2, 3:
            guard bytes.count >= 12 else { throw NumPyError.malformedHeader("truncated header length") }
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
            headerStart = 12
        default:
            throw NumPyError.unsupportedVersion(major: major, minor: minor)
        }
        guard headerStart + headerLength <= file.count else {
            throw NumPyError.malformedHeader("header of \(headerLength) bytes runs past the end of the file")
        }
        let start = file.startIndex + headerStart
        guard let text = String(data: file[start..<(start + headerLength)], encoding: major == 3 ? .utf8 : .isoLatin1) else {
            throw NumPyError.malformedHeader("header is not text")
        }
        var parser = PythonLiteralParser(text)
        let dictionary = try parser.parseDictionary()
        guard case let .string(descr)? = dictionary["descr"] else { throw NumPyError.malformedHeader("missing 'descr'") }
        guard case let .bool(fortran)? = dictionary["fortran_order"] else {
            throw NumPyError.malformedHeader("missing 'fortran_order'")
        }
        guard case let .tuple(shape)? = dictionary["shape"] else { throw NumPyError.malformedHeader("missing 'shape'") }
        if fortran && shape.count > 1 { throw NumPyError.fortranOrder }
        guard shape.count <= Self.maximumRank else {
            throw NumPyError.malformedHeader("the shape has \(shape.count) dimensions, more than \(Self.maximumRank)")
        }
        guard TensorLayout.elementCount(shape) != nil else { throw NumPyError.invalidShape(shape) }
        dataType = try Self.dataType(descr)
        self.shape = shape
        dataOffset = headerStart + headerLength
    }

    /// The type for a `descr` string such as `<f4`, `|u1`, `?` or `b1`.
    static func dataType(_ descr: String) throws -> NumPyArray.DataType {
        if descr == "?" || descr == "|?" { return .bool }
        var code = Substring(descr)
        if let first = code.first, "<>|=".contains(first) { code = code.dropFirst() }
        guard let type = NumPyArray.DataType(rawValue: String(code)) else {
            throw NumPyError.unsupportedDataType(descr)
        }
        if descr.hasPrefix(">") && type.byteSize > 1 { throw NumPyError.unsupportedDataType(descr) }
        return type
    }

    /// Header bytes (magic through padding) for an array of `dataType` and `shape`; the
    /// data that follows starts at a multiple of 64 bytes.
    static func encode(dataType: NumPyArray.DataType, shape: [Int]) -> Data {
        let shapeText: String
        switch shape.count {
        case 0: shapeText = "()"
        case 1: shapeText = "(\(shape[0]),)"
        default: shapeText = "(" + shape.map(String.init).joined(separator: ", ") + ")"
        }
        let dictionary = "{'descr': '\(dataType.descriptor)', 'fortran_order': False, 'shape': \(shapeText), }"
        var prefixLength = 10
        var padded = Self.pad(dictionary, prefixLength: prefixLength)
        if padded.utf8.count > Int(UInt16.max) {
            prefixLength = 12
            padded = Self.pad(dictionary, prefixLength: prefixLength)
        }
        var bytes = Data(magic)
        let length = padded.utf8.count
        if prefixLength == 10 {
            bytes.append(contentsOf: [1, 0, UInt8(length & 0xFF), UInt8(length >> 8)])
        } else {
            bytes.append(contentsOf: [2, 0, UInt8(length & 0xFF), UInt8((length >> 8) & 0xFF),
                                      UInt8((length >> 16) & 0xFF), UInt8(length >> 24)])
        }
        bytes.append(contentsOf: Array(padded.utf8))
        return bytes
    }

    private static func pad(_ dictionary: String, prefixLength: Int) -> String {
        let unpadded = prefixLength + dictionary.utf8.count + 1
        let spaces = (64 - unpadded % 64) % 64
        return dictionary + String(repeating: " ", count: spaces) + "\n"
    }
}

/// A value in a `.npy` header dictionary.
enum PythonLiteral: Equatable {
    /// A quoted string.
    case string(String)
    /// `True` / `False`.
    case bool(Bool)
    /// A tuple of integers.
    case tuple([Int])
}

/// Parses the restricted Python dictionary literal of `.npy` headers.
struct PythonLiteralParser {
    private let characters: [Character]
    private var position = 0

    init(_ text: String) { characters = Array(text) }

    /// `{ 'key': value, ... }`.
    mutating func parseDictionary() throws -> [String: PythonLiteral] {
        skipSpaces()
        try expect("{")
        var result: [String: PythonLiteral] = [:]
        while true {
            skipSpaces()
            if peek() == "}" { position += 1; return result }
            let key = try parseString()
            skipSpaces()
            try expect(":")
            skipSpaces()
            result[key] = try parseValue()
            skipSpaces()
            if peek() == "," { position += 1 } else if peek() != "}" {
                throw NumPyError.malformedHeader("expected ',' or '}' at character \(position)")
            }
        }
    }

    private mutating func parseValue() throws -> PythonLiteral {
        switch peek() {
        case "'", "\"": return .string(try parseString())
        case "(": return .tuple(try parseTuple())
        case "T": try expectWord("True"); return .bool(true)
        case "F": try expectWord("False"); return .bool(false)
        default: throw NumPyError.malformedHeader("unexpected value at character \(position)")
        }
    }

    private mutating func parseString() throws -> String {
        guard let quote = peek(), quote == "'" || quote == "\"" else {
            throw NumPyError.malformedHeader("expected a string at character \(position)")
        }
        position += 1
        var text = ""
        while let c = peek(), c != quote { text.append(c); position += 1 }
        try expect(quote)
        return text
    }

    private mutating func parseTuple() throws -> [Int] {
        try expect("(")
        var values: [Int] = []
        while true {
            skipSpaces()
            if peek() == ")" { position += 1; return values }
            var digits = ""
            while let c = peek(), c.isASCII, c.isNumber { digits.append(c); position += 1 }
            if peek() == "L" { position += 1 }
            guard !digits.isEmpty, let value = Int(digits) else {
                throw NumPyError.malformedHeader("expected a dimension at character \(position)")
            }
            values.append(value)
            skipSpaces()
            if peek() == "," { position += 1 } else if peek() != ")" {
                throw NumPyError.malformedHeader("expected ',' or ')' at character \(position)")
            }
        }
    }

    private func peek() -> Character? { position < characters.count ? characters[position] : nil }

    private mutating func skipSpaces() {
        while let c = peek(), c == " " || c == "\n" || c == "\t" || c == "\r" { position += 1 }
    }

    private mutating func expect(_ c: Character) throws {
        guard peek() == c else { throw NumPyError.malformedHeader("expected '\(c)' at character \(position)") }
        position += 1
    }

    private mutating func expectWord(_ word: String) throws {
        for c in word { try expect(c) }
    }
}
