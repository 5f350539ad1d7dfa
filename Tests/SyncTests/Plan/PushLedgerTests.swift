@testable import AppStoreConnect
@testable import CatalogSync
import Testing

/// What a push that stopped midway says it wrote and left: every number in the sentence adds up.
@Suite struct PushLedgerTests {
    struct Write: PlannedOperation { var summary: String { "write" } }

    static func ledger(doneAfter done: Int) -> PushLedger {
        // 17 one-write products, then two subscriptions of two writes each: 21 operations.
        let changes =
            (1...17).map { Change(action: .create, resource: .inAppPurchase, productID: "p\($0)", operations: [Write()]) }
            + ["s", "t"].map { Change(action: .create, resource: .subscription, productID: $0, operations: [Write(), Write()]) }
        let ledger = PushLedger()
        ledger.start(Plan(app: StoreApp(id: "1", bundleID: "com.example"), changes: changes))
        for _ in 0..<done { ledger.operationDone() }
        return ledger
    }

    @Test func anInterruptedPushsSummaryAddsUp() {
        #expect(
            Self.ledger(doneAfter: 18).report().hasPrefix(
                "Written to App Store Connect: 18 of 21 operations (17 in 17 complete changes: inAppPurchase p1, inAppPurchase p2, "
                    + "inAppPurchase p3, inAppPurchase p4, inAppPurchase p5 and 12 more; 1 of 2 in subscription s). "
                    + "Left: 3 operations (1 in subscription s; 2 in 1 change not started: subscription t). Run `iapkit asc push` again"))
        #expect(
            Self.ledger(doneAfter: 19).report().hasPrefix(
                "Written to App Store Connect: 19 of 21 operations (19 in 18 complete changes: inAppPurchase p1, inAppPurchase p2, "
                    + "inAppPurchase p3, inAppPurchase p4, inAppPurchase p5 and 13 more). Left: 2 operations (2 in 1 change not started: subscription t)."
            ))
        #expect(
            Self.ledger(doneAfter: 21).report().hasSuffix(
                "(21 in 19 complete changes: inAppPurchase p1, inAppPurchase p2, "
                    + "inAppPurchase p3, inAppPurchase p4, inAppPurchase p5 and 14 more). Nothing is left."))
        #expect(Self.ledger(doneAfter: 0).report() == "Nothing was written to App Store Connect (21 operations planned).")
    }

    /// Only what is safe to run again is advised: a saved plan is finished by itself, never by a plain push, and a
    /// request App Store Connect refused for what it asks (a 409) is not run again as it was.
    @Test func theAdviceIsSafeToFollow() {
        let ledger = Self.ledger(doneAfter: 18)
        ledger.pushing(savedPlan: "release.plan.json")
        let saved = ledger.report()
        #expect(
            saved.hasSuffix(
                "Run `iapkit asc push --plan release.plan.json` again to finish: it sends only what is left of the "
                    + "reviewed plan (what reached App Store Connect is recorded in release.plan.json.applied), so nothing is sent twice."),
            "\(saved)")
        #expect(!saved.contains("Run `iapkit asc push` again"))
        #expect(!Self.ledger(doneAfter: 18).report(advisesRerun: false).contains("again"))
        let conflict = SyncError.write(
            operation: "create in-app purchase com.example.gems", productID: "com.example.gems", location: nil,
            error: .api(status: 409, errors: []), done: 1, total: 3)
        #expect(conflict.description.hasSuffix("fix what App Store Connect refused, then run push again"), "\(conflict.description)")
        let lost = SyncError.write(operation: "create", productID: nil, location: nil, error: .api(status: 500, errors: []), done: 1, total: 3)
        #expect(lost.description.hasSuffix("run push again to finish"))
    }
}
