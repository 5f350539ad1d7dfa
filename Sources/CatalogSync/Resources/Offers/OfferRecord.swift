import IAPCatalog
import IAPCore

/// An offer on an auto-renewable subscription, in App Store Connect's terms.
public struct OfferRecord: Sendable, Equatable {
    /// `inAppPurchaseOfferCode`: an in-app purchase's offer code, whose only terms are its prices and customers.
    public enum Kind: String, Sendable { case introductory, promotional, offerCode, winBack, inAppPurchaseOfferCode }
    public var kind: Kind
    /// Promotional: `offerCode`; win-back: `offerId`; offer code: its reference name. Nil for introductory offers.
    public var identifier: String?
    public var referenceName: String?
    /// App Store Connect answered its prices without their territories or points: the price is unknown.
    public var pricesUnanswered = false
    /// FREE_TRIAL, PAY_AS_YOU_GO, PAY_UP_FRONT.
    public var mode: String
    /// THREE_DAYS … ONE_YEAR.
    public var duration: String
    public var periods: Int
    /// USD price in cents; nil for free trials.
    public var priceCents: Int?
    /// Offer codes: NEW, EXISTING, EXPIRED; an in-app purchase's: NON_SPENDER, ACTIVE_SPENDER, CHURNED_SPENDER.
    public var eligibilities: [String]?
    /// Offer codes: STACK_WITH_INTRO_OFFERS or REPLACE_INTRO_OFFERS.
    public var offerEligibility: String?
    /// The billing plan the offer is for (`UPFRONT`, `MONTHLY`) when the subscription lists billing plans.
    public var planType: String?
    /// Paid offers: territory → canonical local price, where the offer does not take the equalized price (`0`:
    /// free there).
    public var territoryPrices: [String: String] = [:]
    /// Promotional, offer-code and win-back offers: the territories the offer is set in, sorted; nil where the
    /// catalog names none (every territory the product is sold or priced in, as `plan` fills it in).
    public var territories: [String]?
    /// Win-back offers: what can change after the offer exists.
    public var winBack: WinBackRecord?
    /// Offer codes: whether active, and their one-time batches and custom codes.
    public var codes: OfferCodesRecord?

    public init(
        kind: Kind, identifier: String? = nil, referenceName: String? = nil, mode: String, duration: String,
        periods: Int, priceCents: Int? = nil, eligibilities: [String]? = nil, offerEligibility: String? = nil,
        planType: String? = nil
    ) {
        self.kind = kind
        self.identifier = identifier
        self.referenceName = referenceName
        self.mode = mode
        self.duration = duration
        self.periods = periods
        self.priceCents = priceCents
        self.eligibilities = eligibilities.map { $0.sorted() }
        self.offerEligibility = offerEligibility
        self.planType = planType
    }

    /// The offer without what App Store Connect lets its owner change later.
    /// The offer without its prices and territories, for kinds whose update request carries them (a promotional
    /// offer's).
    public var withoutPrices: OfferRecord {
        var offer = self
        (offer.priceCents, offer.territoryPrices, offer.territories) = (nil, [:], nil)
        return offer
    }

    /// A paid offer free in `territory`: its own price there is 0, or it takes a USD price of 0.
    public func isFree(in territory: String) -> Bool {
        if let own = territoryPrices[territory] { return own == "0" }
        return priceCents == 0
    }

    public var fixedPart: OfferRecord {
        var fixed = self
        fixed.winBack = nil
        fixed.codes = nil
        return fixed
    }

    /// The terms App Store Connect cannot change once the offer exists.
    public var terms: [String: String] {
        var fields = ["price": priceCents.map(Price.format(cents:)) ?? "free"]
        if kind != .inAppPurchaseOfferCode {
            fields["mode"] = mode
            fields["duration"] = duration
            fields["periods"] = String(periods)
        }
        if let eligibilities { fields["eligibility"] = eligibilities.joined(separator: ",") }
        if let offerEligibility { fields["offerEligibility"] = offerEligibility }
        if !territoryPrices.isEmpty {
            fields["territoryPrices"] = territoryPrices.sorted { $0.key < $1.key }
                .map { "\($0.key) \(LocalPrice.display($0.value, territory: $0.key))" }.joined(separator: ", ")
        }
        if let territories { fields["territories"] = Territories.summary(territories) }
        return fields
    }
}

extension CatalogRecords {
    /// The catalog's offer as App Store Connect holds it; nil when its terms are incomplete (lint reports them).
    static func offerRecord(_ offer: Offer, kind: OfferRecord.Kind, subscriptionPeriod: String?, planType: String? = nil) -> OfferRecord? {
        guard let terms = Vocabulary.terms(of: offer, subscriptionPeriod: subscriptionPeriod) else { return nil }
        let identifier: String?
        switch kind {
        case .introductory: identifier = nil
        case .offerCode, .inAppPurchaseOfferCode: identifier = offer.referenceName
        case .promotional, .winBack: identifier = offer.offerID
        }
        var record = OfferRecord(
            kind: kind, identifier: identifier, referenceName: offer.referenceName ?? offer.offerID, mode: terms.mode,
            duration: terms.duration, periods: terms.periods, priceCents: offer.mode == .freeTrial ? nil : offer.price?.cents,
            eligibilities: offer.eligibility.map { $0.map(\.apiValue) },
            offerEligibility: kind == .offerCode ? ((offer.stackable ?? false) ? "STACK_WITH_INTRO_OFFERS" : "REPLACE_INTRO_OFFERS") : nil,
            planType: planType)
        if offer.mode != .freeTrial { record.territoryPrices = ProductRecord.territoryPrices(offer.territoryPrices) }
        if kind != .introductory { record.territories = offer.territories.map { Array(Set($0)).sorted() } }
        if kind == .winBack { record.winBack = WinBackRecord(offer.winBack) }
        if kind == .offerCode { record.codes = OfferCodesRecord(offer) }
        return record
    }

    /// The inverse of `Vocabulary.terms(of:subscriptionPeriod:)`.
    func offer(_ record: OfferRecord, subscriptionPeriod: String?) -> Offer {
        let kind: OfferKind
        switch record.kind {
        case .introductory: kind = .introductory
        case .promotional: kind = .promotional
        case .offerCode, .inAppPurchaseOfferCode: kind = .offerCode
        case .winBack: kind = .winBack
        }
        if record.kind == .inAppPurchaseOfferCode {
            var offer = Offer(path: .root, kind: .offerCode, price: record.priceCents.map { Price(cents: $0) }, referenceName: record.identifier)
            offer.territoryPrices = Self.territoryPriceList(record.territoryPrices)
            let customers = (record.eligibilities ?? []).compactMap(OfferEligibility.init(apiValue:))
            // Every customer is what an absent `eligibility` means.
            offer.eligibility = Swift.Set(customers) == Swift.Set(OfferEligibility.inAppPurchaseCustomers) ? nil : customers
            record.codes?.apply(to: &offer)
            return offer
        }
        var offer = Offer(path: .root, kind: kind, mode: Vocabulary.offerMode(api: record.mode))
        switch offer.mode {
        case .payAsYouGo?: offer.periods = record.periods
        default: offer.duration = Vocabulary.isoDuration(record.duration)
        }
        offer.price = record.priceCents.map { Price(cents: $0) }
        offer.territoryPrices = Self.territoryPriceList(record.territoryPrices)
        switch record.kind {
        case .promotional, .winBack:
            offer.offerID = record.identifier
            offer.referenceName = record.referenceName
            if let winBack = record.winBack { offer.winBack = winBack.settings }
        case .offerCode:
            offer.referenceName = record.identifier
            offer.eligibility = record.eligibilities?.compactMap(OfferEligibility.init(apiValue:))
            offer.stackable = record.offerEligibility == "STACK_WITH_INTRO_OFFERS"
            record.codes?.apply(to: &offer)
        case .introductory, .inAppPurchaseOfferCode: break
        }
        return offer
    }
}
