import IAPCore

/// A `ContentVersion`: integers separated by periods, as Apple requires ("1.0", "1.0.1", "2").
public struct ContentVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let components: [Int]

    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 9, part.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(part) else { return nil }
            numbers.append(number)
        }
        guard !numbers.isEmpty else { return nil }
        components = numbers
    }

    public init(components: [Int]) { self.components = components }

    public var description: String { components.map(String.init).joined(separator: ".") }

    public static func < (lhs: ContentVersion, rhs: ContentVersion) -> Bool {
        for index in 0..<max(lhs.components.count, rhs.components.count) {
            let l = index < lhs.components.count ? lhs.components[index] : 0
            let r = index < rhs.components.count ? rhs.components[index] : 0
            if l != r { return l < r }
        }
        return false
    }

    public enum Bump: String, Sendable, CaseIterable {
        case major, minor, patch
    }

    /// `patch`: 1.0 -> 1.0.1, 1.0.1 -> 1.0.2; `minor`: 1.0.1 -> 1.1; `major`: 1.4 -> 2.0.
    public func bumped(_ bump: Bump) -> ContentVersion {
        func part(_ index: Int) -> Int { index < components.count ? components[index] : 0 }
        switch bump {
        case .major: return ContentVersion(components: [part(0) + 1, 0])
        case .minor: return ContentVersion(components: [part(0), part(1) + 1])
        case .patch: return ContentVersion(components: [part(0), part(1), part(2) + 1])
        }
    }

    public static let invalidHint = "a content version is integers separated by periods, such as 1.0 or 1.0.1"
}
