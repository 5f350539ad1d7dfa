// swift-tools-version:6.0
import PackageDescription

// `swift package iapkit-lint`: lints the in-app purchase catalog of the package that depends on this one, with the
// prebuilt iapkit from the release's artifact bundle, so none of iapkit's dependencies is built into that package.
//
// The bundle's info.json lists one variant per platform (paths as in the release archives):
//   iapkit-VERSION-macos-universal/bin/iapkit  arm64-apple-macosx, x86_64-apple-macosx
//   iapkit-VERSION-linux-x86_64/bin/iapkit     x86_64-unknown-linux-gnu
//   iapkit-VERSION-linux-aarch64/bin/iapkit    aarch64-unknown-linux-gnu
// `make dist` writes it as dist/iapkit-VERSION.artifactbundle.zip; the release workflow merges every platform's
// and fills in the URL and checksum below. IAPKIT_PLUGIN_LOCAL_BUNDLE=1 takes iapkit.artifactbundle.zip from this
// folder instead (a copy of the one `make dist` wrote), to try a build before it is released.
let version = "0.1.0"
let checksum = "0000000000000000000000000000000000000000000000000000000000000000"
let releases = "https://github.com/iapkit/iapkit/releases/download"

let binary: Target =
    Context.environment["IAPKIT_PLUGIN_LOCAL_BUNDLE"] == "1"
    ? .binaryTarget(name: "iapkit", path: "iapkit.artifactbundle.zip")
    : .binaryTarget(
        name: "iapkit", url: "\(releases)/v\(version)/iapkit-\(version).artifactbundle.zip",
        checksum: checksum)

let package = Package(
    name: "IAPKitPlugin",
    products: [
        .plugin(name: "IAPKitLint", targets: ["IAPKitLint"])
    ],
    targets: [
        .plugin(
            name: "IAPKitLint",
            capability: .command(
                intent: .custom(verb: "iapkit-lint", description: "Lint the package's in-app purchase catalog with iapkit")
            ),
            dependencies: ["iapkit"]
        ),
        binary,
    ]
)
