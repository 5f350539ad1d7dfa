import IAPCore

/// One key of the catalog format, declared once: its name, what its value may be, whether an object must have it,
/// and what it means. The loader's key checks (`CatalogKeys`), the writer's key order, `schemas/catalog.schema.json`
/// and the catalog reference (`docs/catalog-reference.md`, written from the schema) all come from these
/// declarations (`CatalogFormat`).
public struct CatalogKey: Sendable {
    public let name: String
    public let value: CatalogValue
    public let required: Bool
    public let description: String?

    public init(_ name: String, _ value: CatalogValue, required: Bool = false, _ description: String? = nil) {
        self.name = name
        self.value = value
        self.required = required
        self.description = description
    }
}

/// An object of the catalog: its keys, in the order iapkit writes them. Keys it does not declare are refused.
public struct CatalogObject: Sendable {
    public let keys: [CatalogKey]
    /// An object that names exactly one of its keys (an asset pack's file or directory).
    public let exactlyOne: Bool

    /// The key names, in the writer's order: what the loader allows in this object. Stored, not computed: the
    /// loader asks for them at every object it reads.
    public let names: [String]

    public init(_ keys: [CatalogKey], exactlyOne: Bool = false) {
        self.keys = keys
        self.exactlyOne = exactlyOne
        names = keys.map(\.name)
    }

    /// Where `name` comes in the writer's order.
    public func position(of name: String) -> Int? { names.firstIndex(of: name) }
}

/// What a key's value may be, in the terms of JSON Schema (draft 2020-12), which the schema is written in.
public indirect enum CatalogValue: Sendable {
    case boolean
    case string(pattern: String? = nil, maxLength: Int? = nil)
    case integer(minimum: Int? = nil, maximum: Int? = nil)
    /// An amount written as a number or a decimal string (`4.99`, `"4.99"`): not below zero.
    case amount
    /// An id App Store Connect gives, written as digits or as a number.
    case digits
    /// One of the listed words.
    case choice([String])
    /// One of the listed numbers.
    case numbers([Int])
    case constant(JSONValue)
    case list(CatalogValue, unique: Bool = false, minimum: Int? = nil, maximum: Int? = nil)
    case object(CatalogObject)
    /// A mapping whose keys match `keyPattern`, each to a value of `values` (`territoryPrices`).
    case mapping(keyPattern: String, values: CatalogValue, minimum: Int? = nil)
    /// Exactly one of the forms.
    case oneOf([CatalogValue])
    /// A definition of `CatalogFormat.definitions`, or a key within one: `subscription/properties/introductoryOffer`.
    case reference(String)

    public static let string = CatalogValue.string()

    /// One of the words of a model's enumeration, so the words the loader takes and the schema lists are one list.
    public static func choice<Words: CaseIterable & RawRepresentable>(of words: Words.Type) -> CatalogValue where Words.RawValue == String {
        .choice(words.allCases.map(\.rawValue))
    }

    /// The value as a JSON Schema, with `description` (the key's) last.
    func schema(description: String? = nil) -> JSONValue {
        var pairs: [(String, JSONValue)]
        switch self {
        case .boolean: pairs = [("type", .string("boolean"))]
        case let .string(pattern, maxLength):
            pairs = [("type", .string("string"))]
            if let pattern { pairs.append(("pattern", .string(pattern))) }
            if let maxLength { pairs.append(("maxLength", .int(maxLength))) }
        case let .integer(minimum, maximum):
            pairs = [("type", .string("integer"))]
            if let minimum { pairs.append(("minimum", .int(minimum))) }
            if let maximum { pairs.append(("maximum", .int(maximum))) }
        case .amount:
            pairs = [("type", .array([.string("number"), .string("string")])), ("minimum", .int(0)), ("pattern", .string(#"^\d+(\.\d+)?$"#))]
        case .digits:
            pairs = [("type", .array([.string("string"), .string("integer")])), ("pattern", .string("^[0-9]+$"))]
        case let .choice(words): pairs = [("enum", .array(words.map(JSONValue.string)))]
        case let .numbers(numbers): pairs = [("enum", .array(numbers.map(JSONValue.int)))]
        case let .constant(value): pairs = [("const", value)]
        case let .list(item, unique, minimum, maximum):
            pairs = [("type", .string("array"))]
            if unique { pairs.append(("uniqueItems", .bool(true))) }
            if let minimum { pairs.append(("minItems", .int(minimum))) }
            if let maximum { pairs.append(("maxItems", .int(maximum))) }
            pairs.append(("items", item.schema()))
        case let .object(object):
            pairs = [("type", .string("object")), ("additionalProperties", .bool(false))]
            let required = object.keys.filter(\.required).map { JSONValue.string($0.name) }
            if !required.isEmpty { pairs.append(("required", .array(required))) }
            if object.exactlyOne { pairs += [("minProperties", .int(1)), ("maxProperties", .int(1))] }
            pairs.append(("properties", .object(object.keys.map { ($0.name, $0.value.schema(description: $0.description)) })))
        case let .mapping(keyPattern, values, minimum):
            pairs = [
                ("type", .string("object")), ("propertyNames", .object([("pattern", .string(keyPattern))])),
                ("additionalProperties", values.schema()),
            ]
            if let minimum { pairs.append(("minProperties", .int(minimum))) }
        case let .oneOf(forms): pairs = [("oneOf", .array(forms.map { $0.schema() }))]
        case let .reference(name): pairs = [("$ref", .string("#/$defs/" + name))]
        }
        if let description { pairs.append(("description", .string(description))) }
        return .object(pairs)
    }
}

/// A named part of the format that several keys share (`$defs` in the schema).
public struct CatalogDefinition: Sendable {
    public let name: String
    public let value: CatalogValue
    public let description: String?

    public init(_ name: String, _ value: CatalogValue, _ description: String? = nil) {
        self.name = name
        self.value = value
        self.description = description
    }
}

extension CatalogFormat {
    /// The catalog's JSON Schema, as `schemas/catalog.schema.json` holds it (`iapkit lint schema` prints it).
    public static var schema: JSONValue {
        guard case let .object(pairs) = CatalogValue.object(root).schema() else { return .null }
        return .object(
            [
                ("$schema", .string("https://json-schema.org/draft/2020-12/schema")), ("$id", .string("catalog.schema.json")),
                ("title", .string("iapkit catalog (schema version 1)")), ("description", .string(description)),
            ] + pairs + [("$defs", .object(definitions.map { ($0.name, $0.value.schema(description: $0.description)) }))])
    }
}
