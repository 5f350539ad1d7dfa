import ArgumentParser
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
import HostedContent
import IAPCatalog
import IAPCore
import IAPLint
import Packaging

struct PackageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "package",
        abstract: "Build upload archives for hosted content: Apple's flat .pkg, or .zip for self-hosted content.",
        discussion: """
            Each folder is linted first; nothing is written when any has errors (exit 1). Archives are named after the \
            product ID and are reproducible (every time is SOURCE_DATE_EPOCH, or 2001-01-01; file modes as git keeps \
            them). iapkit-manifest.json is written beside them, and the digests and versions go to iapkit.lock beside \
            the catalog: the one --catalog names, else the nearest catalog.yaml above the folders (or the lock --lock \
            names). A folder is checked against that catalog and lock as `lint catalog` checks it: a version lower \
            than the lock's, or changed files under the same version, are refused.

            Examples:
              iapkit package --catalog catalog.yaml --output build/iap
              iapkit package content/com.example.app.levels.forest --format zip --md5
              iapkit package --catalog catalog.yaml --asset-packs --output build/packs

            With --asset-packs, each asset pack of the catalog gets its manifest (ID.json) and the archive Apple's tool \
            builds from it (ID.aar): `xcrun ba-package` on macOS; on Linux the ba-package of "Managed Background Assets \
            Developer Tools for Linux", named with --ba-package PATH or IAPKIT_BA_PACKAGE. A pack whose files and \
            manifest did not change since iapkit.lock recorded them is not rebuilt.

            A catalog with no hosted content (or, with --asset-packs, no asset packs) has nothing to package: the \
            command says so and exits 0, so one release job serves every app.
            """
    )

    @Argument(help: "Hosted-content folders (named after their product IDs).")
    var folders: [String] = []

    @Option(help: "Package every hostedContent folder of this catalog, and record digests in iapkit.lock beside it.")
    var catalog: String?

    @Option(help: "The lock to check versions against and record digests in (default: iapkit.lock beside the catalog).")
    var lock: String?

    @Option(name: .shortAndLong, help: "Where to write the archives and iapkit-manifest.json.")
    var output: String = "packages"

    @Option(help: "pkg (Apple flat package, the default) or zip (self-hosted content).")
    var format: Packager.Format = Packager.defaultFormat

    @Option(help: "Compression threads (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(help: "Add each archive's MD5 to the manifest, for upload tools that want it.")
    var md5 = false

    @Flag(help: "Build the catalog's asset packs (.aar, with Apple's packaging tool) instead of hosted content.")
    var assetPacks = false

    @Option(help: "Apple's ba-package tool (or IAPKIT_BA_PACKAGE); on macOS `xcrun ba-package` is found by itself.")
    var baPackage: String?

    func validate() throws {
        if folders.isEmpty && catalog == nil { throw ValidationError("name hosted-content folders, or a catalog with --catalog") }
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if assetPacks && (catalog == nil || !folders.isEmpty) {
            throw ValidationError("--asset-packs packages a catalog's packs: give --catalog and no folders")
        }
        if assetPacks && lock != nil {
            throw ValidationError("--asset-packs records in iapkit.lock beside the catalog, where `asc push` reads it: leave out --lock")
        }
    }

    func run() throws {
        if assetPacks { return try runAssetPacks() }
        let collector = FindingCollector()
        var items: [Packager.Item] = []
        var lockPath = lock
        if let catalog {
            do {
                items = try Packager.items(forCatalog: catalog, findings: collector.consumer)
            } catch {
                try refuse(error, findings: collector.findings)
            }
            lockPath = lock ?? ContentLock.path(forCatalog: catalog)
            // One release job runs for every app: a catalog with no hosted content has nothing to package.
            if items.isEmpty && folders.isEmpty {
                printFindings(collector.findings)
                Terminal.writeError("\(catalog) names no hostedContent folders: nothing to package, nothing written\n")
                return
            }
        }
        // A folder named twice (on the command line and by the catalog, or twice on the command line) is built once,
        // as the catalog's item when it is one, which also checks its product ID.
        var seen = Set(items.map { Path.resolved($0.folder) })
        let named = try Packager.items(forFolders: folders.filter { seen.insert(Path.resolved($0)).inserted }, catalog: catalog, lock: lockPath)
        items = named.items + items
        lockPath = lockPath ?? named.lockPath
        let environment = ProcessInfo.processInfo.environment
        var epoch = Packager.defaultEpoch
        if let text = environment["SOURCE_DATE_EPOCH"] {
            guard let value = Int(text), value >= 0 else {
                throw IAPKitError.invalidArgument("SOURCE_DATE_EPOCH must be a number of seconds, not `\(text)`")
            }
            epoch = value
        }
        let showProgress = Terminal.stderrIsTerminal && environment["CI"] == nil
        let meter = ProgressMeter()
        let packager = Packager(options: .init(outputDirectory: output, format: format, jobs: jobs, epoch: epoch, md5: md5, lockPath: lockPath))
        let outcome = Self.build(packager, items, consumer: collector.consumer, meter: showProgress ? meter : nil)
        let built: [Packager.Built]
        switch outcome {
        case let .success(value):
            built = value
        case let .failure(error):
            if showProgress { meter.clear() }
            try refuse(error, findings: collector.findings)
        }
        if showProgress { meter.clear() }
        printFindings(collector.findings)
        for item in built {
            try Terminal.output("\(item.path)  \(item.size) bytes  sha256 \(item.sha256)\n")
        }
        try Terminal.output("\(Path.join(output, Packager.manifestName))\n")
        if let lockPath { try Terminal.output("recorded content digests in \(lockPath)\n") }
    }

    /// `--asset-packs`: manifests and archives of the catalog's asset packs.
    private func runAssetPacks() throws {
        guard let catalog else { return }
        let collector = FindingCollector()
        let loaded: Catalog
        do throws(IAPKitError) { loaded = try AssetPackPackager.catalog(at: catalog, findings: collector.consumer) } catch {
            try refuse(error, findings: collector.findings)
        }
        printFindings(collector.findings)
        // One release job runs for every app: a catalog with no asset packs has nothing to package.
        if loaded.assetPacks.isEmpty {
            Terminal.writeError("\(catalog) declares no assetPacks: nothing to package, nothing written\n")
            return
        }
        let packager = AssetPackPackager(
            options: .init(
                outputDirectory: output, lockPath: ContentLock.path(forCatalog: catalog),
                toolPath: baPackage, environment: ProcessInfo.processInfo.environment))
        let built = try packager.package(loaded, baseDirectory: Path.parent(catalog))
        for item in built {
            try Terminal.output(
                "\(item.archivePath)  \(item.entry.size) bytes  sha256 \(item.entry.sha256)"
                    + (item.rebuilt ? "" : "  (unchanged, not rebuilt)") + "\n")
        }
        try Terminal.output("\(Path.join(output, Packager.manifestName))\nrecorded asset pack digests in \(ContentLock.path(forCatalog: catalog))\n")
    }

    private static func build(
        _ packager: Packager, _ items: [Packager.Item], consumer: @escaping FindingConsumer,
        meter: ProgressMeter?
    ) -> Result<[Packager.Built], IAPKitError> {
        do {
            return .success(try packager.package(items, findings: consumer, progress: meter?.callback))
        } catch {
            return .failure(error)
        }
    }

    /// Prints the findings, then exits 1 for a refusal (lint errors) and 2 for any other failure.
    private func refuse(_ error: IAPKitError, findings: [Finding]) throws -> Never {
        printFindings(findings)
        if case .refused = error {
            Terminal.error(error.description)
            throw ExitCode(1)
        }
        throw error
    }

    private func printFindings(_ findings: [Finding]) {
        guard !findings.isEmpty else { return }
        Terminal.writeError(
            TextReporter(colour: Terminal.colourAllowed(forTerminal: Terminal.stderrIsTerminal))
                .report(
                    findings.sortedForReport(),
                    context: ReportContext(
                        toolVersion: IAPKitCommand.version, products: 0,
                        productIDs: [], subject: "")))
    }
}

extension Packager.Format: ExpressibleByArgument {}

/// The progress line on a terminal: bytes, rate and time left, redrawn at most ten times a second.
final class ProgressMeter: @unchecked Sendable {
    private let start = Date()
    private var last = Date.distantPast
    private let lock = PThreadLock()

    func show(_ progress: Packager.Progress) {
        lock.lock(); defer { lock.unlock() }
        let now = Date()
        guard now.timeIntervalSince(last) > 0.1 || progress.done == progress.total else { return }
        last = now
        let elapsed = max(0.001, now.timeIntervalSince(start))
        let rate = Double(progress.done) / elapsed
        let left = rate > 0 ? Double(progress.total - min(progress.done, progress.total)) / rate : 0
        Terminal.writeError(
            "\r\u{1B}[K\(progress.productID)  \(Self.bytes(Double(progress.done))) / "
                + "\(Self.bytes(Double(progress.total)))  \(Self.bytes(rate))/s  "
                + "\(Int(left) / 60):\(Format.padded(Int(left) % 60, width: 2)) left")
    }

    func clear() { Terminal.writeError("\r\u{1B}[K") }

    var callback: @Sendable (Packager.Progress) -> Void { { [self] progress in show(progress) } }

    static func bytes(_ value: Double) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var amount = value, unit = 0
        while amount >= 1000 && unit < units.count - 1 { amount /= 1000; unit += 1 }
        return unit == 0 ? "\(Int(amount)) B" : Format.fixed(amount, decimals: 1) + " " + units[unit]
    }
}
