import Foundation
import TestSupport
import Testing

/// The app-level and offer state a catalog declares beyond products (win-back offers in full, the Billing Grace
/// Period, promoted purchases) through push, plan and pull against the project's fake App Store Connect.
@Suite(.showsFakeLog)
struct DeclaredStateSyncTests {
    static let bundleID = "com.example.declared"

    static func catalog(winBack: String = Self.winBack, grace: String? = Self.grace, promoted: String? = Self.promoted) -> String {
        """
        schemaVersion: 1
        app:
          bundleId: \(bundleID)
          primaryLocale: en-US
        products:
          - productId: \(bundleID).gems
            referenceName: Gems
            type: consumable
            price: 0.99
            localizations:
              - {locale: en-US, name: Gems, description: A pile of gems.}
          - productId: \(bundleID).map
            referenceName: Map
            type: non-consumable
            price: 2.99
            localizations:
              - {locale: en-US, name: Map, description: The whole map.}
        subscriptionGroups:
          - referenceName: Club
            localizations:
              - {locale: en-US, name: Club}
            subscriptions:
              - productId: \(bundleID).club
                referenceName: Club Monthly
                period: P1M
                groupLevel: 1
                price: 4.99
                localizations:
                  - {locale: en-US, name: Club Monthly, description: Every month.}
                winBackOffers:
        \(winBack)
        """ + (grace.map { "\n" + $0 } ?? "") + (promoted.map { "\n" + $0 } ?? "") + "\n"
    }

    static let winBack = """
                  - offerId: back_free
                    referenceName: Welcome back
                    mode: free-trial
                    duration: P1M
                    eligibility:
                      paidMonths: 6
                      lapsedMonths: {min: 2, max: 12}
                      monthsBetweenOffers: 3
                    priority: high
                    promotion: app-store
                    endDate: 2099-12-31
                  - offerId: back_plain
                    referenceName: Plain welcome back
                    mode: free-trial
                    duration: P1W
        """

    static let grace = """
        billingGracePeriod:
          enabled: true
          sandbox: true
          duration: P28D
          renewals: paid-to-paid
        """

    static let promoted = """
        promotedPurchases:
          - productId: \(bundleID).club
          - productId: \(bundleID).map
            visible: false
          - productId: \(bundleID).gems
            enabled: false
        """

    static func attributes(_ fake: FakeAppStoreConnect, _ type: String) throws -> [[String: Any]] {
        try AscSyncTests.resources(fake, type).compactMap { $0["attributes"] as? [String: Any] }
    }

    /// A push of products new to App Store Connect, then, when writes waited for App Review (win-back offers, an
    /// in-app purchase's production codes), App Review's approval (the fake's control) and the push that sends them.
    static func pushApproving(_ fake: FakeAppStoreConnect, _ catalog: String, extra: [String] = []) throws -> ProcessResult {
        let first = try AscSyncTests.push(fake, catalog, extra: extra)
        guard first.status == 0, first.stdout.contains("for App Review") else { return first }
        _ = try fake.control("POST", "approve", [String: Any]())
        let second = try AscSyncTests.push(fake, catalog)
        return ProcessResult(status: second.status, stdout: first.stdout + second.stdout, stderr: first.stderr + second.stderr)
    }

    static func plan(_ fake: FakeAppStoreConnect, _ catalog: String) throws -> ProcessResult {
        try iapkit(["asc", "plan", catalog], environment: fake.environment)
    }

    @Test func aCatalogWithEveryDeclaredKindPushesPlansCleanPullsBackEqualAndPushesNothingTwice() throws {
        let fake = try FakeAppStoreConnect()
        let source = try fake.addApp(bundleID: Self.bundleID)
        let dir = TemporaryDirectory()
        let catalog = try dir.write("catalog.yaml", Self.catalog())
        #expect(try iapkit("lint", "catalog", catalog).status == 0)

        let push = try Self.pushApproving(fake, catalog)
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        let grace = try Self.attributes(fake, "subscriptionGracePeriods").first
        #expect(grace?["optIn"] as? Bool == true && grace?["sandboxOptIn"] as? Bool == true)
        #expect(grace?["duration"] as? String == "TWENTY_EIGHT_DAYS" && grace?["renewalType"] as? String == "PAID_TO_PAID_ONLY")
        let offers = try Self.attributes(fake, "winBackOffers")
        let free = offers.first { $0["offerId"] as? String == "back_free" }
        #expect(free?["customerEligibilityPaidSubscriptionDurationInMonths"] as? Int == 6)
        #expect((free?["customerEligibilityTimeSinceLastSubscribedInMonths"] as? [String: Any])?["maximum"] as? Int == 12)
        #expect(free?["customerEligibilityWaitBetweenOffersInMonths"] as? Int == 3)
        #expect(free?["priority"] as? String == "HIGH" && free?["promotionIntent"] as? String == "USE_AUTO_GENERATED_ASSETS")
        #expect(free?["endDate"] as? String == "2099-12-31")
        let plain = offers.first { $0["offerId"] as? String == "back_plain" }
        #expect(plain?["customerEligibilityPaidSubscriptionDurationInMonths"] as? Int == 1 && plain?["priority"] as? String == "NORMAL")

        let writes = try fake.writeCount()
        let again = try AscSyncTests.push(fake, catalog)
        #expect(again.status == 0 && again.stdout.contains("nothing to push"), "\(again.stdout)\(again.stderr)")
        #expect(try fake.writeCount() == writes, "a push right after a push sends no write request")
        let check = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

        // Pulled back: the same declarations, and pushing them to another app gives the same managed state.
        let pulled = dir.file("pulled.yaml")
        let pull = try iapkit(["asc", "pull", "-o", pulled, "--bundle-id", Self.bundleID], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        let yaml = try String(contentsOfFile: pulled, encoding: .utf8)
        for text in [
            "billingGracePeriod:", "duration: P28D", "renewals: paid-to-paid", "promotedPurchases:", "visible: false",
            "enabled: false", "paidMonths: 6", "monthsBetweenOffers: 3", "priority: high", "promotion: app-store",
            "endDate: 2099-12-31",
        ] {
            #expect(yaml.contains(text), "pulled catalog lacks `\(text)`:\n\(yaml)")
        }
        #expect(!yaml.contains("win-back offers' customer eligibility"), "pull no longer calls eligibility unmanaged")
        let promotedOrder = yaml.components(separatedBy: "promotedPurchases:").last ?? ""
        let club = promotedOrder.range(of: "\(Self.bundleID).club"), gems = promotedOrder.range(of: "\(Self.bundleID).gems")
        #expect(club != nil && gems != nil && club!.lowerBound < gems!.lowerBound, "the pulled order is App Store Connect's")
        #expect(try iapkit("lint", "catalog", pulled).status == 0)
        let pulledCheck = try iapkit(["asc", "plan", pulled, "--check"], environment: fake.environment)
        #expect(pulledCheck.status == 0, "\(pulledCheck.stdout)\(pulledCheck.stderr)")

        let target = try fake.addApp(bundleID: Self.bundleID + ".copy", name: "Copy")
        let copy = try dir.write(
            "copy.yaml", yaml.replacingOccurrences(of: "bundleId: \(Self.bundleID)\n", with: "bundleId: \(Self.bundleID).copy\n"))
        let copyPush = try Self.pushApproving(fake, copy)
        #expect(copyPush.status == 0, "\(copyPush.stderr)")
        let sourceView = try fake.control("POST", "managed", ["appId": source]) as? [String: Any]
        let targetView = try fake.control("POST", "managed", ["appId": target]) as? [String: Any]
        #expect(
            sourceView != nil && NSDictionary(dictionary: sourceView ?? [:]).isEqual(to: targetView ?? [:]),
            "managed views differ:\n\(sourceView ?? [:])\n\(targetView ?? [:])")
    }

    @Test func changesAreUpdatedInPlaceAndWhatAppStoreConnectCannotChangeIsRefused() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: Self.bundleID)
        let dir = TemporaryDirectory()
        let catalog = try dir.write("catalog.yaml", Self.catalog())
        #expect(try Self.pushApproving(fake, catalog).status == 0)

        // Settings change in place; the list is reordered, one entry dropped, one hidden.
        let changed = Self.catalog(
            winBack: Self.winBack.replacingOccurrences(of: "priority: high", with: "priority: normal")
                .replacingOccurrences(of: "endDate: 2099-12-31", with: "endDate: 2099-06-30"),
            grace: Self.grace.replacingOccurrences(of: "P28D", with: "P3D"),
            promoted: """
                promotedPurchases:
                  - productId: \(Self.bundleID).gems
                  - productId: \(Self.bundleID).club
                    visible: false
                """)
        try changed.write(toFile: catalog, atomically: true, encoding: .utf8)
        let plan = try Self.plan(fake, catalog)
        #expect(plan.status == 0, "\(plan.stderr)")
        for line in [
            "~ winBackOffer \(Self.bundleID).club [back_free]: endDate \"2099-12-31\" -> \"2099-06-30\", priority \"HIGH\" -> \"NORMAL\"",
            "~ subscriptionGracePeriod: duration \"TWENTY_EIGHT_DAYS\" -> \"THREE_DAYS\"",
            "~ promotedPurchase [\(Self.bundleID).map]: promoted \"true\" -> \"false\"",
            "~ promotedPurchase [\(Self.bundleID).club]: visibleForAllUsers \"true\" -> \"false\"",
            "~ promotedPurchase [\(Self.bundleID).gems]: enabled \"false\" -> \"true\"",
            "~ promotedPurchases [order]",
        ] {
            #expect(plan.stdout.contains(line), "plan lacks `\(line)`:\n\(plan.stdout)")
        }
        let push = try AscSyncTests.push(fake, catalog)
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        let check = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let promoted = try AscSyncTests.resources(fake, "promotedPurchases")
        #expect(promoted.count == 2)

        // What App Store Connect keeps: an end date once set, and an offer's terms.
        let refused = Self.catalog(
            winBack: Self.winBack.replacingOccurrences(of: "            endDate: 2099-12-31\n", with: "")
                .replacingOccurrences(of: "duration: P1W", with: "duration: P2W"),
            grace: nil, promoted: nil)
        try refused.write(toFile: catalog, atomically: true, encoding: .utf8)
        let refusal = try Self.plan(fake, catalog)
        #expect(refusal.stdout.contains("! winBackOffer \(Self.bundleID).club [back_free]"), "\(refusal.stdout)")
        #expect(refusal.stdout.contains("keeps an end date once set"), "\(refusal.stdout)")
        #expect(refusal.stdout.contains("! winBackOffer \(Self.bundleID).club [back_plain]: duration"), "\(refusal.stdout)")
        // Left out of the catalog, the grace period and the promoted list are App Store Connect's and shown as such.
        #expect(refusal.stdout.contains("? subscriptionGracePeriod"), "\(refusal.stdout)")
        #expect(refusal.stdout.contains("? promotedPurchase [\(Self.bundleID).gems]"), "\(refusal.stdout)")
    }

    @Test func anOfferThatHasStartedCannotMoveItsStart() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: Self.bundleID)
        let dir = TemporaryDirectory()
        let catalog = try dir.write("catalog.yaml", Self.catalog(grace: nil, promoted: nil))
        #expect(try Self.pushApproving(fake, catalog).status == 0)
        let moved = Self.catalog(
            winBack: Self.winBack.replacingOccurrences(of: "priority: high", with: "priority: high\n            startDate: 2099-01-01"),
            grace: nil, promoted: nil)
        try moved.write(toFile: catalog, atomically: true, encoding: .utf8)
        let plan = try Self.plan(fake, catalog)
        #expect(plan.stdout.contains("! winBackOffer \(Self.bundleID).club [back_free]: startDate \"started\" -> \"2099-01-01\""), "\(plan.stdout)")
        #expect(plan.stdout.contains("the offer has started"), "\(plan.stdout)")
    }

    /// Removal from sale is catalog state; deletion happens only with `--prune`, only where App Store Connect allows
    /// it, and shows as `-` in the plan first.
    @Test func pruneDeletesOnlyWhatWasNeverSubmittedAndOnlyWhenAsked() throws {
        let fake = try FakeAppStoreConnect()
        let app = try fake.addApp(bundleID: Self.bundleID)
        let dir = TemporaryDirectory()
        let catalog = try dir.write("catalog.yaml", Self.catalog(grace: nil, promoted: nil))
        #expect(try AscSyncTests.push(fake, catalog).status == 0)
        try fake.control(
            "POST", "seed",
            [
                "appId": app,
                "inAppPurchases": [
                    [
                        "productId": "\(Self.bundleID).old", "name": "Old", "inAppPurchaseType": "CONSUMABLE", "state": "APPROVED",
                        "versionState": "APPROVED", "localizations": [["locale": "en-US", "name": "Old", "description": "An old pack."]],
                        "prices": [["territory": "USA", "usd": "0.99"]],
                    ]
                ],
            ])
        // The map leaves the catalog: listed without --prune, deleted with it; the approved product is never deleted.
        let without = Self.catalog(grace: nil, promoted: nil).replacingOccurrences(
            of: """
                  - productId: \(Self.bundleID).map
                    referenceName: Map
                    type: non-consumable
                    price: 2.99
                    localizations:
                      - {locale: en-US, name: Map, description: The whole map.}

                """, with: "")
        #expect(!without.contains(".map"))
        try without.write(toFile: catalog, atomically: true, encoding: .utf8)
        let listed = try Self.plan(fake, catalog)
        #expect(listed.stdout.contains("? inAppPurchase \(Self.bundleID).map"), "\(listed.stdout)")
        #expect(!listed.stdout.contains("- inAppPurchase"), "\(listed.stdout)")
        let pushWithout = try AscSyncTests.push(fake, catalog)
        #expect(pushWithout.status == 0 && pushWithout.stdout.contains("nothing to push"), "\(pushWithout.stderr)")
        #expect(try AscSyncTests.productIDs(fake, "inAppPurchases").contains("\(Self.bundleID).map"))

        let pruning = try iapkit(["asc", "plan", catalog, "--prune"], environment: fake.environment)
        #expect(pruning.stdout.contains("- inAppPurchase \(Self.bundleID).map ["), "\(pruning.stdout)")
        #expect(pruning.stdout.contains("retiredProductIds"), "\(pruning.stdout)")
        #expect(pruning.stdout.contains("? inAppPurchase \(Self.bundleID).old [APPROVED]"), "\(pruning.stdout)")
        #expect(pruning.stdout.contains("deletes only products never sent to review"), "\(pruning.stdout)")
        #expect(pruning.stdout.contains("1 to delete"), "\(pruning.stdout)")
        let json = try iapkit(["asc", "plan", catalog, "--prune", "--format", "json"], environment: fake.environment)
        let summary = ((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["summary"] as? [String: Any])
        #expect(summary?["delete"] as? Int == 1, "\(json.stdout)")

        let pruned = try AscSyncTests.push(fake, catalog, extra: ["--prune"])
        #expect(pruned.status == 0, "\(pruned.stdout)\(pruned.stderr)")
        let left = try AscSyncTests.productIDs(fake, "inAppPurchases")
        #expect(!left.contains("\(Self.bundleID).map") && left.contains("\(Self.bundleID).old") && left.contains("\(Self.bundleID).gems"))
        let after = try iapkit(["asc", "plan", catalog, "--prune"], environment: fake.environment)
        #expect(!after.stdout.contains("- inAppPurchase"), "\(after.stdout)")
    }

    /// The catalog with a subscription offer code, and with `inAppPurchase` codes an in-app purchase offer code on
    /// the gems (half price, for customers who never paid or stopped).
    static func offerCodes(batches: String, custom: String, active: String = "", inAppPurchase: (batches: String, custom: String)? = nil) -> String {
        let block = [
            "        offerCodes:", "          - referenceName: Spring", "            mode: free-trial", "            duration: P1M",
            "            eligibility: [new]\(active)", "            oneTimeCodes: \(batches)", "            customCodes: \(custom)",
            "        winBackOffers:", "",
        ].joined(separator: "\n")
        var text = catalog(grace: nil, promoted: nil).replacingOccurrences(of: "        winBackOffers:\n", with: block)
        if let inAppPurchase {
            let gems = [
                "    price: 0.99", "    offerCodes:", "      - referenceName: Gems launch", "        price: 0.49",
                "        eligibility: [non-spender, churned-spender]", "        oneTimeCodes: \(inAppPurchase.batches)",
                "        customCodes: \(inAppPurchase.custom)", "",
            ].joined(separator: "\n")
            text = text.replacingOccurrences(of: "    price: 0.99\n", with: gems)
        }
        return text
    }

    /// A day `days` from now, as the catalog writes it.
    static func day(in days: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: Date().addingTimeInterval(Double(days) * 86_400))
    }

    /// Offer-code batches and custom codes are declared, created once, deactivated in place; their values reach only
    /// the file `asc offer-codes download` is given, readable by its owner alone.
    @Test func offerCodeBatchesAndCustomCodesAreDeclaredAndTheirValuesGoOnlyToTheFileAskedFor() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: Self.bundleID)
        let dir = TemporaryDirectory()
        let later = Self.day(in: 120)  // within App Store Connect's six months
        let batches = "[{count: 5, expires: \(later)}, {count: 3, expires: \(later)}]"
        let catalog = try dir.write(
            "catalog.yaml",
            Self.offerCodes(
                batches: batches, custom: "[{code: SPRING31, count: 50}]",
                inAppPurchase: ("[{count: 2, expires: \(later)}]", "[]")))
        #expect(try iapkit("lint", "catalog", catalog).status == 0)
        let trace = dir.file("push.jsonl")
        let push = try Self.pushApproving(fake, catalog, extra: ["--trace", trace])
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        #expect(try AscSyncTests.resources(fake, "subscriptionOfferCodeOneTimeUseCodes").count == 2)
        #expect(try AscSyncTests.resources(fake, "subscriptionOfferCodeCustomCodes").count == 1)
        #expect(try AscSyncTests.resources(fake, "inAppPurchaseOfferCodeOneTimeUseCodes").count == 1)
        let writes = try fake.writeCount()
        #expect(try AscSyncTests.push(fake, catalog).stdout.contains("nothing to push"))
        #expect(try fake.writeCount() == writes)

        // The values: only in the file, mode 0600, one row a code of the active batches.
        let codes = dir.file("codes.csv")
        let download = try iapkit(
            ["asc", "offer-codes", "download", catalog, "-o", codes, "--trace", dir.file("download.jsonl")],
            environment: fake.environment)
        #expect(download.status == 0, "\(download.stderr)")
        let rows = try String(contentsOfFile: codes, encoding: .utf8).split(separator: "\r\n").map(String.init)
        #expect(rows.first == "product,offerCode,environment,expires,active,code" && rows.count == 1 + 10, "\(rows)")
        #expect(rows.filter { $0.hasPrefix("\(Self.bundleID).gems,Gems launch,") }.count == 2, "\(rows)")
        let values = rows.dropFirst().compactMap { $0.split(separator: ",").last.map(String.init) }
        #expect(Set(values).count == 10 && values.allSatisfy { $0.count >= 6 })
        let mode = (try FileManager.default.attributesOfItem(atPath: codes)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600, "mode \(String(mode ?? 0, radix: 8))")
        let pulled = dir.file("pulled.yaml")
        #expect(try iapkit(["asc", "pull", "-o", pulled, "--bundle-id", Self.bundleID], environment: fake.environment).status == 0)
        let everywhere = [
            download.stdout, download.stderr, push.stdout, push.stderr,
            try String(contentsOfFile: dir.file("download.jsonl"), encoding: .utf8),
            try String(contentsOfFile: trace, encoding: .utf8), try String(contentsOfFile: pulled, encoding: .utf8),
            try Self.plan(fake, catalog).stdout,
        ]
        for value in values { #expect(!everywhere.contains { $0.contains(value) }, "code \(value) leaked") }
        let downloadTrace = try String(contentsOfFile: dir.file("download.jsonl"), encoding: .utf8)
        #expect(
            downloadTrace.contains("\"omitted\":\"offer code values\""),
            "\(downloadTrace.split(separator: "\n").filter { $0.contains("values") })")
        #expect(try iapkit(["asc", "offer-codes", "download", catalog, "-o", "-"], environment: fake.environment).status != 0)

        // One batch deactivated, one added, a new custom code, and one App Store Connect has that the catalog does not list.
        let changed = Self.offerCodes(
            batches: "[{count: 5, expires: \(later)}, {count: 3, expires: \(later), active: false}, {count: 7, expires: \(later)}]",
            custom: "[{code: SUMMER31, count: 20}]")
        try changed.write(toFile: catalog, atomically: true, encoding: .utf8)
        let plan = try Self.plan(fake, catalog)
        #expect(plan.stdout.contains("~ subscriptionOfferCode \(Self.bundleID).club [Spring]:"), "\(plan.stdout)")
        #expect(plan.stdout.contains("oneTimeCodes \"3 codes until \(later)\" -> \"3 codes until \(later), inactive\""), "\(plan.stdout)")
        #expect(plan.stdout.contains("oneTimeCodes (none) -> \"7 codes until \(later)\""), "\(plan.stdout)")
        #expect(plan.stdout.contains("? subscriptionOfferCode \(Self.bundleID).club [Spring custom code SPRING31]"), "\(plan.stdout)")
        let second = try AscSyncTests.push(fake, catalog)
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        let batchStates = try Self.attributes(fake, "subscriptionOfferCodeOneTimeUseCodes").map {
            "\($0["numberOfCodes"] ?? "") \($0["active"] as? Bool ?? true)"
        }
        #expect(batchStates.sorted() == ["3 false", "5 true", "7 true"], "\(batchStates)")

        // Turning a batch back on, or the whole offer code, is refused: App Store Connect cannot.
        let back = Self.offerCodes(
            batches: "[{count: 5, expires: \(later)}, {count: 3, expires: \(later)}, {count: 7, expires: \(later)}]",
            custom: "[{code: SUMMER31, count: 20}, {code: SPRING31, count: 50}]")
        try back.write(toFile: catalog, atomically: true, encoding: .utf8)
        let refused = try Self.plan(fake, catalog)
        #expect(
            refused.stdout.contains("! subscriptionOfferCode \(Self.bundleID).club [Spring]") && refused.stdout.contains("cannot reactivate a batch"),
            "\(refused.stdout)")
        let off = Self.offerCodes(
            batches: "[{count: 5, expires: \(later)}, {count: 3, expires: \(later), active: false}, {count: 7, expires: \(later)}]",
            custom: "[{code: SUMMER31, count: 20}, {code: SPRING31, count: 50}]", active: "\n            active: false")
        try off.write(toFile: catalog, atomically: true, encoding: .utf8)
        #expect(try AscSyncTests.push(fake, catalog).status == 0)
        #expect(try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment).status == 0)
    }

    /// Writes an RGB (colour type 2) or RGBA (6) PNG of one colour, made with Python's zlib.
    static func png(_ path: String, side: Int, alpha: Bool = false, shade: Int = 200) throws {
        _ = try python(
            """
            import struct, sys, zlib
            path, side, alpha, shade = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", int(sys.argv[4])
            pixel = bytes([shade, 120, 40] + ([255] if alpha else []))
            raw = b"".join(b"\\x00" + pixel * side for _ in range(side))
            def chunk(kind, data):
                return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
            header = struct.pack(">IIBBBBB", side, side, 8, 6 if alpha else 2, 0, 0, 0)
            open(path, "wb").write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
            """, [path, String(side), alpha ? "1" : "0", String(shade)])
    }

    /// A promotional image is checked offline, uploaded once, replaced when its content changes, and pulled back.
    @Test func promotionalImagesAreCheckedUploadedOnceAndPulledBack() throws {
        let fake = try FakeAppStoreConnect()
        _ = try fake.addApp(bundleID: Self.bundleID)
        let dir = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.file("images"), withIntermediateDirectories: true)
        try Self.png(dir.file("images/gems.png"), side: 1024)
        try Self.png(dir.file("images/club.png"), side: 1024, shade: 90)
        try Self.png(dir.file("images/small.png"), side: 512)
        try Self.png(dir.file("images/clear.png"), side: 1024, alpha: true)
        let text = Self.catalog(grace: nil, promoted: nil)
            .replacingOccurrences(of: "    price: 0.99\n", with: "    price: 0.99\n    promotionalImage: images/gems.png\n")
            .replacingOccurrences(of: "        price: 4.99\n", with: "        price: 4.99\n        promotionalImage: images/club.png\n")
        let catalog = try dir.write("catalog.yaml", text)
        let lint = try iapkit("lint", "catalog", catalog)
        #expect(lint.status == 0, "\(lint.stdout)")
        for (file, message) in [("small.png", "is 512×512 pixels; App Store Connect takes 1024×1024"), ("clear.png", "has transparency")] {
            let bad = try dir.write("bad.yaml", text.replacingOccurrences(of: "images/gems.png", with: "images/\(file)"))
            let result = try iapkit("lint", "catalog", bad)
            #expect(result.status == 1 && result.stdout.contains(message) && result.stdout.contains("[promotional-image]"), "\(result.stdout)")
        }

        let push = try AscSyncTests.push(fake, catalog)
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        let md5 = try python("import hashlib, sys; print(hashlib.md5(open(sys.argv[1], 'rb').read()).hexdigest())", [dir.file("images/gems.png")])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let images = try Self.attributes(fake, "inAppPurchaseImages")
        #expect(images.count == 1 && (images.first?["sourceFileChecksum"] as? String)?.lowercased() == md5, "\(images)")
        #expect(try Self.attributes(fake, "subscriptionImages").count == 1)
        let writes = try fake.writeCount()
        #expect(try AscSyncTests.push(fake, catalog).stdout.contains("nothing to push"))
        #expect(try fake.writeCount() == writes, "the same image is never uploaded twice")

        // New content replaces the image; the plan says so with both digests.
        try Self.png(dir.file("images/gems.png"), side: 1024, shade: 30)
        let plan = try Self.plan(fake, catalog)
        #expect(
            plan.stdout.contains("~ inAppPurchaseImage \(Self.bundleID).gems: promotionalImage \"gems.png (md5 \(md5.prefix(8)))\""), "\(plan.stdout)"
        )
        #expect(try AscSyncTests.push(fake, catalog).status == 0)
        #expect(try Self.attributes(fake, "inAppPurchaseImages").count == 1)

        let pulled = dir.file("out/catalog.yaml")
        let pull = try iapkit(["asc", "pull", "-o", pulled, "--bundle-id", Self.bundleID], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(try String(contentsOfFile: pulled, encoding: .utf8).contains("promotionalImage: images/\(Self.bundleID).gems.png"))
        #expect(FileManager.default.contentsEqual(atPath: dir.file("out/images/\(Self.bundleID).gems.png"), andPath: dir.file("images/gems.png")))
        let check = try iapkit(["asc", "plan", pulled, "--check"], environment: fake.environment)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    /// Every declared kind in one catalog: pushed to an empty app, planned clean, pushed again without a write,
    /// pulled back to a catalog that plans clean and, pushed to another app, gives the same managed state.
    /// A catalog holding every declared kind, with its image, in `dir`.
    static func everything(in dir: TemporaryDirectory) throws -> String {
        try FileManager.default.createDirectory(atPath: dir.file("images"), withIntermediateDirectories: true)
        try png(dir.file("images/club.png"), side: 1024)
        let later = day(in: 90)
        let text =
            offerCodes(
                batches: "[{count: 4, expires: \(later)}, {count: 2, expires: \(later), active: false}]",
                custom: "[{code: CLUB31, count: 25, expires: \(later)}]",
                inAppPurchase: ("[{count: 3, expires: \(later), active: false}]", "[{code: GEMS31, count: 10}]")
            )
            .replacingOccurrences(of: "        price: 4.99\n", with: "        price: 4.99\n        promotionalImage: images/club.png\n")
            + grace + "\n" + promoted + "\n"
        return try dir.write("catalog.yaml", text)
    }

    @Test func oneCatalogWithEveryDeclaredKindRoundTrips() throws {
        let fake = try FakeAppStoreConnect()
        let source = try fake.addApp(bundleID: Self.bundleID)
        let dir = TemporaryDirectory()
        let catalog = try Self.everything(in: dir)
        let lint = try iapkit("lint", "catalog", catalog)
        #expect(lint.status == 0, "\(lint.stdout)")
        // `export asc` lists the same writes without reading anything: the app's grace period by a placeholder.
        let export = try iapkit("export", "asc", catalog, "--app-id", "1234567890")
        #expect(export.status == 0, "\(export.stderr)")
        for path in [
            "/v1/subscriptionGracePeriods/${subscriptionGracePeriod}", "/v1/promotedPurchases", "/v1/subscriptionImages",
            "/v1/subscriptionOfferCodeOneTimeUseCodes", "/v1/subscriptionOfferCodeCustomCodes", "/v1/inAppPurchaseOfferCodes",
        ] {
            #expect(export.stdout.contains("\"\(path)"), "export asc lacks \(path)")
        }
        // What App Store Connect takes only for approved products is not among a new app's requests, as push leaves it out.
        for path in ["/v1/winBackOffers", "/v1/inAppPurchaseOfferCodeOneTimeUseCodes", "/v1/inAppPurchaseOfferCodeCustomCodes"] {
            #expect(!export.stdout.contains("\"\(path)\""), "export asc lists \(path) for products App Review has not approved")
        }
        let push = try Self.pushApproving(fake, catalog)
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        let writes = try fake.writeCount()
        #expect(try AscSyncTests.push(fake, catalog).stdout.contains("nothing to push"))
        #expect(try fake.writeCount() == writes)
        #expect(try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment).status == 0)

        let pulled = dir.file("pulled/catalog.yaml")
        let pull = try iapkit(["asc", "pull", "-o", pulled, "--bundle-id", Self.bundleID], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(try iapkit("lint", "catalog", pulled).status == 0)
        let check = try iapkit(["asc", "plan", pulled, "--check"], environment: fake.environment)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let target = try fake.addApp(bundleID: Self.bundleID + ".copy", name: "Copy")
        let yaml = try String(contentsOfFile: pulled, encoding: .utf8)
        // Pushed as pulled, to another app (custom codes are unique within an app, so the same code is fine there).
        try yaml.replacingOccurrences(of: "bundleId: \(Self.bundleID)\n", with: "bundleId: \(Self.bundleID).copy\n")
            .write(toFile: pulled, atomically: true, encoding: .utf8)
        let copy = try Self.pushApproving(fake, pulled)
        #expect(copy.status == 0, "\(copy.stdout)\(copy.stderr)")
        let sourceView = try fake.control("POST", "managed", ["appId": source]) as? [String: Any]
        let targetView = try fake.control("POST", "managed", ["appId": target]) as? [String: Any]
        #expect(
            sourceView != nil && NSDictionary(dictionary: sourceView ?? [:]).isEqual(to: targetView ?? [:]),
            "managed views differ:\n\(sourceView ?? [:])\n\(targetView ?? [:])")
        #expect(try AscSyncTests.push(fake, pulled).stdout.contains("nothing to push"))
    }
}
