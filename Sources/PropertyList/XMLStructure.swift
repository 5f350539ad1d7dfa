import IAPCore

/// How far XML may spread and nest. libxml2 sets no limit on attributes (and checks each new one against every
/// earlier one of its element, so 100,000 on one element take a minute), so these are counted on the bytes as
/// libxml2 reads them, and reading stops at the first one past its limit.
public struct XMLLimits: Sendable {
    public var attributesPerElement = 256
    public var depth = 100
    /// One text, CDATA section or attribute value, in bytes.
    public var textBytes = 1 << 20

    public init() {}

    public static let standard = XMLLimits()
}

/// Follows XML's lexical structure byte by byte (text, tags and their quoted values, comments, CDATA, processing
/// instructions, the DOCTYPE) to count what `XMLLimits` limits. It runs ahead of libxml2 on the same bytes, which
/// libxml2 reads as UTF-8, and only as far as libxml2 has parsed without a fatal error, so the two see the same
/// structure. An internal DTD subset is refused outright: it is where entities and attribute defaults live, and
/// no file iapkit reads needs one.
struct XMLStructureScanner {
    struct Refusal: Error {
        var line: Int
        var column: Int
        var reason: String
    }

    private enum State {
        case text, open, bang, comment, cdata, instruction, doctype, startTag, endTag
    }

    let limits: XMLLimits
    let kind: String
    private var state = State.text
    /// The quote of a value being read in a tag or the DOCTYPE, or 0.
    private var quote: UInt8 = 0
    /// After `<!`: how much of `--` or `[CDATA[` has matched.
    private var bangMatched = 0
    private var bangTarget: [UInt8] = []
    /// The closing run so far: `-` before a comment's `>`, `]` before a CDATA section's, `?` before an instruction's.
    private var closing = 0
    private var previous: UInt8 = 0
    private var depth = 0
    private var attributes = 0
    private var run = 0
    private var line = 1
    private var column = 0
    private var tagStart = (line: 1, column: 1)
    private var runStart = (line: 1, column: 1)

    init(limits: XMLLimits, kind: String) {
        self.limits = limits
        self.kind = kind
    }

    mutating func scan(_ bytes: UnsafeRawBufferPointer) throws(Refusal) {
        for byte in bytes {
            if byte == 0x0A {
                line += 1
                column = 0
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            try step(byte)
        }
    }

    private mutating func step(_ byte: UInt8) throws(Refusal) {
        switch state {
        case .text:
            if byte == UInt8(ascii: "<") {
                state = .open
                tagStart = (line, column)
                run = 0
            } else {
                try count()
            }
        case .open:
            switch byte {
            case UInt8(ascii: "/"): state = .endTag
            case UInt8(ascii: "!"): state = .bang; bangMatched = 0
            case UInt8(ascii: "?"): state = .instruction; closing = 0
            default:
                state = .startTag
                attributes = 0
                quote = 0
                previous = byte
            }
        case .bang:
            if bangMatched == 0 {
                bangTarget = byte == UInt8(ascii: "-") ? Array("--".utf8) : Array("[CDATA[".utf8)
            }
            if byte == bangTarget[bangMatched] {
                bangMatched += 1
                if bangMatched == bangTarget.count {
                    state = bangTarget.count == 2 ? .comment : .cdata
                    closing = 0
                    run = 0
                }
            } else {
                // A declaration: the DOCTYPE (or a malformed one, which libxml2 refuses).
                state = .doctype
                quote = 0
                try step(byte)
            }
        case .comment:
            if byte == UInt8(ascii: ">") && closing >= 2 { state = .text } else { closing = byte == UInt8(ascii: "-") ? closing + 1 : 0 }
        case .cdata:
            if byte == UInt8(ascii: ">") && closing >= 2 {
                state = .text
                run = 0
            } else {
                closing = byte == UInt8(ascii: "]") ? closing + 1 : 0
                try count()
            }
        case .instruction:
            if byte == UInt8(ascii: ">") && closing >= 1 { state = .text } else { closing = byte == UInt8(ascii: "?") ? 1 : 0 }
        case .doctype:
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                throw Refusal(
                    line: line, column: column,
                    reason: "has an internal DTD subset (`<!DOCTYPE name [...]>`); \(kind) never need one, and iapkit refuses it")
            } else if byte == UInt8(ascii: ">") {
                state = .text
            }
        case .startTag:
            if quote != 0 {
                if byte == quote { quote = 0 } else { try count() }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
                run = 0
            } else if byte == UInt8(ascii: "=") {
                attributes += 1
                if attributes > limits.attributesPerElement {
                    throw Refusal(
                        line: tagStart.line, column: tagStart.column,
                        reason: "has an element with more than \(limits.attributesPerElement) attributes; iapkit reads "
                            + "at most \(limits.attributesPerElement) on one element")
                }
            } else if byte == UInt8(ascii: ">") {
                state = .text
                run = 0
                if previous != UInt8(ascii: "/") {
                    depth += 1
                    if depth > limits.depth {
                        throw Refusal(
                            line: tagStart.line, column: tagStart.column,
                            reason: "nests elements more than \(limits.depth) deep; iapkit reads XML at most "
                                + "\(limits.depth) elements deep")
                    }
                }
            }
            if byte != 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D { previous = byte }
        case .endTag:
            if byte == UInt8(ascii: ">") {
                state = .text
                run = 0
                depth = max(0, depth - 1)
            }
        }
    }

    /// One more byte of a text, CDATA section or attribute value.
    private mutating func count() throws(Refusal) {
        if run == 0 { runStart = (line, column) }
        run += 1
        if run > limits.textBytes {
            throw Refusal(
                line: runStart.line, column: runStart.column,
                reason: "has a text or attribute value over \(limits.textBytes) bytes; iapkit reads texts of at most "
                    + "\(limits.textBytes) bytes")
        }
    }
}
