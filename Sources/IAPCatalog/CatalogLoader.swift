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

/// Loads `catalog.yaml` (or JSON) into a `Catalog`. Problems with the file's shape (a wrong type, a missing
/// required key, an unknown key) are `schema` findings, so one run reports all of them; a file that is not YAML
/// at all throws `IAPKitError.malformed`.
public enum CatalogLoader {
    /// Reads and loads a catalog file.
    /// `threads` reads a large catalog's products on that many threads; nil chooses by the machine and the size.
    public static func load(path: String, threads: Int? = nil, findings: @escaping FindingConsumer) throws(IAPKitError) -> Catalog {
        guard FileManager.default.fileExists(atPath: path) else {
            if let near = nearbyCatalog(to: path) { throw .io(path: path, reason: "does not exist; did you mean \(near)?") }
            throw .io(path: path, reason: "does not exist (run `iapkit init` to create a starter catalog)")
        }
        // The file's bytes are let go once the document holds what it needs, before the model is read: a large
        // catalog's text and its model are never in memory together.
        let (catalog, document) = try parse(data: InputFile.read(path, limit: InputFile.Limit.catalog), file: path)
        return try read(catalog, document: document, threads: threads, findings: findings)
    }

    /// A YAML or JSON file in the same folder whose name is a plausible typo of `path`'s (`catalgo.yaml` for
    /// `catalog.yaml`), written as `path` would be; nil when there is none.
    static func nearbyCatalog(to path: String) -> String? {
        let folder = Path.parent(path)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return nil }
        let candidates = names.filter { ["yaml", "yml", "json"].contains(Path.pathExtension($0).lowercased()) }.sorted()
        return Suggestions.nearest(to: Path.lastComponent(path), in: candidates).map { Path.join(folder, $0) }
    }

    /// Loads a catalog from bytes; `file` names it in findings and errors.
    public static func load(data: Data, file: String, threads: Int? = nil, findings: @escaping FindingConsumer) throws(IAPKitError) -> Catalog {
        let (catalog, document) = try parse(data: data, file: file)
        return try read(catalog, document: document, threads: threads, findings: findings)
    }

    /// The YAML document of a catalog file and a catalog holding only what the text alone tells (its disable comments).
    private static func parse(data: Data, file: String) throws(IAPKitError) -> (Catalog, YAMLDocument) {
        var bytes = data
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard bytes.withUnsafeBytes({ UTF8Check.isValid($0) }) else {
            throw .malformed(location: SourceLocation(file: file), reason: "is not UTF-8 text; a catalog is a YAML or JSON file")
        }
        if UTF8Check.isBlank(bytes) {
            throw .malformed(
                location: SourceLocation(file: file, line: 1),
                reason: "is empty; a catalog needs at least `schemaVersion`, `app` and `products` (see `iapkit init`)")
        }
        // libyaml reads the bytes in place; the builder keeps only a compact arena of what it read.
        let built = bytes.withUnsafeBytes { raw -> Result<YAMLDocument?, YAMLDocumentBuilder.Failure> in
            do throws(YAMLDocumentBuilder.Failure) {
                return .success(try YAMLDocumentBuilder.build(raw.bindMemory(to: UInt8.self)))
            } catch {
                return .failure(error)
            }
        }
        let document: YAMLDocument
        switch built {
        case let .success(built?): document = built
        case .success(nil):
            throw .malformed(location: SourceLocation(file: file, line: 1), reason: "holds no YAML document")
        case let .failure(failure):
            throw .malformed(location: SourceLocation(file: file, line: failure.line, column: failure.column), reason: failure.reason)
        }
        let root = document.root
        guard document.kind(root) == .mapping else {
            throw .malformed(
                location: SourceLocation(file: file, line: document.line(root), column: document.column(root)),
                reason: "is not a catalog: the top level must be a mapping with `schemaVersion`, `app` and `products`")
        }
        var catalog = Catalog(file: file, schemaVersion: nil)
        catalog.document = document
        // libyaml drops comments; the few that accept findings are found in the text itself.
        catalog.disableComments = bytes.withUnsafeBytes { DisableComment.scan($0.bindMemory(to: UInt8.self)) }
        return (catalog, document)
    }

    /// Reads the model from the document, reporting every shape problem to `findings`.
    private static func read(
        _ parsed: Catalog, document: YAMLDocument, threads: Int?,
        findings: @escaping FindingConsumer
    ) throws(IAPKitError) -> Catalog {
        var catalog = parsed
        let root = document.root
        let reader = NodeReader(catalog: catalog, document: document, consumer: findings)
        reader.threads = threads
        try reader.readCatalog(root, into: &catalog)
        catalog.sheetLocations = reader.sheetLocations
        return catalog
    }
}

/// A node of the catalog's YAML: the readers below take and pass these.
typealias Node = YAMLDocument.NodeID

/// Reads nodes into the model, reporting every shape problem as a `schema` finding.
final class NodeReader {
    static let schemaRule = "schema"
    /// Aliases share nodes, so a small file can stand for an enormous tree; stop well before that hurts.
    static let valueBudget = 2_000_000

    let catalog: Catalog
    /// The document, held so that its arena stays while it is read.
    let source: YAMLDocument
    /// What every read looks at: the document's arena, which several threads read at once without touching the
    /// document's reference count.
    let document: YAMLDocument.Nodes
    let consumer: FindingConsumer
    var visited = 0
    /// The product being read, so a shape problem inside it names the product as every other finding does.
    var productID: String?
    /// Where each price-sheet row is, by its path (`products[0].priceSheet[3]`).
    var sheetLocations: [CatalogPath: SourceLocation] = [:]
    /// How many threads read the products: nil chooses by the machine and the catalog's size.
    var threads: Int?
    /// Where a reader of one thread's share keeps its findings.
    var buffer: FindingCollector?

    init(catalog: Catalog, document: YAMLDocument, consumer: @escaping FindingConsumer) {
        self.catalog = catalog
        source = document
        self.document = document.nodes
        self.consumer = consumer
    }

    func report(_ message: String, at path: CatalogPath, location: SourceLocation? = nil, rule: String = schemaRule) {
        consumer(
            Finding(
                ruleID: rule, severity: .error, message: message, location: location ?? sheetLocations[path] ?? catalog.location(of: path),
                path: path.description, productID: productID))
    }

    func count() throws(IAPKitError) {
        visited += 1
        if visited > Self.valueBudget {
            throw .malformed(
                location: SourceLocation(file: catalog.file),
                reason: "expands to more than \(Self.valueBudget) values (YAML aliases?); refusing to read it")
        }
    }

    // MARK: Objects

    /// One mapping being read: remembers which keys were used, then reports the rest as unknown. Keys are
    /// compared as bytes in the document; a key becomes a String only for a message.
    final class Object {
        let reader: NodeReader
        let path: CatalogPath
        let what: String
        /// The mapping's keys and values, alternating, as the document holds them.
        let items: UnsafeBufferPointer<Node>
        /// Bit `n % 64` is set when some key is `n` bytes long: most lookups are for keys the mapping does not have,
        /// and their length alone rules most of them out.
        private var keyLengths: UInt64 = 0
        var allowed: [String]
        var valid: Bool

        init(_ node: Node, path: CatalogPath, what: String, allowed: [String], reader: NodeReader) throws(IAPKitError) {
            self.reader = reader
            self.path = path
            self.what = what
            self.allowed = allowed
            try reader.count()
            let document = reader.document
            guard document.kind(node) == .mapping else {
                valid = false
                items = UnsafeBufferPointer(start: nil, count: 0)
                reader.report("\(what) must be a mapping of keys to values, not \(reader.kind(of: node))", at: path)
                return
            }
            valid = true
            // The document builder has already refused a mapping that repeats a key.
            items = document.items(node)
            var index = items.startIndex
            while index < items.endIndex {
                if document.isScalar(items[index]) {
                    keyLengths |= Self.lengthBit(document.length(items[index]))
                } else {
                    reader.report("\(what) has a key that is not a plain name", at: path)
                }
                index += 2
            }
        }

        private static func lengthBit(_ length: Int) -> UInt64 { 1 << UInt64(length & 63) }

        func node(_ key: String) -> Node? {
            guard keyLengths & Self.lengthBit(key.utf8.count) != 0 else { return nil }
            let document = reader.document
            var index = items.startIndex
            while index < items.endIndex {
                if document.scalar(items[index], equals: key) {
                    let value = items[index + 1]
                    return reader.isNull(value) ? nil : value
                }
                index += 2
            }
            return nil
        }

        /// Reports keys this object does not know, with the nearest known key as a suggestion.
        func finish() {
            guard valid else { return }
            let document = reader.document
            var index = items.startIndex
            while index < items.endIndex {
                defer { index += 2 }
                let keyNode = items[index]
                guard document.isScalar(keyNode), !document.scalar(keyNode, isOneOf: allowed) else { continue }
                let key = document.string(keyNode)
                var message = "unknown key `\(key)` in \(what)"
                if let hint = CatalogKeys.hints[key]?.suggestion(for: key, within: allowed) {
                    message += "; " + hint
                } else if let suggestion = Suggestions.nearest(to: key, in: allowed) {
                    message += "; did you mean `\(suggestion)`?"
                } else {
                    message += "; allowed keys: \(allowed.joined(separator: ", "))"
                }
                reader.report(message, at: path / key, location: reader.catalog.keyLocation(parent: path, key: key))
            }
        }

        func require(_ key: String) -> Node? {
            guard valid else { return nil }
            if let value = node(key) { return value }
            reader.report("\(what) is missing the required key `\(key)`", at: path)
            return nil
        }

        func string(_ key: String, required: Bool = false) -> String? {
            guard let node = required ? require(key) : node(key) else { return nil }
            return reader.string(node, at: path / key)
        }

        func int(_ key: String, required: Bool = false) -> Int? {
            guard let node = required ? require(key) : node(key) else { return nil }
            return reader.int(node, at: path / key)
        }

        func bool(_ key: String) -> Bool? {
            guard let node = node(key) else { return nil }
            return reader.bool(node, at: path / key)
        }

        func price(_ key: String) -> Price? {
            guard let node = node(key) else { return nil }
            return reader.price(node, at: path / key)
        }

        func list<T>(
            _ key: String, required: Bool = false,
            _ item: (Node, CatalogPath) throws(IAPKitError) -> T?
        ) throws(IAPKitError) -> [T] {
            guard let node = required ? require(key) : node(key) else { return [] }
            guard reader.document.kind(node) == .sequence else {
                reader.report("`\(key)` must be a list, not \(reader.kind(of: node))", at: path / key)
                return []
            }
            let sequence = reader.document.items(node)
            var result: [T] = []
            result.reserveCapacity(sequence.count)
            let listPath = path / key
            for (index, element) in sequence.enumerated() {
                if let value = try item(element, listPath + index) { result.append(value) }
            }
            return result
        }

        func object(_ key: String, what: String, allowed: [String]) throws(IAPKitError) -> Object? {
            guard let node = node(key) else { return nil }
            return try Object(node, path: path / key, what: what, allowed: allowed, reader: reader)
        }
    }

    // MARK: Scalars

    static let nullWords = ["", "~", "null", "Null", "NULL"]

    func isNull(_ node: Node) -> Bool {
        document.isScalar(node) && document.isPlain(node) && document.length(node) <= 4
            && Self.nullWords.contains { document.scalar(node, equals: $0) }
    }

    func kind(of node: Node) -> String {
        switch document.kind(node) {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar: return "a single value"
        }
    }

    /// The paths below are built only when a finding needs one: most values are fine.
    func string(_ node: Node, at path: @autoclosure () -> CatalogPath) -> String? {
        guard document.isScalar(node) else {
            let path = path()
            report("`\(path.lastKey)` must be text, not \(kind(of: node))", at: path)
            return nil
        }
        return document.string(node)
    }

    func int(_ node: Node, at path: @autoclosure () -> CatalogPath) -> Int? {
        guard document.isScalar(node), document.isPlain(node), let value = Int(document.string(node)) else {
            let path = path()
            report("`\(path.lastKey)` must be a whole number, not \(describe(node))", at: path)
            return nil
        }
        return value
    }

    func bool(_ node: Node, at path: @autoclosure () -> CatalogPath) -> Bool? {
        if document.isScalar(node), document.isPlain(node) {
            let text = document.string(node)
            switch text {
            case "true", "True", "TRUE": return true
            case "false", "False", "FALSE": return false
            case "yes", "Yes", "YES", "on", "On", "ON":
                let path = path()
                report("`\(path.lastKey)` must be true or false; write `true` instead of `\(text)`", at: path)
                return nil
            case "no", "No", "NO", "off", "Off", "OFF":
                let path = path()
                report("`\(path.lastKey)` must be true or false; write `false` instead of `\(text)`", at: path)
                return nil
            default: break
            }
        }
        let path = path()
        report("`\(path.lastKey)` must be true or false, not \(describe(node))", at: path)
        return nil
    }

    /// A USD amount, or with `territory` an amount in that territory's own currency (`GBR: 4.99` is pounds).
    func price(_ node: Node, at path: @autoclosure () -> CatalogPath, territory: String? = nil) -> Price? {
        guard document.isScalar(node), let price = Price(text: document.string(node)) else {
            let path = path()
            let what = territory.map(Storefronts.amountDescription(in:)) ?? "a USD amount such as 0.99"
            let hint = Self.amountHint(document.isScalar(node) ? document.string(node) : "")
            report("`\(path.lastKey)` must be \(what), not \(describe(node))\(hint)", at: path)
            return nil
        }
        return price
    }

    /// What to write instead of an amount that holds a number: `14,90` takes a point, `£1.99` or `99 INR` the
    /// number alone.
    static func amountHint(_ text: String) -> String {
        guard text.contains(where: \.isNumber) else { return "" }
        let rest = text.filter { !$0.isNumber && $0 != "." && $0 != " " }
        if rest == "," { return "; write the decimal separator as a point (14.90)" }
        let currency = !rest.isEmpty && rest.allSatisfy { $0.isLetter || $0.isCurrencySymbol }
        return currency && Price(text: text.filter { $0.isNumber || $0 == "." }) != nil ? "; write the number alone, without its currency" : ""
    }

    func describe(_ node: Node) -> String {
        if document.isScalar(node) {
            let text = document.string(node)
            return document.isPlain(node) ? "`\(text)`" : "the text \"\(text)\""
        }
        return kind(of: node)
    }
}

extension CatalogPath {
    static func + (path: CatalogPath, index: Int) -> CatalogPath { path.index(index) }
}
