// swift-tools-version:6.1
import PackageDescription

// The libraries do the work and never print; `iapkit` parses arguments and prints.
// C libraries come from the system (Debian's -dev packages, Homebrew on macOS).
// No module links full Foundation on Linux: FoundationEssentials only, so the release binary carries no ICU data
// (36 MB). OpenAPIRuntime's FullFoundation trait is off, and NIOFoundationEssentialsCompat stands in for
// NIOFoundationCompat, for the same reason.
let package = Package(
    name: "iapkit",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "iapkit", targets: ["iapkit"]),
        .library(name: "IAPLint", targets: ["IAPLint"]),
        .library(name: "FlatPackage", targets: ["FlatPackage"]),
        .library(name: "Packaging", targets: ["Packaging"]),
        .library(name: "CatalogExchange", targets: ["CatalogExchange"]),
        .library(name: "AppStoreConnect", targets: ["AppStoreConnect"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4", traits: []),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // System libraries, found through pkg-config.
        .systemLibrary(
            name: "CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),
        .systemLibrary(
            name: "CLibArchive", pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"]), .brew(["libarchive"])]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .systemLibrary(
            name: "CYAML", pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
        .systemLibrary(
            name: "CYAJL", pkgConfig: "yajl",
            providers: [.apt(["libyajl-dev"]), .brew(["yajl"])]),

        // Findings, locations, typed errors, atomic writes: what every other module shares.
        .target(name: "IAPCore"),
        // XML property lists read and written through libxml2, in Apple's exact layout.
        .target(name: "PropertyList", dependencies: ["IAPCore", "CLibXML2"]),
        // The catalog model, its YAML loader on libyaml events (with source locations) and writer, Apple's reference data;
        // JSON files (StoreKit configurations) read by yajl into the same arena the YAML loader builds.
        .target(name: "IAPCatalog", dependencies: ["IAPCore", "CYAML", "CYAJL"]),
        // Hosted-content folders: ContentInfo.plist, scaffolding, version bumps, inspection, digests.
        .target(
            name: "HostedContent",
            dependencies: [
                "IAPCore", "PropertyList", "IAPCatalog", .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // Asset packs (Background Assets): a pack's manifest from the catalog, its file selection and content digest,
        // and Apple's packaging tool run as a separate process.
        .target(
            name: "AssetPacks",
            dependencies: [
                "IAPCore", "IAPCatalog", "HostedContent", .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // Lint rules over catalogs and content folders, one reporter per output format, and the lint gate (LintGate).
        .target(name: "IAPLint", dependencies: ["IAPCore", "IAPCatalog", "HostedContent", "AssetPacks"]),
        // Upload archive formats: Apple flat packages (xar, Bom, cpio) and zips. Formats only: no catalog, no lint.
        .target(
            name: "FlatPackage",
            dependencies: [
                "IAPCore", "HostedContent", "CLibXML2", "CLibArchive", "CZlib", .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // Catalog files in and out: StoreKit configurations, the server's JSON list, the bundle's product-ID plist.
        .target(name: "CatalogExchange", dependencies: ["IAPCore", "IAPCatalog", "PropertyList"]),
        // The translators' round trip: product texts out as XLIFF 1.2 and CSV, back into the catalog's text with
        // App Store Connect's limits checked as lint checks them.
        .target(name: "Localizations", dependencies: ["IAPCore", "IAPCatalog", "IAPLint", "PropertyList", "CLibXML2"]),
        // App Store Connect API 4.4.1: request and response types and a client, generated from Apple's OpenAPI
        // document by scripts/codegen/generate-asc-api.sh for the operations `iapkit asc` uses (committed, not built here).
        .target(
            name: "AppStoreConnectAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ], exclude: ["openapi-generator-config.yaml"]),
        // The App Store Connect client: credentials, JWTs, retries, errors, pagination, uploads, traces and replay.
        // No catalog knowledge.
        .target(
            name: "AppStoreConnect",
            dependencies: [
                "IAPCore", "AppStoreConnectAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // The content workflows: packaging (content lint, staging, the commit journal, iapkit.lock, the manifest) and
        // an asset pack scaffolded and declared in the catalog.
        .target(name: "Packaging", dependencies: ["IAPCore", "IAPCatalog", "HostedContent", "IAPLint", "FlatPackage", "AssetPacks"]),
        // The sync: catalog and App Store Connect state as records, the plan between them and its report (`Plan/`,
        // pure), one unit per resource kind (`Resources/`), the engine that reads, plans and pushes, and the workflow.
        .target(
            name: "CatalogSync",
            dependencies: [
                "IAPCore", "IAPCatalog", "HostedContent", "IAPLint", "AppStoreConnect", "AppStoreConnectAPI", "AssetPacks",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]),
        .executableTarget(
            name: "iapkit",
            dependencies: [
                "IAPCore", "IAPCatalog", "HostedContent", "IAPLint", "CatalogExchange", "Localizations", "Packaging", "CatalogSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The tests by layer. Paths, temporary folders and the process runner every test target shares.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Pure: the catalog, lint and the formats, through the libraries alone (no binary, no fake, no network).
        .testTarget(
            name: "CatalogTests",
            dependencies: [
                "TestSupport", "IAPCore", "PropertyList", "IAPCatalog", "HostedContent", "IAPLint",
            ]),
        // Pure: the sync plan, prices over time and the App Store Connect client against an in-process transport.
        .testTarget(
            name: "SyncTests",
            dependencies: [
                "TestSupport", "IAPCatalog", "AppStoreConnectAPI", "AppStoreConnect", "CatalogSync",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]),
        // End to end: the built binary, the fake App Store Connect, the independent checkers. Depends on `iapkit` to
        // have the binary built (the tests run it), not to import it.
        .testTarget(
            name: "IAPKitTests",
            dependencies: [
                "iapkit", "TestSupport", "IAPCore", "PropertyList", "IAPCatalog", "HostedContent", "IAPLint", "FlatPackage",
                "CatalogExchange", "AppStoreConnectAPI", "AppStoreConnect", "CatalogSync",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)

// Members come only from modules a file imports itself, so an extension of full Foundation cannot reach a module
// through a dependency that imports it (swift-crypto 3 does) and link Foundation, and ICU, back in.
for target in package.targets where [.regular, .executable].contains(target.type) && target.name != "AppStoreConnectAPI" {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
