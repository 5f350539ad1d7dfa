import Foundation
import IAPCore
import Yams

/// Loads `catalog.yaml` (or JSON) into a `Catalog`. Problems with the file's shape (a wrong type, a missing
/// required key, an unknown key) are `schema` findings, so one run reports all of them; a file that is not YAML
/// at all throws `IAPKitError.malformed`.
public enum CatalogLoader {
    /// Reads and loads a catalog file.
    public static func load(path: String, findings: @escaping FindingConsumer) throws(IAPKitError) -> Catalog {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .io(path: path, reason: "does not exist (run `iapkit init` to create a starter catalog)")
        }
        return try load(data: InputFile.read(path, limit: InputFile.Limit.catalog), file: path, findings: findings)
    }

    /// Loads a catalog from bytes; `file` names it in findings and errors.
    public static func load(data: Data, file: String, findings: @escaping FindingConsumer) throws(IAPKitError) -> Catalog {
        var bytes = data
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let text = String(data: bytes, encoding: .utf8) else {
            throw .malformed(location: SourceLocation(file: file), reason: "is not UTF-8 text; a catalog is a YAML or JSON file")
        }
        if text.allSatisfy({ $0.isWhitespace }) {
            throw .malformed(location: SourceLocation(file: file, line: 1),
                             reason: "is empty; a catalog needs at least `schemaVersion`, `app` and `products` (see `iapkit init`)")
        }
        let root: Node
        do {
            // Resolver.basic reads every scalar as a string: the loader types values by what each key needs,
            // so `locale: no` stays Norwegian and `productId: 1234` stays an ID.
            guard let node = try Yams.compose(yaml: text, .basic) else {
                throw IAPKitError.malformed(location: SourceLocation(file: file, line: 1), reason: "holds no YAML document")
            }
            root = node
        } catch let error as IAPKitError {
            throw error
        } catch let error as YamlError {
            throw describe(error, file: file)
        } catch {
            throw .malformed(location: SourceLocation(file: file), reason: "is not valid YAML: \(error)")
        }
        guard case .mapping = root else {
            throw .malformed(location: SourceLocation(file: file, line: root.mark?.line ?? 1, column: root.mark?.column),
                             reason: "is not a catalog: the top level must be a mapping with `schemaVersion`, `app` and `products`")
        }
        var catalog = Catalog(file: file, schemaVersion: nil)
        catalog.tree = SourceTree(root)
        let reader = NodeReader(catalog: catalog, consumer: findings)
        try reader.readCatalog(root, into: &catalog)
        return catalog
    }

    static func describe(_ error: YamlError, file: String) -> IAPKitError {
        func at(_ mark: Mark, _ problem: String, _ context: YamlError.Context?) -> IAPKitError {
            var reason = "is not valid YAML: \(problem)"
            if let context { reason += " \(context.text) (line \(context.mark.line))" }
            return .malformed(location: SourceLocation(file: file, line: mark.line, column: mark.column), reason: reason)
        }
        switch error {
        case let .scanner(context, problem, mark, _): return at(mark, problem, context)
        case let .parser(context, problem, mark, _): return at(mark, problem, context)
        case let .composer(context, problem, mark, _): return at(mark, problem, context)
        case let .reader(problem, offset, _, yaml):
            var location = SourceLocation(file: file)
            if let offset {
                let prefix = yaml.utf8.prefix(offset)
                location.line = prefix.reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
            }
            return .malformed(location: location, reason: "is not valid YAML: \(problem)")
        case let .duplicatedKeysInMapping(duplicates, context):
            return .malformed(location: SourceLocation(file: file, line: context.mark.line, column: context.mark.column),
                              reason: "repeats the key \(duplicates.joined(separator: ", "))")
        default:
            return .malformed(location: SourceLocation(file: file), reason: "is not valid YAML: \(error)")
        }
    }
}

/// Reads nodes into the model, reporting every shape problem as a `schema` finding.
final class NodeReader {
    static let schemaRule = "schema"
    /// Aliases share nodes, so a small file can stand for an enormous tree; stop well before that hurts.
    static let valueBudget = 2_000_000

    let catalog: Catalog
    let consumer: FindingConsumer
    var visited = 0
    /// The product being read, so a shape problem inside it names the product as every other finding does.
    var productID: String?

    init(catalog: Catalog, consumer: @escaping FindingConsumer) {
        self.catalog = catalog
        self.consumer = consumer
    }

    func report(_ message: String, at path: CatalogPath, location: SourceLocation? = nil, rule: String = schemaRule) {
        consumer(Finding(ruleID: rule, severity: .error, message: message, location: location ?? catalog.location(of: path),
                         path: path.description, productID: productID))
    }

    func count() throws(IAPKitError) {
        visited += 1
        if visited > Self.valueBudget {
            throw .malformed(location: SourceLocation(file: catalog.file),
                             reason: "expands to more than \(Self.valueBudget) values (YAML aliases?); refusing to read it")
        }
    }

    // MARK: Objects

    /// One mapping being read: remembers which keys were used, then reports the rest as unknown.
    final class Object {
        let reader: NodeReader
        let path: CatalogPath
        let what: String
        var pairs: [(key: String, value: Node)] = []
        var allowed: [String]
        var valid: Bool

        init(_ node: Node, path: CatalogPath, what: String, allowed: [String], reader: NodeReader) throws(IAPKitError) {
            self.reader = reader
            self.path = path
            self.what = what
            self.allowed = allowed
            try reader.count()
            guard case let .mapping(mapping) = node else {
                valid = false
                reader.report("\(what) must be a mapping of keys to values, not \(NodeReader.kind(of: node))", at: path)
                return
            }
            valid = true
            var seen = Set<String>()
            for pair in mapping {
                guard let key = pair.key.scalar?.string else {
                    reader.report("\(what) has a key that is not a plain name", at: path)
                    continue
                }
                if !seen.insert(key).inserted {
                    reader.report("`\(key)` appears twice in \(what); keep one", at: path / key,
                                  location: reader.catalog.keyLocation(parent: path, key: key))
                    continue
                }
                pairs.append((key, pair.value))
            }
        }

        func node(_ key: String) -> Node? {
            guard let value = pairs.first(where: { $0.key == key })?.value else { return nil }
            if case let .scalar(scalar) = value, NodeReader.isNull(scalar) { return nil }
            return value
        }

        /// Reports keys this object does not know, with the nearest known key as a suggestion.
        func finish() {
            guard valid else { return }
            for (key, _) in pairs where !allowed.contains(key) {
                var message = "unknown key `\(key)` in \(what)"
                if let suggestion = Suggestions.nearest(to: key, in: allowed) {
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

        func list<T>(_ key: String, required: Bool = false,
                     _ item: (Node, CatalogPath) throws(IAPKitError) -> T?) throws(IAPKitError) -> [T] {
            guard let node = required ? require(key) : node(key) else { return [] }
            guard case let .sequence(sequence) = node else {
                reader.report("`\(key)` must be a list, not \(NodeReader.kind(of: node))", at: path / key)
                return []
            }
            var result: [T] = []
            result.reserveCapacity(sequence.count)
            for (index, element) in sequence.enumerated() {
                if let value = try item(element, path / key + index) { result.append(value) }
            }
            return result
        }

        func object(_ key: String, what: String, allowed: [String]) throws(IAPKitError) -> Object? {
            guard let node = node(key) else { return nil }
            return try Object(node, path: path / key, what: what, allowed: allowed, reader: reader)
        }
    }

    // MARK: Scalars

    static func isNull(_ scalar: Node.Scalar) -> Bool {
        scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    static func kind(of node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar: return "a single value"
        case .alias: return "an alias"
        }
    }

    func string(_ node: Node, at path: CatalogPath) -> String? {
        guard case let .scalar(scalar) = node else {
            report("`\(path.lastKey)` must be text, not \(Self.kind(of: node))", at: path)
            return nil
        }
        return scalar.string
    }

    func int(_ node: Node, at path: CatalogPath) -> Int? {
        guard case let .scalar(scalar) = node, scalar.style == .plain, let value = Int(scalar.string) else {
            report("`\(path.lastKey)` must be a whole number, not \(describe(node))", at: path)
            return nil
        }
        return value
    }

    func bool(_ node: Node, at path: CatalogPath) -> Bool? {
        if case let .scalar(scalar) = node, scalar.style == .plain {
            switch scalar.string {
            case "true", "True", "TRUE": return true
            case "false", "False", "FALSE": return false
            case "yes", "Yes", "YES", "on", "On", "ON":
                report("`\(path.lastKey)` must be true or false; write `true` instead of `\(scalar.string)`", at: path)
                return nil
            case "no", "No", "NO", "off", "Off", "OFF":
                report("`\(path.lastKey)` must be true or false; write `false` instead of `\(scalar.string)`", at: path)
                return nil
            default: break
            }
        }
        report("`\(path.lastKey)` must be true or false, not \(describe(node))", at: path)
        return nil
    }

    func price(_ node: Node, at path: CatalogPath) -> Price? {
        guard case let .scalar(scalar) = node, let price = Price(text: scalar.string) else {
            report("`\(path.lastKey)` must be a USD amount such as 0.99, not \(describe(node))", at: path)
            return nil
        }
        return price
    }

    func describe(_ node: Node) -> String {
        if case let .scalar(scalar) = node {
            return scalar.style == .plain ? "`\(scalar.string)`" : "the text \"\(scalar.string)\""
        }
        return Self.kind(of: node)
    }
}

extension CatalogPath {
    /// The last key of the path, for messages about a value.
    var lastKey: String {
        for component in components.reversed() { if case let .key(key) = component { return key } }
        return description
    }

    static func + (path: CatalogPath, index: Int) -> CatalogPath { path.index(index) }
}
