import IAPCatalog

/// The App Store's territories (ISO 3166-1 alpha-3), for `export asc`, which plans against an app with no products
/// without asking App Store Connect. `push` and `plan` use the live list from `GET /v1/territories`; a test keeps
/// `Storefronts` equal to the table the project's fake App Store Connect serves.
public enum Territories {
    public static let all: [String] = Storefronts.codes
}
