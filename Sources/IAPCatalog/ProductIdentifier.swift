/// App Store Connect's rules for product IDs: letters, digits, `.`, `_`, `-`, at most 100 characters, and not
/// starting with a period (which also keeps an ID from naming `.`, `..` or a hidden file when it names a file).
public enum ProductIdentifier {
    public static let maximumLength = 100

    /// What is wrong with `id`, or nil when App Store Connect accepts it.
    public static func problem(with id: String) -> String? {
        if id.isEmpty { return "the product ID is empty" }
        if id.count > maximumLength {
            return "the product ID has \(id.count) characters; App Store Connect allows at most \(maximumLength)"
        }
        if id.hasPrefix(".") {
            return "the product ID `\(id)` starts with a period; start it with a letter or digit"
        }
        if let bad = id.unicodeScalars.first(where: { !isAllowed($0) }) {
            let shown = bad.properties.isWhitespace ? "a space" : "`\(bad)`"
            return "the product ID `\(id)` contains \(shown); use only letters A-Z a-z, digits, `.`, `_` and `-`"
        }
        return nil
    }

    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", ".", "_", "-": return true
        default: return false
        }
    }
}
