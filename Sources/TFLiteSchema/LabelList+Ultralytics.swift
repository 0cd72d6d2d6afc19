extension LabelList {
    /// Largest class index accepted from a `names` mapping.
    static let maxNamedClass = 100_000

    /// Class names from the metadata file the Ultralytics exporter packs into YOLO models
    /// (`temp_meta.txt`, declared as axis labels): one Python dict literal whose `names`
    /// entry maps class indices to names, e.g. `{..., 'names': {0: 'person', 1: 'bicycle'}}`.
    /// Nil when `text` has no such mapping.
    public init?(ultralyticsMetadata text: String) {
        let scalars = Array(text.unicodeScalars)
        guard let keyEnd = LabelList.find(Array("'names'".unicodeScalars), in: scalars)
                ?? LabelList.find(Array("\"names\"".unicodeScalars), in: scalars) else { return nil }
        var index = keyEnd
        func skipSpaces() { while index < scalars.count, scalars[index] == " " || scalars[index] == "\n" { index += 1 } }
        skipSpaces()
        guard index < scalars.count, scalars[index] == ":" else { return nil }
        index += 1; skipSpaces()
        guard index < scalars.count, scalars[index] == "{" else { return nil }
        index += 1
        var entries: [(Int, String)] = []
        while true {
            skipSpaces()
            guard index < scalars.count else { return nil }
            if scalars[index] == "}" { break }
            if scalars[index] == "," { index += 1; continue }
            var number = 0, digits = 0
            while index < scalars.count, let digit = scalars[index].properties.numericType == .decimal
                    ? Int(String(scalars[index])) : nil, digits < 7 {
                number = number * 10 + digit; digits += 1; index += 1
            }
            guard digits > 0, number <= LabelList.maxNamedClass else { return nil }
            skipSpaces()
            guard index < scalars.count, scalars[index] == ":" else { return nil }
            index += 1; skipSpaces()
            guard index < scalars.count, scalars[index] == "'" || scalars[index] == "\"" else { return nil }
            let quote = scalars[index]
            index += 1
            var name = String.UnicodeScalarView()
            while index < scalars.count, scalars[index] != quote {
                if scalars[index] == "\\", index + 1 < scalars.count { index += 1 }
                name.append(scalars[index]); index += 1
            }
            guard index < scalars.count else { return nil }
            index += 1
            entries.append((number, String(name)))
        }
        guard !entries.isEmpty else { return nil }
        var labels = [String](repeating: "", count: (entries.map(\.0).max() ?? 0) + 1)
        for (number, name) in entries { labels[number] = name }
        self.init(labels: labels)
    }

    /// Position just after the first occurrence of `needle` in `haystack`.
    private static func find(_ needle: [Unicode.Scalar], in haystack: [Unicode.Scalar]) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return start + needle.count }
        }
        return nil
    }
}
