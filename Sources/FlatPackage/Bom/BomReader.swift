import IAPCore

/// Reads a Bom's Paths tree back into entries (the way `lsbom` does), for tests and `iapkit` checks.
public enum BomReader {
    public struct Listing: Sendable {
        public var entries: [BomEntry]
        /// Whether the leaves were in (parent id, name) order, which Apple's lsbom requires.
        public var isSorted: Bool
        public var variables: [String]
    }

    public static func read(_ data: [UInt8]) throws(IAPKitError) -> Listing {
        func fail(_ reason: String) -> IAPKitError { .malformed(location: SourceLocation(file: "Bom"), reason: reason) }
        func u32(_ offset: Int) throws(IAPKitError) -> UInt32 {
            guard offset >= 0, offset + 4 <= data.count else { throw fail("is truncated at byte \(offset)") }
            return data[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        func u16(_ offset: Int) throws(IAPKitError) -> UInt16 {
            guard offset >= 0, offset + 2 <= data.count else { throw fail("is truncated at byte \(offset)") }
            return UInt16(data[offset]) << 8 | UInt16(data[offset + 1])
        }
        guard data.count >= 32, Array(data[0..<8]) == Array("BOMStore".utf8) else { throw fail("does not start with BOMStore") }
        let indexOffset = Int(try u32(16)), varsOffset = Int(try u32(24))
        let blockCount = Int(try u32(indexOffset))
        var blocks: [(Int, Int)] = []
        for index in 0..<blockCount {
            blocks.append((Int(try u32(indexOffset + 4 + index * 8)), Int(try u32(indexOffset + 8 + index * 8))))
        }
        func block(_ index: UInt32) throws(IAPKitError) -> ArraySlice<UInt8> {
            guard Int(index) < blocks.count else { throw fail("refers to block \(index) of \(blocks.count)") }
            let (address, length) = blocks[Int(index)]
            guard address + length <= data.count else { throw fail("block \(index) lies past the end") }
            return data[address..<address + length]
        }
        var variables: [String: UInt32] = [:]
        var names: [String] = []
        var offset = varsOffset + 4
        for _ in 0..<Int(try u32(varsOffset)) {
            let index = try u32(offset)
            let length = Int(data[offset + 4])
            let name = String(decoding: data[(offset + 5)..<(offset + 5 + length)], as: UTF8.self)
            variables[name] = index
            names.append(name)
            offset += 5 + length
        }
        guard let pathsVariable = variables["Paths"] else { throw fail("has no Paths variable") }
        let tree = try block(pathsVariable)
        guard Array(tree.prefix(4)) == Array("tree".utf8) else { throw fail("Paths is not a tree") }
        var node = try u32(tree.startIndex + 8)
        while true {
            let start = try block(node).startIndex
            if try u16(start) == 1 { break }
            node = try u32(start + 12)
        }
        var raw: [(id: UInt32, parent: UInt32, name: String, record: ArraySlice<UInt8>)] = []
        var visited = Set<UInt32>()
        while node != 0 {
            guard visited.insert(node).inserted else { throw fail("has a loop in its leaves") }
            let start = try block(node).startIndex
            let count = Int(try u16(start + 2))
            for index in 0..<count {
                let pathInfo = try block(try u32(start + 12 + index * 8)), file = try block(try u32(start + 16 + index * 8))
                let id = try u32(pathInfo.startIndex)
                let record = try block(try u32(pathInfo.startIndex + 4))
                let parent = try u32(file.startIndex)
                let name = String(decoding: file.dropFirst(4).prefix { $0 != 0 }, as: UTF8.self)
                raw.append((id, parent, name, record))
            }
            node = try u32(start + 4)
        }
        var names2: [UInt32: (UInt32, String)] = [:]
        for item in raw { names2[item.id] = (item.parent, item.name) }
        func path(of id: UInt32) -> String {
            var parts: [String] = []
            var current = id
            var guardCount = 0
            while current != 0, let (parent, name) = names2[current], guardCount < 4096 {
                parts.append(name)
                current = parent
                guardCount += 1
            }
            return parts.reversed().joined(separator: "/")
        }
        var entries: [BomEntry] = []
        for item in raw {
            let r = item.record
            guard r.count >= 31 else { throw fail("has a short path record") }
            let s = r.startIndex
            let kind = BomEntry.Kind(rawValue: r[s]) ?? .file
            var target: String?
            if kind == .symlink {
                let length = Int(try u32(s + 27))
                target = String(decoding: r[(s + 31)..<min(r.endIndex, s + 31 + max(0, length - 1))], as: UTF8.self)
            }
            entries.append(
                BomEntry(
                    path: path(of: item.id), kind: kind, mode: try u16(s + 4), uid: try u32(s + 6), gid: try u32(s + 10),
                    mtime: try u32(s + 14), size: UInt64(try u32(s + 18)), checksum: try u32(s + 23), linkTarget: target))
        }
        let sorted = zip(raw, raw.dropFirst()).allSatisfy { a, b in
            a.parent != b.parent ? a.parent < b.parent : Array(a.name.utf8).lexicographicallyPrecedes(Array(b.name.utf8))
        }
        return Listing(entries: entries, isSorted: sorted, variables: names)
    }
}
