import AssetPacks
import HostedContent
import IAPCatalog
import IAPCore

/// An asset pack's identifier: App Store Connect's character set (409, ITMS-91133) and one pack per identifier.
struct AssetPackIDRule: CatalogRule {
    static let id = "asset-pack-id"
    static let severity = RuleSeverity.error
    static let rationale = "App Store Connect refuses such IDs with a 409 (ITMS-91133), and the ID is how the app asks for the pack."
    static let summary = "An asset pack ID with a character outside A-Z a-z 0-9 -, a leading or trailing hyphen, or used twice."
    static let examples = RuleExamples(
        triggering: [
            AssetPackExample.catalog([AssetPackExample.pack("↓level.1")]),
            AssetPackExample.catalog([AssetPackExample.pack("↓level_1")]),
            AssetPackExample.catalog([AssetPackExample.pack("↓-level1")]),
            AssetPackExample.catalog([AssetPackExample.pack(), AssetPackExample.pack("↓Level1", source: "packs/level2")]),
        ],
        nonTriggering: [
            AssetPackExample.catalog([AssetPackExample.pack("Level-1")]),
            AssetPackExample.catalog([AssetPackExample.pack(), AssetPackExample.pack("level2", source: "packs/level2")]),
        ])

    func check(_ context: CatalogLintContext) {
        var seen: [String: String] = [:]
        for pack in context.catalog.assetPacks {
            guard let id = pack.id else { continue }
            if let problem = AssetPack.identifierProblem(id) {
                context.report(Self.self, problem, at: pack.path / "id", productID: nil)
            } else if let first = seen[id.lowercased()] {
                context.report(
                    Self.self,
                    "the asset pack ID `\(id)` is already used by `\(first)`; every pack needs its own ID "
                        + "(IDs differing only in case clash on a case-insensitive file system)",
                    at: pack.path / "id", productID: nil)
            } else {
                seen[id.lowercased()] = id
            }
        }
    }
}

/// At most 100 asset packs per app.
struct AssetPackCountRule: CatalogRule {
    static let id = "asset-pack-count"
    static let severity = RuleSeverity.error
    static let rationale = "App Store Connect keeps at most 100 asset packs per app."
    static let summary = "More than 100 asset packs (App Store Connect's limit per app)."
    static let limit = 100
    static let examples = RuleExamples(
        triggering: [AssetPackExample.catalog((1...101).map { AssetPackExample.pack("pack\($0)", unlockedBy: nil) })],
        nonTriggering: [AssetPackExample.catalog((1...100).map { AssetPackExample.pack("pack\($0)", unlockedBy: nil) })])

    func check(_ context: CatalogLintContext) {
        let packs = context.catalog.assetPacks
        guard packs.count > Self.limit else { return }
        context.report(
            Self.self,
            "\(packs.count) asset packs; App Store Connect takes at most \(Self.limit) pack IDs per app: "
                + "merge packs that download together", at: packs[Self.limit].path, productID: nil)
    }
}

/// Each selector takes at least one file, from inside the pack's source folder.
struct AssetPackFilesRule: CatalogRule {
    static let id = "asset-pack-files"
    static let severity = RuleSeverity.error
    static let rationale = "A pack built from a selector that matches nothing, or from files outside its folder, is not the pack you meant to ship."
    static let summary =
        "An asset pack's source folder is missing, or a file selector matches no file, reaches outside the source folder, or names a folder as a file."
    static let examples = RuleExamples(
        triggering: [
            AssetPackExample.catalog([AssetPackExample.pack(extra: "    files:\n      - file: ↓Levels/missing.json\n")]),
            AssetPackExample.catalog([AssetPackExample.pack(extra: "    files:\n      - directory: ↓../level2\n")]),
            AssetPackExample.catalog([AssetPackExample.pack(extra: "    files:\n      - directory: ↓/etc\n")]),
            AssetPackExample.catalog(
                [AssetPackExample.pack(extra: "    files:\n      - directory: ↓Empty\n")],
                files: AssetPackExample.files + "#@ packs/level1/Empty/\n"),
            AssetPackExample.catalog([AssetPackExample.pack(extra: "    files:\n      - file: ↓Levels\n")]),
            AssetPackExample.catalog([AssetPackExample.pack(source: "↓packs/none")]),
        ],
        nonTriggering: [
            AssetPackExample.catalog([AssetPackExample.pack(extra: "    files:\n      - directory: Levels\n      - file: Levels/1.json\n")]),
            AssetPackExample.catalog(),
        ])

    func check(_ context: CatalogLintContext) {
        for (pack, selection) in zip(context.catalog.assetPacks, context.assetPackSelections) {
            let name = pack.id.map { "asset pack `\($0)`" } ?? "this asset pack"
            switch selection {
            case let .failure(error):
                context.report(Self.self, "\(name): \(error.description)", at: pack.path / "source", productID: nil)
            case let .success(selection):
                for problem in selection.problems {
                    switch problem {
                    case let .sourceMissing(reason):
                        context.report(
                            Self.self, "\(name): the source folder \(selection.sourceFolder) \(reason)",
                            at: pack.path / "source", productID: nil)
                    case let .noMatch(selector) where pack.files.isEmpty:
                        context.report(
                            Self.self,
                            "\(name): the source folder \(selection.sourceFolder) holds no file yet; "
                                + "the packaging tool would refuse it", at: selector.path, productID: nil)
                    case let .noMatch(selector):
                        context.report(
                            Self.self,
                            "\(name): `\(selector.value)` matches no file in \(selection.sourceFolder); "
                                + "the packaging tool would refuse it", at: selector.path, productID: nil)
                    case let .outside(selector, reason):
                        context.report(
                            Self.self,
                            "\(name): `\(selector.value)` \(reason), outside the source folder "
                                + "\(selection.sourceFolder); list only what is inside it", at: selector.path, productID: nil)
                    case let .wrongKind(selector, actual):
                        context.report(
                            Self.self,
                            "\(name): `\(selector.value)` is \(actual); write it as "
                                + "`\(selector.kind == .file ? "directory" : "file"): \(selector.value)`",
                            at: selector.path, productID: nil)
                    }
                }
            }
        }
    }
}

/// All packs share one namespace on the device: a path may come from one pack only.
struct AssetPackOverlapRule: CatalogRule {
    static let id = "asset-pack-overlap"
    static let severity = RuleSeverity.error
    static let rationale = "All packs are unpacked into one namespace on the device, so two packs with the same path overwrite each other."
    static let summary = "Two asset packs ship the same path (all packs share one namespace on the device)."
    static let examples = RuleExamples(
        triggering: [
            AssetPackExample.catalog(
                [AssetPackExample.pack(), AssetPackExample.pack("level2", source: "↓packs/copy")],
                files: AssetPackExample.files + "#@ packs/copy/Levels/1.json: {}\n")
        ],
        nonTriggering: [AssetPackExample.catalog([AssetPackExample.pack(), AssetPackExample.pack("level2", source: "packs/level2")])])

    func check(_ context: CatalogLintContext) {
        var owner: [String: String] = [:]
        for (pack, selection) in zip(context.catalog.assetPacks, context.assetPackSelections) {
            guard case let .success(selection) = selection, let id = pack.id else { continue }
            var clashes: [(path: String, other: String)] = []
            for entry in selection.entries where entry.kind != .directory {
                if let other = owner[entry.relativePath], other != id {
                    clashes.append((entry.relativePath, other))
                } else {
                    owner[entry.relativePath] = id
                }
            }
            guard let first = clashes.first else { continue }
            let more = clashes.count > 1 ? " (and \(clashes.count - 1) more path\(clashes.count == 2 ? "" : "s"))" : ""
            context.report(
                Self.self,
                "asset pack `\(id)` ships `\(first.path)`, which asset pack `\(first.other)` ships too\(more); "
                    + "all packs share one namespace on the device: give each file one pack",
                at: pack.path / (pack.files.isEmpty ? "source" : "files"), productID: nil)
        }
    }
}

/// `unlockedBy` names products the catalog has, and none that is used up.
struct AssetPackUnlockRule: CatalogRule {
    static let id = "asset-pack-unlock"
    static let severity = RuleSeverity.error
    static let rationale = "A pack is downloaded when its product is bought; a consumable is bought again and again, and an unknown product never."
    static let summary = "An asset pack unlocked by a product the catalog does not have, or by a consumable."
    static let examples = RuleExamples(
        triggering: [
            AssetPackExample.catalog([AssetPackExample.pack(unlockedBy: "[↓com.example.app.nothing]")]),
            AssetPackExample.catalog([AssetPackExample.pack(unlockedBy: "[↓com.example.app.gems]")]),
        ],
        nonTriggering: [AssetPackExample.catalog(), AssetPackExample.catalog([AssetPackExample.pack(unlockedBy: nil)])])

    func check(_ context: CatalogLintContext) {
        guard context.catalog.assetPacks.contains(where: { !$0.unlockedBy.isEmpty }) else { return }
        var products: [String: Product] = [:]
        for product in context.allProducts { if let id = product.productID, products[id] == nil { products[id] = product } }
        for pack in context.catalog.assetPacks {
            for unlock in pack.unlockedBy {
                guard let product = products[unlock.value] else {
                    let hint = Suggestions.nearest(to: unlock.value, in: Array(products.keys)).map { "; did you mean `\($0)`?" } ?? ""
                    context.report(
                        Self.self, "`\(unlock.value)` unlocks this asset pack, but the catalog has no such product\(hint)",
                        at: unlock.path, productID: nil)
                    continue
                }
                if product.type == .consumable {
                    context.report(
                        Self.self,
                        "`\(unlock.value)` is a consumable: it is used up and cannot be restored, so it cannot "
                            + "keep a pack unlocked; unlock packs with a non-consumable or a subscription",
                        at: unlock.path, productID: unlock.value)
                }
            }
        }
    }
}

/// The download policy: a known one, with installation events only where they apply; a pack a purchase unlocks
/// downloads only when the app asks.
struct AssetPackPolicyRule: CatalogRule {
    static let id = "asset-pack-policy"
    static let severity = RuleSeverity.error
    static let rationale = "The download policy decides when the system fetches a pack; a pack a purchase unlocks must wait to be asked for."
    static let summary =
        "An unknown download policy or installation event, events on an onDemand pack, or a pack unlocked by a purchase whose policy is not onDemand."
    static let examples = RuleExamples(
        triggering: [
            AssetPackExample.catalog([AssetPackExample.pack(policy: "↓essential")]),
            AssetPackExample.catalog([AssetPackExample.pack(policy: "↓always", unlockedBy: nil)]),
            AssetPackExample.catalog([
                AssetPackExample.pack(
                    policy: "prefetch", unlockedBy: nil,
                    extra: "    installationEvents: [↓firstLaunch]\n")
            ]),
            AssetPackExample.catalog([AssetPackExample.pack(extra: "    installationEvents: [↓firstInstallation]\n")]),
        ],
        nonTriggering: [
            AssetPackExample.catalog(),
            AssetPackExample.catalog([
                AssetPackExample.pack(
                    policy: "essential", unlockedBy: nil,
                    extra: "    installationEvents: [firstInstallation, subsequentUpdate]\n")
            ]),
        ])

    func check(_ context: CatalogLintContext) {
        for pack in context.catalog.assetPacks {
            if let text = pack.downloadPolicyText {
                context.report(
                    Self.self,
                    "`\(text)` is not a download policy; use \(AssetPack.DownloadPolicy.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", "))",
                    at: pack.path / "downloadPolicy", productID: nil)
                continue
            }
            guard let policy = pack.downloadPolicy else { continue }
            if pack.isPurchaseGated && policy != .onDemand {
                context.report(
                    Self.self,
                    "this pack is unlocked by a purchase, but `\(policy.rawValue)` downloads it to every customer "
                        + "at installation; use `downloadPolicy: onDemand` and download it after verifying the purchase",
                    at: pack.path / "downloadPolicy", productID: nil)
            }
            if policy == .onDemand, let first = pack.installationEvents.first {
                context.report(
                    Self.self, "an onDemand pack downloads only when the app asks; remove `installationEvents`",
                    at: first.path, productID: nil)
            }
            for event in pack.installationEvents where !AssetPack.installationEventTypes.contains(event.value) {
                context.report(
                    Self.self,
                    "`\(event.value)` is not an installation event; use "
                        + AssetPack.installationEventTypes.map { "`\($0)`" }.joined(separator: " or "),
                    at: event.path, productID: nil)
            }
        }
    }
}

/// A pack's platforms must be the app's (ITMS-91139 / ITMS-91148).
struct AssetPackPlatformRule: CatalogRule {
    static let id = "asset-pack-platform"
    static let severity = RuleSeverity.error
    static let rationale = "App Store Connect refuses packs for a platform the app is not on (ITMS-91139, ITMS-91148)."
    static let summary =
        "A platform that is not iOS, macOS, tvOS or visionOS, or an asset pack platform the app (app.platforms, iOS by default) does not have."
    static let examples = RuleExamples(
        triggering: [
            AssetPackExample.catalog([AssetPackExample.pack(extra: "    platforms: [iOS, ↓macOS]\n")]),
            AssetPackExample.catalog(
                [AssetPackExample.pack(extra: "    platforms: [↓watchOS]\n")],
                app: "  platforms: [iOS, watchOS]\n"),
        ],
        nonTriggering: [
            AssetPackExample.catalog(
                [AssetPackExample.pack(extra: "    platforms: [iOS, macOS]\n")],
                app: "  platforms: [iOS, macOS]\n"),
            AssetPackExample.catalog(),
        ])

    func check(_ context: CatalogLintContext) {
        let app = context.catalog.app
        for platform in app.platforms ?? [] where !AssetPack.platformNames.contains(platform.value) {
            context.report(
                Self.self,
                "`\(platform.value)` is not a platform asset packs ship on; use "
                    + AssetPack.platformNames.joined(separator: ", "), at: platform.path, productID: nil)
        }
        guard !context.catalog.assetPacks.isEmpty else { return }
        let appPlatforms = app.effectivePlatforms
        for pack in context.catalog.assetPacks {
            for platform in pack.platforms {
                if !AssetPack.platformNames.contains(platform.value) {
                    context.report(
                        Self.self,
                        "`\(platform.value)` is not a platform asset packs ship on; use "
                            + AssetPack.platformNames.joined(separator: ", "), at: platform.path, productID: nil)
                } else if !appPlatforms.contains(platform.value) {
                    context.report(
                        Self.self,
                        "the app is not on \(platform.value) (app.platforms: \(appPlatforms.joined(separator: ", "))); "
                            + "App Store Connect refuses a pack whose platforms differ from the app's (ITMS-91139, ITMS-91148)",
                        at: platform.path, productID: nil)
                }
            }
        }
    }
}

/// At most 200 GB of asset packs per app, counted as the sum of each pack's largest version.
struct AssetPackSizeRule: CatalogRule {
    static let id = "asset-pack-size"
    static let severity = RuleSeverity(.error, "warning above 160 GB")
    static let rationale =
        "App Store Connect limits an app's asset packs to 200 GB, counting each pack's largest version, so the limit comes sooner than the files suggest."
    static let summary =
        "The asset packs hold more than 200 GB in all (a warning above 160 GB); App Store Connect counts each pack's largest version."
    static let limit: UInt64 = 200_000_000_000
    static let warning: UInt64 = 160_000_000_000
    static let examples = RuleExamples(
        triggering: [
            AssetPackExample.catalog(
                [AssetPackExample.pack()], files: AssetPackExample.files + "#@ @sparse packs/level1/Levels/big.bin 200000000001\n"),
            AssetPackExample.catalog(
                [AssetPackExample.pack()], files: AssetPackExample.files + "#@ @sparse packs/level1/Levels/big.bin 170000000000\n"),
        ],
        nonTriggering: [
            AssetPackExample.catalog(
                [AssetPackExample.pack()], files: AssetPackExample.files + "#@ @sparse packs/level1/Levels/big.bin 100000000000\n")
        ])

    func check(_ context: CatalogLintContext) {
        var total: UInt64 = 0
        for case let .success(selection) in context.assetPackSelections { total += selection.totalBytes }
        guard total > Self.warning else { return }
        let path = CatalogPath.root / "assetPacks"
        let size = "\(Self.gigabytes(total)) GB"
        if total > Self.limit {
            context.report(
                Self.self,
                "the asset packs hold \(size), over App Store Connect's 200 GB per app; move content "
                    + "out or drop packs", at: path, productID: nil)
        } else {
            context.report(
                Self.self, .warning,
                "the asset packs hold \(size) of the 200 GB App Store Connect allows per app, "
                    + "counted as each pack's largest version: a larger next version may not fit", at: path, productID: nil)
        }
    }

    static func gigabytes(_ bytes: UInt64) -> String { Format.fixed(Double(bytes) / 1e9, decimals: 1) }
}

/// Links, FIFOs, devices and names the device or Apple's tools refuse in what a pack ships: the hosted-content safety
/// checks (`content-link`, `content-name`) run over each pack's selected files.
struct AssetPackContentRule: CatalogRule {
    static let id = "asset-pack-content"
    static let severity = RuleSeverity.error
    static let rationale =
        "Apple's packaging tool and the device refuse links out of the pack and special files, and a name that is not UTF-8, holds `:`, "
        + "or collides with another on a case-insensitive file system does not arrive as it was packed."
    static let summary =
        "An asset pack ships a link that is absolute or leaves its folder, a FIFO, socket or device, or a name the content-name check refuses (not UTF-8, `:`, a control character, too long, or one that differs from another only in case)."
    static let examples = RuleExamples(
        triggering: [
            AssetPackExample.catalog(files: AssetPackExample.files + "#@ packs/level1/Levels/passwd -> /etc/passwd\n"),
            AssetPackExample.catalog(files: AssetPackExample.files + "#@ @fifo packs/level1/Levels/pipe\n"),
            AssetPackExample.catalog(files: AssetPackExample.files + "#@ @badname packs/level1/Levels/caf\n"),
            AssetPackExample.catalog(files: AssetPackExample.files + "#@ packs/level1/Levels/level:5.json: {}\n"),
        ],
        nonTriggering: [AssetPackExample.catalog(files: AssetPackExample.files + "#@ packs/level1/Levels/b.json -> 1.json\n")])

    static let checks: [any ContentRule.Type] = [ContentLinkRule.self, ContentNameRule.self]

    func check(_ context: CatalogLintContext) {
        for (pack, selection) in zip(context.catalog.assetPacks, context.assetPackSelections) {
            guard case let .success(selection) = selection, !selection.entries.isEmpty else { continue }
            let name = pack.id.map { "asset pack `\($0)`: " } ?? ""
            let content = ContentLintContext(
                folder: selection.sourceFolder, tree: selection.tree, info: nil, infoError: nil,
                expectedProductID: nil, lockEntry: nil
            ) { finding in
                var finding = finding
                finding.ruleID = Self.id
                finding.message = name + finding.message.replacingAll("hosted content", with: "an asset pack")
                context.emit(finding)
            }
            for check in Self.checks { check.init().check(content) }
        }
    }
}

struct AssetPackReleaseRule: CatalogRule {
    static let id = "asset-pack-release"
    static let severity = RuleSeverity.error
    static let rationale = "A pack is released either to the App Store or to TestFlight."
    static let summary = "An asset pack whose `release` is not `app-store` or `testflight`."
    static let examples = RuleExamples(
        triggering: [AssetPackExample.catalog([AssetPackExample.pack(extra: "    release: ↓beta\n")])],
        nonTriggering: [AssetPackExample.catalog([AssetPackExample.pack(extra: "    release: testflight\n")])])

    func check(_ context: CatalogLintContext) {
        for pack in context.catalog.assetPacks {
            guard let release = pack.release, !AssetPack.releases.contains(release) else { continue }
            context.report(
                Self.self,
                "`release: \(release)` is not a release; use `app-store` (`asc submit` sends processed versions "
                    + "to App Review) or `testflight` (testers only)", at: pack.path / "release", productID: nil)
        }
    }
}
