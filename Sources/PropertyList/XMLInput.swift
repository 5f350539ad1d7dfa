import CLibXML2
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCore

/// Hostile XML read through libxml2 the one way iapkit reads XML: no network, no DTD loading, no entity
/// substitution, nothing printed, and any entity declaration refused, so no input grows into gigabytes (one entity
/// used many times) or reads another file (an external entity). Property lists and XLIFF files both come through here.
/// libxml2 reads UTF-8 only (UTF-16 is converted first), through a callback that counts the structure against
/// `XMLLimits` as it hands the bytes over, and stops handing them over at libxml2's first fatal error.
public final class XMLInput {
    public let document: xmlDocPtr
    public let file: String

    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    /// Parses `data`; `kind` ("property lists", "XLIFF files") names what never needs entities in the refusal.
    public init(_ data: Data, file: String, kind: String, limits: XMLLimits = .standard) throws(IAPKitError) {
        _ = Self.initialized
        self.file = file
        if let offset = Self.firstEntityDeclaration(in: data) {
            throw Self.entityRefusal(file: file, line: data.prefix(offset).reduce(1) { $0 + ($1 == 10 ? 1 : 0) }, kind: kind)
        }
        let feed = XMLFeed(bytes: try Self.utf8(data, file: file), scanner: XMLStructureScanner(limits: limits, kind: kind))
        let parsed = Self.parse(feed)
        if let refusal = feed.refusal {
            if let parsed { xmlFreeDoc(parsed) }
            throw .malformed(location: SourceLocation(file: file, line: refusal.line, column: refusal.column), reason: refusal.reason)
        }
        guard let parsed else {
            var location = SourceLocation(file: file)
            var reason = "is not well-formed XML"
            if let error = feed.firstFatal {
                location.line = error.line
                location.column = error.column
                if !error.message.isEmpty { reason += ": " + error.message }
            }
            throw .malformed(location: location, reason: reason)
        }
        // The same check after parsing, for encodings the byte scan cannot see (UTF-16).
        if let subset = parsed.pointee.intSubset, subset.pointee.entities != nil || subset.pointee.pentities != nil {
            let line = Int(xmlGetLineNo(OpaquePointer(subset).map { xmlNodePtr($0) }!))
            xmlFreeDoc(parsed)
            throw Self.entityRefusal(file: file, line: line, kind: kind)
        }
        // Under an external DOCTYPE libxml2 keeps an undeclared entity as an empty reference, which would drop it
        // from the text without a word.
        if let entity = feed.undeclaredEntity {
            xmlFreeDoc(parsed)
            throw .malformed(
                location: SourceLocation(file: file, line: entity.line),
                reason: "uses the entity `&\(entity.name);`, which it does not declare (iapkit loads no DTD); "
                    + "write the character itself")
        }
        document = parsed
    }

    private static func parse(_ feed: XMLFeed) -> xmlDocPtr? {
        let context = Unmanaged.passUnretained(feed).toOpaque()
        let read: xmlInputReadCallback = { context, buffer, length in
            guard let context, let buffer else { return -1 }
            return Unmanaged<XMLFeed>.fromOpaque(context).takeUnretainedValue().read(into: buffer, count: Int(length))
        }
        guard let parser = xmlCreateIOParserCtxt(nil, nil, read, nil, context, XML_CHAR_ENCODING_NONE) else { return nil }
        defer { xmlFreeParserCtxt(parser) }
        parser.pointee._private = context
        parser.pointee.sax.pointee.serror = { _, error in
            guard let error, let parser = error.pointee.ctxt?.assumingMemoryBound(to: xmlParserCtxt.self),
                let context = parser.pointee._private
            else { return }
            let feed = Unmanaged<XMLFeed>.fromOpaque(context).takeUnretainedValue()
            let message = error.pointee.message.map { String(cString: $0).trimmingSpaces(andNewlines: true) } ?? ""
            let line = Int(error.pointee.line), column = Int(error.pointee.int2)
            if error.pointee.level == XML_ERR_FATAL {
                if feed.firstFatal == nil { feed.firstFatal = (line, column, message) }
            } else if [XML_WAR_UNDECLARED_ENTITY, XML_ERR_UNDECLARED_ENTITY].contains(where: { Int32($0.rawValue) == error.pointee.code }),
                feed.undeclaredEntity == nil
            {
                feed.undeclaredEntity = (error.pointee.str1.map { String(cString: $0) } ?? "", line)
            }
        }
        // The bytes are UTF-8 by now, whatever the declaration says.
        _ = xmlCtxtUseOptions(
            parser,
            Int32(
                XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                    | XML_PARSE_IGNORE_ENC.rawValue))
        _ = xmlParseDocument(parser)
        let document = parser.pointee.myDoc
        parser.pointee.myDoc = nil
        guard parser.pointee.wellFormed != 0, feed.firstFatal == nil else {
            if let document { xmlFreeDoc(document) }
            return nil
        }
        return document
    }

    /// The bytes as UTF-8: UTF-16 (with a byte-order mark, or starting `<?` in either order) is converted, and the
    /// four-byte and EBCDIC encodings libxml2 would switch to are refused.
    static func utf8(_ data: Data, file: String) throws(IAPKitError) -> [UInt8] {
        let head = Array(data.prefix(4))
        func starts(_ prefix: [UInt8]) -> Bool { head.starts(with: prefix) }
        var bigEndian: Bool?
        var skip = 0
        if starts([0xFE, 0xFF]) {
            (bigEndian, skip) = (true, 2)
        } else if starts([0xFF, 0xFE]) && !starts([0xFF, 0xFE, 0, 0]) {
            (bigEndian, skip) = (false, 2)
        } else if starts([0x00, 0x3C, 0x00, 0x3F]) {
            bigEndian = true
        } else if starts([0x3C, 0x00, 0x3F, 0x00]) {
            bigEndian = false
        }
        guard let bigEndian else {
            if [
                [0, 0, 0, 0x3C], [0x3C, 0, 0, 0], [0, 0, 0x3C, 0], [0, 0x3C, 0, 0], [0x4C, 0x6F, 0xA7, 0x94],
                [0, 0, 0xFE, 0xFF], [0xFF, 0xFE, 0, 0],
            ].contains(where: starts) {
                throw .malformed(
                    location: SourceLocation(file: file, line: 1),
                    reason: "is XML in UCS-4 or EBCDIC; iapkit reads XML in UTF-8 or UTF-16")
            }
            return Array(data)
        }
        let bytes = Array(data.dropFirst(skip))
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = 0
        while index + 1 < bytes.count {
            let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }

    deinit { xmlFreeDoc(document) }

    public var root: xmlNodePtr? { xmlDocGetRootElement(document) }

    /// Where `<!ENTITY` first appears, if anywhere.
    static func firstEntityDeclaration(in data: Data) -> Int? {
        let needle = Array("<!ENTITY".utf8)
        return data.withUnsafeBytes { raw -> Int? in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard bytes.count >= needle.count else { return nil }
            var index = 0
            while index <= bytes.count - needle.count {
                if bytes[index] == 0x3C && needle.indices.allSatisfy({ bytes[index + $0] == needle[$0] }) { return index }
                index += 1
            }
            return nil
        }
    }

    private static func entityRefusal(file: String, line: Int, kind: String) -> IAPKitError {
        .malformed(
            location: SourceLocation(file: file, line: line),
            reason: "declares an XML entity; \(kind) never need entities, and iapkit refuses them")
    }

    /// An element's local name.
    public static func name(of node: xmlNodePtr) -> String { String(cString: node.pointee.name) }

    /// An element's child elements, in order.
    public static func elementChildren(_ node: xmlNodePtr) -> [xmlNodePtr] {
        var result: [xmlNodePtr] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { result.append(current) }
            child = current.pointee.next
        }
        return result
    }

    /// The text inside an element, its descendants' included.
    public static func text(of node: xmlNodePtr) -> String {
        guard let content = xmlNodeGetContent(node) else { return "" }
        defer { iapkit_xmlFree(content) }
        return String(cString: content)
    }

    /// An attribute's value (`namespace` for a qualified one, such as `xml:space`), nil when absent.
    public static func attribute(_ name: String, of node: xmlNodePtr, namespace: String? = nil) -> String? {
        let found: UnsafeMutablePointer<xmlChar>?
        if let namespace { found = xmlGetNsProp(node, name, namespace) } else { found = xmlGetNoNsProp(node, name) }
        guard let value = found else { return nil }
        defer { iapkit_xmlFree(value) }
        return String(cString: value)
    }

    /// The line an element starts on.
    public static func line(of node: xmlNodePtr) -> Int { Int(xmlGetLineNo(node)) }
}

/// The bytes libxml2 reads, handed over through its read callback after the scanner has counted them, and what
/// libxml2 said while reading them.
private final class XMLFeed {
    let bytes: [UInt8]
    var offset = 0
    var scanner: XMLStructureScanner
    var refusal: XMLStructureScanner.Refusal?
    var firstFatal: (line: Int, column: Int, message: String)?
    var undeclaredEntity: (name: String, line: Int)?

    init(bytes: [UInt8], scanner: XMLStructureScanner) {
        self.bytes = bytes
        self.scanner = scanner
    }

    /// Up to `count` more bytes; -1 once a limit is passed or libxml2 has failed, so it reads no further.
    func read(into buffer: UnsafeMutablePointer<CChar>, count: Int) -> Int32 {
        guard refusal == nil, firstFatal == nil else { return -1 }
        let length = min(count, bytes.count - offset)
        guard length > 0 else { return 0 }
        return bytes.withUnsafeBytes { all -> Int32 in
            let chunk = UnsafeRawBufferPointer(rebasing: all[offset..<offset + length])
            do throws(XMLStructureScanner.Refusal) { try scanner.scan(chunk) } catch {
                refusal = error
                return -1
            }
            UnsafeMutableRawPointer(buffer).copyMemory(from: chunk.baseAddress!, byteCount: length)
            offset += length
            return Int32(length)
        }
    }
}
