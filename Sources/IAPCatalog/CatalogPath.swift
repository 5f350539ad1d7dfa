/// The path of a value inside the catalog, e.g. `subscriptionGroups[0].subscriptions[1].price`.
public struct CatalogPath: Hashable, Sendable, CustomStringConvertible {
    public enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]

    public init(_ components: [Component] = []) { self.components = components }

    public static let root = CatalogPath()

    public func key(_ key: String) -> CatalogPath { CatalogPath(components + [.key(key)]) }
    public func index(_ index: Int) -> CatalogPath { CatalogPath(components + [.index(index)]) }
    public static func / (path: CatalogPath, key: String) -> CatalogPath { path.key(key) }

    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case let .key(key): text += text.isEmpty ? key : ".\(key)"
            case let .index(index): text += "[\(index)]"
            }
        }
        return text
    }
}
