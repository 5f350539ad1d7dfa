/// The path of a value inside the catalog, e.g. `subscriptionGroups[0].subscriptions[1].price`.
///
/// A path is a link to its last component, which points to its parent: extending a path costs one small
/// allocation and shares the parent, where an array of components would copy (and retain) all of it. Every
/// product, localization and offer keeps one, so this is what a 10,000-product catalog pays for its paths.
public struct CatalogPath: Hashable, Sendable, CustomStringConvertible {
    public enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    private final class Link: Sendable {
        let parent: Link?
        let component: Component
        let depth: Int

        init(parent: Link?, component: Component) {
            self.parent = parent
            self.component = component
            depth = (parent?.depth ?? 0) + 1
        }
    }

    private let last: Link?

    private init(last: Link?) { self.last = last }

    public init(_ components: [Component] = []) {
        var last: Link?
        for component in components { last = Link(parent: last, component: component) }
        self.last = last
    }

    public static let root = CatalogPath()

    /// From the root to the value.
    public var components: [Component] {
        var components: [Component] = []
        components.reserveCapacity(last?.depth ?? 0)
        var link = last
        while let current = link {
            components.append(current.component)
            link = current.parent
        }
        return components.reversed()
    }

    public func key(_ key: String) -> CatalogPath { CatalogPath(last: Link(parent: last, component: .key(key))) }
    public func index(_ index: Int) -> CatalogPath { CatalogPath(last: Link(parent: last, component: .index(index))) }
    public static func / (path: CatalogPath, key: String) -> CatalogPath { path.key(key) }

    /// The last key of the path, for messages about a value.
    public var lastKey: String {
        var link = last
        while let current = link {
            if case let .key(key) = current.component { return key }
            link = current.parent
        }
        return description
    }

    public static func == (lhs: CatalogPath, rhs: CatalogPath) -> Bool {
        var left = lhs.last, right = rhs.last
        while true {
            if left === right { return true }
            guard let l = left, let r = right, l.depth == r.depth, l.component == r.component else { return false }
            left = l.parent
            right = r.parent
        }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(components) }

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
