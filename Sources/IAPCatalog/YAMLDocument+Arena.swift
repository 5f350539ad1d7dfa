/// A growing run of plain values in memory of its own, let go by its owner: the document's arena, whose address
/// readers keep once it is built.
struct PlainBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    /// Reserves `capacity` elements: pages that are reserved but never written cost no memory.
    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    mutating func append(_ element: Element) {
        if count == capacity { grow(toHold: count + 1) }
        (base + count).initialize(to: element)
        count += 1
    }

    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress, !elements.isEmpty else { return }
        if count + elements.count > capacity { grow(toHold: count + elements.count) }
        (base + count).initialize(from: source, count: elements.count)
        count += elements.count
    }

    /// Moves the elements from `index` on `count` places right and returns the gap before them, for the caller to
    /// fill (every element of it) before the buffer is read again.
    mutating func openGap(at index: Int, count gap: Int) -> UnsafeMutablePointer<Element> {
        if count + gap > capacity { grow(toHold: count + gap) }
        (base + index + gap).moveInitialize(from: base + index, count: count - index)
        count += gap
        return base + index
    }

    /// Lets the memory go; the buffer must not be used afterwards.
    func deallocate() { base.deallocate() }

    private mutating func grow(toHold needed: Int) {
        capacity = Swift.max(needed, capacity * 2)
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        grown.moveInitialize(from: base, count: count)
        base.deallocate()
        base = grown
    }
}

/// An arena under construction and the two ways a node enters it, shared by both builders (libyaml's events for YAML,
/// yajl's callbacks for JSON).
struct ArenaBuilder {
    var records: PlainBuffer<YAMLDocument.Record>
    var children: PlainBuffer<YAMLDocument.NodeID>
    var text: PlainBuffer<UInt8>

    /// Sized from the input, generously: pages that are reserved but never written cost no memory, and growing a
    /// large buffer costs a copy.
    init(inputBytes: Int) {
        records = PlainBuffer(capacity: inputBytes / 8 + 16)
        children = PlainBuffer(capacity: inputBytes / 8 + 16)
        text = PlainBuffer(capacity: inputBytes + 16)
    }

    /// A scalar of `count` bytes.
    mutating func scalar(
        _ bytes: UnsafePointer<UInt8>?, count: Int, style: YAMLDocument.ScalarStyle, line: Int32,
        column: Int32
    ) -> YAMLDocument.NodeID {
        let start = Int32(text.count)
        if let bytes, count > 0 { text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count)) }
        let id = YAMLDocument.NodeID(index: Int32(records.count))
        records.append(.init(kind: .scalar, style: style, line: line, column: column, start: start, count: Int32(count)))
        return id
    }

    /// A sequence or mapping whose children are `pending[base...]`, which it takes off `pending`.
    mutating func container(
        _ kind: YAMLDocument.Kind, line: Int32, column: Int32, pending: inout [YAMLDocument.NodeID],
        from base: Int
    ) -> YAMLDocument.NodeID {
        let count = pending.count - base
        let id = YAMLDocument.NodeID(index: Int32(records.count))
        records.append(.init(kind: kind, style: .any, line: line, column: column, start: Int32(children.count), count: Int32(count)))
        pending.withUnsafeBufferPointer { children.append(contentsOf: UnsafeBufferPointer(rebasing: $0[base...])) }
        // No slice of `pending` may outlive this line, or removing would copy the whole stack.
        pending.removeLast(count)
        return id
    }

    /// The finished document, which owns the buffers from now on.
    func document(root: YAMLDocument.NodeID, spans: Bool = false) -> YAMLDocument {
        YAMLDocument(records: records, children: children, text: text, root: root, spans: spans)
    }

    /// Lets the buffers go, when no document took them.
    func deallocate() {
        records.deallocate()
        children.deallocate()
        text.deallocate()
    }
}
