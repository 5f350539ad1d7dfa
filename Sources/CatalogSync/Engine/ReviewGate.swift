import IAPCatalog

/// Writes App Store Connect takes only for a product App Review has approved, as Apple documents them. Plan shows
/// each as waiting (`…`) with its reason, push leaves it out and does everything else, and the first push after the
/// approval sends it.
///
/// - A win-back offer: "Your subscription needs to be approved by App Review before you can create a win-back offer"
///   (App Store Connect Help, Set up win-back offers; the API's "Creating and configuring win-back offers" says the
///   same of the app and its subscriptions).
/// - An in-app purchase offer code's one-time-use codes for production and its custom codes: "To generate
///   one-time-use or custom codes, your app must be Ready for Distribution and the associated In-App Purchase must be
///   Approved"; the offer code itself and its sandbox codes need neither (App Store Connect Help, Create offer codes
///   for In-App Purchases). iapkit models the purchase's approval, not the app's.
enum ReviewGate {
    /// Approved at some point: approved, or removed from sale since (the states `asc submit` leaves alone).
    static func isApproved(_ live: StoreProduct?) -> Bool { live?.state.map(ReviewSubmitter.approvedStates.contains) ?? false }

    static func winBackOffer(_ live: StoreProduct?) -> String? {
        isApproved(live)
            ? nil
            : "App Store Connect creates win-back offers only for a subscription App Review has approved; "
                + "push sends it after the approval"
    }

    static func inAppPurchaseCodes(_ live: StoreProduct?) -> String? {
        isApproved(live)
            ? nil
            : "App Store Connect makes an in-app purchase's production codes and custom codes only once App Review "
                + "has approved it (sandbox codes need no approval); push sends them after the approval"
    }

    /// An offer code's parts split by the gate: the codes App Store Connect takes now (sandbox batches), and those
    /// that wait (production batches and custom codes the live offer code does not have yet, and turning the offer
    /// code off, which must come after them).
    static func split(_ offer: OfferRecord, live: OfferRecord?) -> (now: OfferRecord, waiting: OfferCodesRecord?) {
        // An offer code App Store Connect has turned off takes nothing new, approved or not: not this gate's to hold.
        guard let codes = offer.codes, live?.codes?.active != false else { return (offer, nil) }
        let liveBatches = live?.codes?.batches ?? [], liveCustom = live?.codes?.custom ?? []
        var now = offer
        let batchesWaiting = (codes.batches ?? []).filter { batch in
            batch.environment != .sandbox && !liveBatches.contains { $0.isSameBatch(as: batch) }
        }
        let customWaiting = (codes.custom ?? []).filter { code in !liveCustom.contains { $0.code == code.code } }
        now.codes?.batches = codes.batches.map { batches in batches.filter { batch in !batchesWaiting.contains(batch) } }
        now.codes?.custom = codes.custom.map { custom in custom.filter { code in !customWaiting.contains(code) } }
        guard !batchesWaiting.isEmpty || !customWaiting.isEmpty else { return (offer, nil) }
        // A deactivated offer code takes no new codes: one the catalog turns off is turned off after what waits.
        if !codes.active { now.codes?.active = live?.codes?.active ?? true }
        return (now, OfferCodesRecord(active: codes.active, batches: batchesWaiting, custom: customWaiting))
    }
}
