#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import IAPCore

/// Writes a Bom ("BOMStore"), the bill of materials inside a flat package, as Apple's mkbom lays it out:
/// the variables BomInfo, Paths, HLIndex, VIndex and Size64; Paths a B+-tree of 4,096-byte nodes whose leaves
/// are sorted by (parent id, name). Integers are big-endian.
public enum BomWriter {
    static let pathsBlockSize = 4096
    static let entriesPerNode = (4096 - 12) / 8

    /// `entries` in payload order: `.` first, every directory before its contents.
    public static func write(_ entries: [BomEntry]) -> [UInt8] {
        var store = BlockStore()
        // ids follow payload order, so a parent's id is always smaller than its children's.
        var idByPath: [String: UInt32] = [:]
        for (index, entry) in entries.enumerated() { idByPath[entry.path] = UInt32(index + 1) }

        let total = entries.reduce(UInt64(0)) { $0 + ($1.kind == .file || $1.kind == .symlink ? $1.size : 0) }
        var info = Bytes()
        info.u32(1); info.u32(UInt32(entries.count + 1)); info.u32(1)
        info.u32(0); info.u32(0); info.u32(UInt32(truncatingIfNeeded: total)); info.u32(0)
        let infoBlock = store.add(info.bytes)

        struct PathBlocks { var parent: UInt32; var name: [UInt8]; var pathInfo: UInt32; var file: UInt32; var record: UInt32; var size: UInt64 }
        var paths: [PathBlocks] = []
        for (index, entry) in entries.enumerated() {
            let id = UInt32(index + 1)
            let record = store.add(recordBytes(entry))
            let name: String
            let parent: UInt32
            if entry.path == "." {
                name = "."
                parent = 0
            } else {
                let directory = Path.parent(entry.path)
                name = Path.lastComponent(entry.path)
                parent = idByPath[directory] ?? 1
            }
            var file = Bytes()
            file.u32(parent)
            file.bytes += Array(name.utf8) + [0]
            let fileBlock = store.add(file.bytes)
            var pathInfo = Bytes()
            pathInfo.u32(id); pathInfo.u32(record)
            let pathInfoBlock = store.add(pathInfo.bytes)
            paths.append(
                PathBlocks(
                    parent: parent, name: Array(name.utf8), pathInfo: pathInfoBlock, file: fileBlock,
                    record: record, size: entry.size))
        }
        // Apple's lsbom stops at the first leaf entry out of (parent id, name) order.
        paths.sort { $0.parent != $1.parent ? $0.parent < $1.parent : $0.name.lexicographicallyPrecedes($1.name) }
        let pathsTree = store.addTree(
            entries: paths.map { ($0.pathInfo, $0.file) }, blockSize: pathsBlockSize,
            pathCount: UInt32(paths.count))

        // HLIndex: one entry per inode (no hard links here): an empty 64-byte tree and the path record.
        var links: [(UInt32, UInt32)] = []
        for path in paths {
            let emptyTree = store.addTree(entries: [], blockSize: 64, pathCount: 0)
            var value = Bytes(); value.u32(emptyTree)
            var key = Bytes(); key.u32(path.record)
            links.append((store.add(value.bytes), store.add(key.bytes)))
        }
        let hlIndex = store.addTree(entries: links, blockSize: pathsBlockSize, pathCount: UInt32(links.count))

        var vIndex = Bytes()
        vIndex.u32(1); vIndex.u32(store.addTree(entries: [], blockSize: 128, pathCount: 0)); vIndex.u32(0); vIndex.bytes.append(0)
        let vIndexBlock = store.add(vIndex.bytes)

        // Size64: the full size of files over 4 GiB, keyed by their path record.
        var large: [(UInt32, UInt32)] = []
        for path in paths where path.size > 0xFFFF_FFFF {
            var size = Bytes(); size.u64(path.size)
            var key = Bytes(); key.u32(path.record)
            large.append((store.add(size.bytes), store.add(key.bytes)))
        }
        let size64 = store.addTree(entries: large, blockSize: pathsBlockSize, pathCount: UInt32(large.count))

        return store.serialize(variables: [
            ("BomInfo", infoBlock), ("Paths", pathsTree), ("HLIndex", hlIndex),
            ("VIndex", vIndexBlock), ("Size64", size64),
        ])
    }

    static func recordBytes(_ entry: BomEntry) -> [UInt8] {
        var record = Bytes()
        record.bytes.append(entry.kind.rawValue)
        record.bytes.append(1)
        record.u16(15)
        record.u16(entry.mode)
        record.u32(entry.uid); record.u32(entry.gid); record.u32(entry.mtime)
        record.u32(UInt32(truncatingIfNeeded: min(entry.size, 0xFFFF_FFFF)))
        record.bytes.append(1)
        record.u32(entry.kind == .directory ? 0 : entry.checksum)
        switch entry.kind {
        case .symlink:
            let target = Array((entry.linkTarget ?? "").utf8)
            record.u32(UInt32(target.count + 1))
            record.bytes += target + [0] + [UInt8](repeating: 0, count: 8)
        case .file:
            record.u32(0)
            record.bytes += [0, 0, 0, 0]
        default:
            record.u32(0)
        }
        return record.bytes
    }
}

/// Big-endian byte building.
struct Bytes {
    var bytes: [UInt8] = []
    mutating func u16(_ value: UInt16) { bytes += [UInt8(value >> 8), UInt8(value & 0xFF)] }
    mutating func u32(_ value: UInt32) { bytes += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) } }
    mutating func u64(_ value: UInt64) { u32(UInt32(value >> 32)); u32(UInt32(truncatingIfNeeded: value)) }
}

/// The blocks of a BOMStore and its B+-trees.
struct BlockStore {
    /// Block 0 is the null block.
    var blocks: [[UInt8]] = [[]]

    mutating func add(_ data: [UInt8]) -> UInt32 {
        blocks.append(data)
        return UInt32(blocks.count - 1)
    }

    mutating func reserve() -> UInt32 { add([]) }

    /// A tree block over leaf entries `(index0, index1)`, with branch levels when one node cannot hold them.
    mutating func addTree(entries: [(UInt32, UInt32)], blockSize: Int, pathCount: UInt32) -> UInt32 {
        let perNode = max(1, (blockSize - 12) / 8)
        var level: [(node: UInt32, lastKey: UInt32)] = []
        let chunks =
            entries.isEmpty
            ? [[]]
            : stride(from: 0, to: entries.count, by: perNode).map {
                Array(entries[$0..<min(entries.count, $0 + perNode)])
            }
        let leafIndices = chunks.map { _ in reserve() }
        for (position, chunk) in chunks.enumerated() {
            let forward = position + 1 < leafIndices.count ? leafIndices[position + 1] : 0
            let backward = position > 0 ? leafIndices[position - 1] : 0
            blocks[Int(leafIndices[position])] = node(isLeaf: true, entries: chunk, forward: forward, backward: backward, size: blockSize)
            level.append((leafIndices[position], chunk.last?.1 ?? 0))
        }
        // Branch entries: (child node, the file block of the child's last entry).
        while level.count > 1 {
            var next: [(UInt32, UInt32)] = []
            for start in stride(from: 0, to: level.count, by: perNode) {
                let group = Array(level[start..<min(level.count, start + perNode)])
                let index = add(node(isLeaf: false, entries: group.map { ($0.node, $0.lastKey) }, forward: 0, backward: 0, size: blockSize))
                next.append((index, group.last!.lastKey))
            }
            level = next
        }
        var tree = Bytes()
        tree.bytes += Array("tree".utf8)
        tree.u32(1); tree.u32(level[0].node); tree.u32(UInt32(blockSize)); tree.u32(pathCount); tree.bytes.append(0)
        return add(tree.bytes)
    }

    private func node(isLeaf: Bool, entries: [(UInt32, UInt32)], forward: UInt32, backward: UInt32, size: Int) -> [UInt8] {
        var node = Bytes()
        node.u16(isLeaf ? 1 : 0); node.u16(UInt16(entries.count)); node.u32(forward); node.u32(backward)
        for (index0, index1) in entries { node.u32(index0); node.u32(index1) }
        if node.bytes.count < size { node.bytes += [UInt8](repeating: 0, count: size - node.bytes.count) }
        return node.bytes
    }

    /// Lays out the 512-byte header area, the blocks, the block table with an empty free list, and the variables.
    func serialize(variables: [(String, UInt32)]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 512)
        var addresses: [(UInt32, UInt32)] = [(0, 0)]
        for block in blocks.dropFirst() {
            addresses.append((UInt32(out.count), UInt32(block.count)))
            out += block
        }
        let indexOffset = UInt32(out.count)
        var table = Bytes()
        table.u32(UInt32(addresses.count))
        for (address, length) in addresses { table.u32(address); table.u32(length) }
        table.u32(0)  // free list: no free blocks
        out += table.bytes
        let varsOffset = UInt32(out.count)
        var vars = Bytes()
        vars.u32(UInt32(variables.count))
        for (name, block) in variables {
            vars.u32(block)
            vars.bytes.append(UInt8(name.utf8.count))
            vars.bytes += Array(name.utf8)
        }
        out += vars.bytes
        var header = Bytes()
        header.bytes += Array("BOMStore".utf8)
        header.u32(1); header.u32(UInt32(addresses.count - 1)); header.u32(indexOffset); header.u32(UInt32(table.bytes.count))
        header.u32(varsOffset); header.u32(UInt32(vars.bytes.count))
        out.replaceSubrange(0..<header.bytes.count, with: header.bytes)
        return out
    }
}
