import IAPCatalog
import IAPCore

/// `iapkit asc prices`: what every product costs in every territory, and what the developer receives, today and at
/// each scheduled change, as App Store Connect reports it. One sheet for a pricing review.
public struct PriceSheetRow: Sendable, Equatable {
    public var productID: String
    /// `UPFRONT` or `MONTHLY` for a subscription's billing plan; nil for an in-app purchase.
    public var plan: String?
    public var territory: String
    public var currency: String
    /// nil: today's price.
    public var startDate: String?
    /// The day the row's price is in force from, as the sheet shows it: its start date, or for today's price today
    /// (App Store Connect's calendar day, `YYYY-MM-DD`).
    public var from: String
    /// A sale's end: the first day back at the regular price; nil for a price without an end.
    public var until: String?
    public var customerPrice: String
    public var proceeds: String?
    /// Set by hand in App Store Connect (a manual price, or a subscription price that is not the equalization).
    public var byHand: Bool
    /// Why the price is not known: App Store Connect answered it without what names it (its territory or price
    /// point), or answered the product's price schedule with links only. The row stands for it, never left out.
    public var unanswered: String?

    /// `today`: App Store Connect's calendar day (`20261123`), the `from` of today's price.
    public init(
        productID: String, plan: String? = nil, territory: String, startDate: String?, today: Int, customerPrice: String,
        proceeds: String?, byHand: Bool
    ) {
        self.productID = productID
        self.plan = plan
        self.territory = territory
        currency = Storefronts.currencies[territory] ?? ""
        self.startDate = startDate
        from = startDate ?? CalendarDay.format(today)
        self.customerPrice = customerPrice
        self.proceeds = proceeds
        self.byHand = byHand
    }
}

public enum PriceSheetReport {
    public static let columns = ["productId", "plan", "territory", "currency", "from", "until", "customerPrice", "proceeds", "set"]

    static func cells(_ row: PriceSheetRow) -> [String] {
        [
            row.productID, row.plan ?? "", row.territory, row.currency, row.from, row.until ?? "",
            LocalPrice.canonical(row.customerPrice).map { LocalPrice.display($0, territory: row.territory) } ?? row.customerPrice,
            row.proceeds.map { LocalPrice.canonical($0).map { LocalPrice.rounded($0, territory: row.territory) } ?? $0 } ?? "",
            row.unanswered != nil ? "not answered" : row.byHand ? "by hand" : "equalized",
        ]
    }

    /// RFC 4180 CSV with a header row, for a spreadsheet.
    public static func csv(_ rows: [PriceSheetRow]) -> String {
        ([columns] + rows.map(cells)).map(CSVRecords.record).joined()
    }

    public static func json(_ rows: [PriceSheetRow]) -> String {
        JSONValue.object([
            (
                "prices",
                .array(
                    rows.map { row in
                        .object(
                            [
                                ("productId", .string(row.productID)), ("plan", .optional(row.plan)), ("territory", .string(row.territory)),
                                ("currency", .string(row.currency)), ("from", .string(row.from)),
                                ("startDate", .optional(row.startDate)), ("until", .optional(row.until)),
                                ("customerPrice", .string(row.customerPrice)), ("proceeds", .optional(row.proceeds)),
                                ("byHand", .bool(row.byHand)),
                            ] + (row.unanswered.map { [("unanswered", JSONValue.string($0))] } ?? []))
                    })
            )
        ]).serialized(.pretty)
    }

    /// Aligned columns for a terminal.
    public static func text(_ rows: [PriceSheetRow]) -> String {
        let table = [columns] + rows.map(cells)
        var widths = [Int](repeating: 0, count: columns.count)
        for line in table { for (index, cell) in line.enumerated() { widths[index] = max(widths[index], cell.count) } }
        return table.map { line in
            line.enumerated().map { index, cell in
                index == line.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}

extension PriceSheetRow {
    /// A price App Store Connect did not answer: `?` where the territory or the price would stand.
    static func unanswered(productID: String, plan: String? = nil, territory: String?, today: Int, why: String) -> PriceSheetRow {
        var row = PriceSheetRow(
            productID: productID, plan: plan, territory: territory ?? "?", startDate: nil, today: today, customerPrice: "?",
            proceeds: nil, byHand: false)
        row.unanswered = why
        return row
    }
}
