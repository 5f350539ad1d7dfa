import IAPCore

/// A value of the catalog file (or a key) holding a control character.
public struct ControlCharacterValue: Sendable {
    public var scalar: Unicode.Scalar
    public var location: SourceLocation
    /// Where the value sits, when the walk from the top reaches it (a key has its mapping's path).
    public var path: CatalogPath?
    public var isKey: Bool
}

extension Catalog {
    /// Whether App Store Connect's texts (and XML, which XLIFF and property lists are) can hold `scalar`: no control
    /// character but tab and the line breaks, and not U+FFFE or U+FFFF.
    public static func isControlCharacter(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r") || (0x7F...0x9F).contains(scalar.value)
            || scalar.value == 0xFFFE || scalar.value == 0xFFFF
    }

    /// The bytes a control character's UTF-8 starts with, by byte: every byte of every scalar of the file is looked
    /// up here, where four comparisons per byte cost lint a fortieth of its time.
    private static let mayStartControlCharacter: [Bool] = (0...255).map { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xEF }

    /// Every value and key of the catalog file holding a control character, in file order. One pass over the text
    /// finds them; the paths are walked to only when there is one.
    public func valuesWithControlCharacters() -> [ControlCharacterValue] {
        guard let document else { return [] }
        let nodes = document.nodes
        var found: [(node: YAMLDocument.NodeID, scalar: Unicode.Scalar)] = []
        let mayStart = Self.mayStartControlCharacter
        for index in 0..<nodes.records.count {
            let record = nodes.records[index]
            guard record.kind == .scalar else { continue }
            let bytes = UnsafeBufferPointer(start: nodes.text + Int(record.start), count: Int(record.count))
            guard bytes.contains(where: { mayStart[Int($0)] }) else { continue }
            let node = YAMLDocument.NodeID(index: Int32(index))
            if let scalar = nodes.string(node).unicodeScalars.first(where: Self.isControlCharacter) { found.append((node, scalar)) }
        }
        guard !found.isEmpty else { return [] }
        let paths = Self.paths(in: document, to: Set(found.map(\.node)))
        return found.map { node, scalar in
            ControlCharacterValue(
                scalar: scalar, location: SourceLocation(file: file, line: document.line(node), column: document.column(node)),
                path: paths[node]?.path, isKey: paths[node]?.isKey ?? false)
        }
    }

    /// The path of each of `targets`, from a walk that visits each node once (aliases share nodes).
    private static func paths(
        in document: YAMLDocument, to targets: Set<YAMLDocument.NodeID>
    )
        -> [YAMLDocument.NodeID: (path: CatalogPath, isKey: Bool)]
    {
        var result: [YAMLDocument.NodeID: (path: CatalogPath, isKey: Bool)] = [:]
        var visited = Set<YAMLDocument.NodeID>()
        var pending = [(document.root, CatalogPath.root)]
        while let (node, path) = pending.popLast(), result.count < targets.count {
            guard visited.insert(node).inserted else { continue }
            if targets.contains(node) { result[node] = (path, false) }
            let items = document.items(node)
            switch document.kind(node) {
            case .sequence:
                for (offset, item) in items.enumerated() { pending.append((item, path.index(offset))) }
            case .mapping:
                var offset = 0
                while offset + 1 < items.count {
                    let key = items[offset]
                    if targets.contains(key), result[key] == nil { result[key] = (path, true) }
                    pending.append((items[offset + 1], document.isScalar(key) ? path / document.string(key) : path))
                    offset += 2
                }
            case .scalar:
                break
            }
        }
        return result
    }
}
