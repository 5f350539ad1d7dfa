import IAPCatalog
import IAPCore

/// A win-back offer's eligibility, priority, promotion and dates, in App Store Connect's terms.
public struct WinBackRecord: Sendable, Equatable {
    public var paidMonths: Int
    public var lapsedMinimum: Int
    public var lapsedMaximum: Int
    public var monthsBetweenOffers: Int?
    /// HIGH or NORMAL.
    public var priority: String
    /// NOT_PROMOTED or USE_AUTO_GENERATED_ASSETS.
    public var promotionIntent: String
    /// The first day (`20310501`); nil once the offer has started, or when the catalog starts it on push.
    public var startDate: Int?
    public var endDate: Int?

    /// What App Store Connect's web form starts from, and what an offer the catalog says nothing more of gets:
    /// customers who paid at least a month and lapsed 1 to 24 months ago, normal priority, not promoted.
    public init(
        paidMonths: Int = 1, lapsedMinimum: Int = 1, lapsedMaximum: Int = 24, monthsBetweenOffers: Int? = nil,
        priority: String = "NORMAL", promotionIntent: String = "NOT_PROMOTED", startDate: Int? = nil, endDate: Int? = nil
    ) {
        self.paidMonths = paidMonths
        self.lapsedMinimum = lapsedMinimum
        self.lapsedMaximum = lapsedMaximum
        self.monthsBetweenOffers = monthsBetweenOffers
        self.priority = priority
        self.promotionIntent = promotionIntent
        self.startDate = startDate
        self.endDate = endDate
    }

    /// The same record with a start on or before `today` read as started.
    public func started(by today: Int) -> WinBackRecord {
        var record = self
        if let start = startDate, start <= today { record.startDate = nil }
        return record
    }

    /// Each field as the plan shows it.
    public var fields: [String: String] {
        var fields = [
            "paidMonths": String(paidMonths), "lapsedMonths": "\(lapsedMinimum)-\(lapsedMaximum)",
            "priority": priority, "promotionIntent": promotionIntent,
            "startDate": startDate.map(CalendarDay.format) ?? "started", "endDate": endDate.map(CalendarDay.format) ?? "none",
        ]
        fields["monthsBetweenOffers"] = monthsBetweenOffers.map(String.init) ?? "none"
        return fields
    }
}

extension WinBackRecord {
    /// The catalog's settings, absent ones at App Store Connect's usual choices.
    public init(_ settings: WinBackSettings) {
        self.init()
        if let months = settings.paidMonths { paidMonths = months }
        if let minimum = settings.lapsedMinimum { lapsedMinimum = minimum }
        if let maximum = settings.lapsedMaximum { lapsedMaximum = maximum }
        monthsBetweenOffers = settings.monthsBetweenOffers
        if settings.priority == "high" { priority = "HIGH" }
        if settings.promotion == "app-store" { promotionIntent = "USE_AUTO_GENERATED_ASSETS" }
        startDate = settings.startDate.flatMap(CalendarDay.parse)
        endDate = settings.endDate.flatMap(CalendarDay.parse)
    }

    /// The inverse: only what differs from the usual choices is written.
    public var settings: WinBackSettings {
        let usual = WinBackRecord()
        var settings = WinBackSettings()
        if paidMonths != usual.paidMonths { settings.paidMonths = paidMonths }
        if lapsedMinimum != usual.lapsedMinimum || lapsedMaximum != usual.lapsedMaximum {
            settings.lapsedMinimum = lapsedMinimum
            settings.lapsedMaximum = lapsedMaximum
        }
        settings.monthsBetweenOffers = monthsBetweenOffers
        if priority == "HIGH" { settings.priority = "high" }
        if promotionIntent == "USE_AUTO_GENERATED_ASSETS" { settings.promotion = "app-store" }
        settings.startDate = startDate.map(CalendarDay.format)
        settings.endDate = endDate.map(CalendarDay.format)
        return settings
    }
}
