import CYAML
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A large text read in parts at once. libyaml reads on one thread, and its parse is most of a large catalog's
/// load: so the text's largest top-level block list (a catalog's `products`) is cut between items, each later run of
/// items is read on a thread of its own as a list of its own, and the first part (the text before the cut and after
/// the list) on this one. The parts' arenas are then put together in the order one pass would have made them, so the
/// document is the one a single pass makes, node for node.
///
/// A cut is taken only where the single pass would stand between two items of the list, and each part checks that
/// it did: anything else (a quoted value or a `[...]` running over the cut, an alias to an anchor of another part,
/// a line break libyaml counts that is not `\n`, an error) sends the whole text through one pass, which also words
/// any error as it always has.
extension YAMLDocumentBuilder {
    /// Texts below this are read in one pass: a thread costs more than it saves.
    static let partsThreshold = 512 << 10

    /// The document of `bytes` read in parts, or nil when it is small, the machine has one core, or a cut does not
    /// hold. `parts` overrides the machine's choice (tests).
    static func buildInParts(_ bytes: UnsafeBufferPointer<UInt8>, parts: Int? = nil) -> YAMLDocument? {
        let wanted = parts ?? (bytes.count < partsThreshold ? 1 : min(ProcessInfo.processInfo.activeProcessorCount, 8))
        guard wanted > 1, let split = YAMLSplit(bytes, parts: wanted) else { return nil }
        let runs = split.runs
        let slots = PassSlots(bytes, split: split)
        defer { slots.release() }
        DispatchQueue.concurrentPerform(iterations: runs.count + 1) { part in
            if part == 0 { slots.readFirst() } else { slots.read(part, run: runs[part - 1]) }
        }
        return slots.merged()
    }

    /// The line breaks libyaml counts in `bytes` when each is a `\n`: one more after a last line without one, which
    /// libyaml ends itself at the end of the stream.
    static func newlines(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in bytes where byte == 10 { count += 1 }
        return count + (bytes.last.map { $0 == 10 ? 0 : 1 } ?? 0)
    }

    /// What the first part's pass checks at the point where its text jumps from the cut to the text after the list,
    /// and what it finds there.
    struct Join {
        /// The part's 1-based line just after the cut.
        let line: Int
        /// Where the list's first item stands (1-based), as libyaml marks the start of the list.
        let listLine: Int32
        let listColumn: Int32
        private var seen = false
        /// The list's record as it closed: its index, where the children and the text stood, how many items it had.
        private(set) var list: (index: Int, children: Int, text: Int, items: Int)?
        private(set) var aliasesAfter = 0

        init(line: Int, listLine: Int32, listColumn: Int32) {
            self.line = line
            self.listLine = listLine
            self.listColumn = listColumn
        }

        private static let refused = Failure(reason: "the cut does not hold")

        /// Refuses an event that runs over the cut, a list that is not open there, and anything but block ends
        /// between the cut and the list's end.
        mutating func check(_ event: yaml_event_t, open: [OpenContainer]) throws(Failure) {
            if !seen {
                let start = Int(event.start_mark.line) + 1
                if start < line, event.type != YAML_STREAM_END_EVENT {
                    let end = Int(event.end_mark.line) + 1
                    if end > line || (end == line && event.end_mark.column > 0) { throw Self.refused }
                    return
                }
                seen = true
                guard open.count >= 2, open[0].kind == .mapping, !open[0].flow, open[1].kind == .sequence, !open[1].flow,
                    open[1].line == listLine, open[1].column == listColumn
                else { throw Self.refused }
            }
            if list == nil {
                let ends = event.type == YAML_SEQUENCE_END_EVENT || event.type == YAML_MAPPING_END_EVENT
                guard ends, let last = open.last, !last.flow else { throw Self.refused }
            } else if event.type == YAML_ALIAS_EVENT {
                aliasesAfter += 1
            }
        }

        /// A container at the top level's depth closes: the list, when it is past the cut.
        mutating func closing(arena: ArenaBuilder, items: Int) {
            guard seen, list == nil else { return }
            list = (arena.records.count, arena.children.count, arena.text.count, items)
        }
    }

    /// Each part's pass and `\n` count, written by its own thread.
    /// The text (valid until the parts are put together), and each part's pass and `\n` count, written by the part's
    /// own thread.
    private final class PassSlots: @unchecked Sendable {
        let bytes: UnsafeBufferPointer<UInt8>
        let split: YAMLSplit
        let passes: UnsafeMutableBufferPointer<Pass?>
        let lineBreaks: UnsafeMutableBufferPointer<Int>
        /// The first part's `\n` counts: before the cut, and after the list.
        var firstCounts = (beforeCut: 0, afterList: 0)

        init(_ bytes: UnsafeBufferPointer<UInt8>, split: YAMLSplit) {
            self.bytes = bytes
            self.split = split
            passes = .allocate(capacity: split.cuts.count + 1)
            passes.initialize(repeating: nil)
            lineBreaks = .allocate(capacity: split.cuts.count + 1)
            lineBreaks.initialize(repeating: 0)
        }

        /// A later part: a run of the list's items, read as a list of its own.
        func read(_ part: Int, run range: Range<Int>) {
            let run = UnsafeBufferPointer(rebasing: bytes[range])
            passes[part] = try? YAMLDocumentBuilder.read(run, reserving: run.count, depthLimit: maximumDepth - 1, join: nil)
            lineBreaks[part] = YAMLDocumentBuilder.newlines(in: run)
        }

        /// The text before the cut and the text after the list, as one text.
        func readFirst() {
            let head = UnsafeBufferPointer(rebasing: bytes[..<split.cuts[0]])
            let tail = UnsafeBufferPointer(rebasing: bytes[split.end...])
            firstCounts = (YAMLDocumentBuilder.newlines(in: head), YAMLDocumentBuilder.newlines(in: tail))
            let joined = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: head.count + tail.count)
            defer { joined.deallocate() }
            _ = joined.initialize(fromContentsOf: head)
            _ = UnsafeMutableBufferPointer(rebasing: joined[head.count...]).initialize(fromContentsOf: tail)
            let join = Join(line: firstCounts.beforeCut + 1, listLine: split.listLine, listColumn: split.listColumn)
            // Sized for the whole text: the other parts' nodes are put into this arena.
            passes[0] = try? YAMLDocumentBuilder.read(
                UnsafeBufferPointer(joined), reserving: bytes.count, depthLimit: maximumDepth, join: join)
            lineBreaks[0] = firstCounts.beforeCut + firstCounts.afterList
        }

        /// The parts put together, or nil when one failed or a cut did not hold.
        func merged() -> YAMLDocument? {
            guard let first = passes[0], let list = first.join?.list, let root = first.root else { return nil }
            var others: [(pass: Pass, rootStart: Int, rootCount: Int)] = []
            for part in 1..<passes.count {
                guard let pass = passes[part], pass.lineBreaks == lineBreaks[part], let partRoot = pass.root,
                    Int(partRoot.index) == pass.arena.records.count - 1
                else { return nil }
                let record = pass.arena.records.base[Int(partRoot.index)]
                guard record.kind == .sequence, record.line == 1, record.column == split.listColumn,
                    Int(record.start + record.count) == pass.arena.children.count
                else { return nil }
                others.append((pass, Int(record.start), Int(record.count)))
            }
            // libyaml counted only `\n` line breaks, so the lines can be added up; an alias after the list may name an
            // anchor another part defines again, which one pass would have resolved to that part's node.
            guard first.lineBreaks == lineBreaks[0],
                first.join!.aliasesAfter == 0 || !others.contains(where: \.pass.definesAnchors)
            else { return nil }

            var arena = first.arena
            let records = others.reduce(0) { $0 + $1.pass.arena.records.count - 1 }
            let children = others.reduce(0) { $0 + $1.rootStart }
            let items = others.reduce(0) { $0 + $1.rootCount }
            let text = others.reduce(0) { $0 + $1.pass.arena.text.count }
            let lines = others.reduce(0) { $0 + $1.pass.lineBreaks }
            let listIndex = list.index

            // Text: the other parts' scalars between the first part's before the cut and after the list.
            var textGap = arena.text.openGap(at: list.text, count: text)
            for other in others {
                textGap.initialize(from: other.pass.arena.text.base, count: other.pass.arena.text.count)
                textGap += other.pass.arena.text.count
            }
            // Children: each part's items follow the list's first items; the parts' inner children come before them,
            // where one pass appends them; later node IDs move past the inserted nodes.
            var nodeBase = Int32(listIndex)
            var itemGap = arena.children.openGap(at: list.children + list.items, count: items)
            for other in others {
                for offset in 0..<other.rootCount {
                    itemGap.initialize(to: .init(index: other.pass.arena.children.base[other.rootStart + offset].index + nodeBase))
                    itemGap += 1
                }
                nodeBase += Int32(other.pass.arena.records.count - 1)
            }
            nodeBase = Int32(listIndex)
            var childGap = arena.children.openGap(at: list.children, count: children)
            for other in others {
                for offset in 0..<other.rootStart {
                    childGap.initialize(to: .init(index: other.pass.arena.children.base[offset].index + nodeBase))
                    childGap += 1
                }
                nodeBase += Int32(other.pass.arena.records.count - 1)
            }
            for offset in (list.children + children + list.items + items)..<arena.children.count {
                let id = arena.children.base[offset]
                if id.index >= listIndex { arena.children.base[offset] = .init(index: id.index + Int32(records)) }
            }
            // Records: the parts' nodes before the list's own record, then the first part's later ones, moved.
            var recordGap = arena.records.openGap(at: listIndex, count: records)
            var (textBase, childBase) = (Int32(list.text), Int32(list.children))
            var lineBase = Int32(first.join!.line - 1)
            for other in others {
                let count = other.pass.arena.records.count - 1
                for offset in 0..<count {
                    var record = other.pass.arena.records.base[offset]
                    record.start += record.kind == .scalar ? textBase : childBase
                    record.line += lineBase
                    recordGap.initialize(to: record)
                    recordGap += 1
                }
                textBase += Int32(other.pass.arena.text.count)
                childBase += Int32(other.rootStart)
                lineBase += Int32(other.pass.lineBreaks)
            }
            arena.records.base[listIndex + records].start = Int32(list.children + children)
            arena.records.base[listIndex + records].count = Int32(list.items + items)
            let joinLine = Int32(first.join!.line)
            for offset in (listIndex + records + 1)..<arena.records.count {
                var record = arena.records.base[offset]
                record.start += record.kind == .scalar ? Int32(text) : Int32(children + items)
                if record.line >= joinLine { record.line += Int32(lines) }
                arena.records.base[offset] = record
            }
            passes[0] = nil  // the arena is the document's now
            return arena.document(root: .init(index: root.index + Int32(records)))
        }

        /// Lets go every arena no document took, and the slots.
        func release() {
            for index in passes.indices { passes[index]?.arena.deallocate() }
            passes.deinitialize()
            passes.deallocate()
            lineBreaks.deallocate()
        }
    }
}

/// Where a text is cut into parts: its largest top-level block list, found from its lines alone, cut at lines that
/// start an item. Nothing here is trusted: each part's pass checks that the cut holds.
struct YAMLSplit {
    /// Where each later part starts, in order: lines that start an item of the list.
    var cuts: [Int]
    /// Where the list's text ends (the next top-level line, or the end of the text).
    var end: Int
    /// The list's first item: its 1-based line and column (where its dash stands).
    var listLine: Int32
    var listColumn: Int32

    /// The later parts' byte ranges.
    var runs: [Range<Int>] { cuts.indices.map { cuts[$0]..<(cuts.indices.contains($0 + 1) ? cuts[$0 + 1] : end) } }

    /// The cuts of `bytes` into about `parts` parts of equal size, the first part taking the text around the list;
    /// nil when the text has no top-level block list a cut can go into.
    init?(_ bytes: UnsafeBufferPointer<UInt8>, parts: Int) {
        guard parts > 1, let list = Self.largestList(bytes) else { return nil }
        let total = bytes.count
        let outside = list.start + (total - list.end)
        // The first part: the text around the list and as many items as brings it to its share.
        let firstCut = max(list.start + 1, total / parts - (total - list.end))
        guard outside < total / 2, let first = Self.itemStart(atOrAfter: firstCut, in: bytes, before: list.end, dash: list.dash)
        else { return nil }
        var cuts = [first]
        let share = (list.end - first) / (parts - 1)
        for part in 1..<(parts - 1) {
            guard let cut = Self.itemStart(atOrAfter: first + share * part, in: bytes, before: list.end, dash: list.dash),
                cut > cuts[cuts.count - 1]
            else { break }
            cuts.append(cut)
        }
        self.cuts = cuts
        end = list.end
        listLine = Int32(list.line)
        listColumn = Int32(list.dash + 1)
    }

    /// The top-level key whose block list spans the most bytes: where its first item starts and its 1-based line,
    /// its dash's 0-based column, and where the list's text ends.
    static func largestList(_ bytes: UnsafeBufferPointer<UInt8>) -> (start: Int, line: Int, dash: Int, end: Int)? {
        var best: (start: Int, line: Int, dash: Int, end: Int)?
        var open: (start: Int, line: Int, dash: Int)?
        var afterKey = false
        var lineStart = 0, line = 1
        while lineStart < bytes.count {
            let lineEnd = nextNewline(in: bytes, from: lineStart)
            let first = bytes[lineStart]
            let content = first != 32 && first != 10 && first != 13 && first != 35  // not indented, blank or a comment
            if let list = open, content, !(list.dash == 0 && isItemStart(bytes, at: lineStart, dash: 0)) {
                if best.map({ $0.end - $0.start < lineStart - list.start }) ?? true { best = (list.start, list.line, list.dash, lineStart) }
                open = nil
            }
            if afterKey, !isBlankOrComment(bytes, from: lineStart, to: lineEnd) {
                afterKey = false
                var dash = lineStart
                while dash < lineEnd, bytes[dash] == 32 { dash += 1 }
                if isItemStart(bytes, at: lineStart, dash: dash - lineStart) { open = (lineStart, line, dash - lineStart) }
            }
            if open == nil, content, isBlockKey(bytes, from: lineStart, to: lineEnd) { afterKey = true }
            lineStart = lineEnd + 1
            line += 1
        }
        if let list = open, best.map({ $0.end - $0.start < bytes.count - list.start }) ?? true {
            best = (list.start, list.line, list.dash, bytes.count)
        }
        return best
    }

    /// The first line at or after `offset`, before `limit`, that starts an item with its dash at column `dash`.
    static func itemStart(atOrAfter offset: Int, in bytes: UnsafeBufferPointer<UInt8>, before limit: Int, dash: Int) -> Int? {
        var lineStart = offset
        if lineStart > 0, bytes[lineStart - 1] != 10 { lineStart = nextNewline(in: bytes, from: lineStart) + 1 }
        while lineStart < limit {
            if isItemStart(bytes, at: lineStart, dash: dash) { return lineStart }
            lineStart = nextNewline(in: bytes, from: lineStart) + 1
        }
        return nil
    }

    /// Whether the line at `lineStart` is `dash` spaces, a `-` and a space or the line's end.
    static func isItemStart(_ bytes: UnsafeBufferPointer<UInt8>, at lineStart: Int, dash: Int) -> Bool {
        let at = lineStart + dash
        guard at < bytes.count, bytes[at] == 45 else { return false }
        for offset in lineStart..<at where bytes[offset] != 32 { return false }
        return at + 1 == bytes.count || bytes[at + 1] == 32 || bytes[at + 1] == 10 || bytes[at + 1] == 13
    }

    /// Whether a top-level line is a key whose value starts on the next line (`products:`, nothing after the colon).
    static func isBlockKey(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        guard bytes[start] != 45 else { return false }  // a list's item, not a key
        var last = end - 1
        while last > start, bytes[last] == 32 || bytes[last] == 13 { last -= 1 }
        guard last > start, bytes[last] == 58 else { return false }
        for offset in start..<last where bytes[offset] == 35 { return false }  // a comment: not worth reading
        return true
    }

    static func isBlankOrComment(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        for offset in start..<end where bytes[offset] != 32 && bytes[offset] != 13 { return bytes[offset] == 35 }
        return true
    }

    /// The offset of the next `\n` at or after `offset`, or the text's end.
    static func nextNewline(in bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int {
        guard offset < bytes.count, let base = bytes.baseAddress else { return bytes.count }
        guard let found = memchr(base + offset, 10, bytes.count - offset) else { return bytes.count }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
}
