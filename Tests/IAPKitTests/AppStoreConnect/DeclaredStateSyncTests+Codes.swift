import Foundation
import TestSupport
import Testing

/// Offer codes, promotional images and every declared kind at once, as the suite's other tests.
extension DeclaredStateSyncTests {
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
