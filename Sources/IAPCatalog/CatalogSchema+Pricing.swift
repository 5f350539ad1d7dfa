#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCore

/// Territory prices, scheduled changes and the price sheet of a product or subscription.
extension NodeReader {
    func readPricing(_ object: Object, into product: inout Product) throws(IAPKitError) {
        product.territoryPrices = try readTerritoryPrices(object)
        product.priceChanges = try readPriceChanges(object)
        product.sales = try readSales(object)
        guard let sheet = object.string("priceSheet") else { return }
        product.priceSheet = sheet
        let rows = try readPriceSheet(sheet, path: object.path / "priceSheet")
        for row in rows {
            guard let date = row.startDate else {
                product.territoryPrices.append(row)
                continue
            }
            if let index = product.priceChanges.firstIndex(where: { $0.startDate == date }) {
                product.priceChanges[index].territoryPrices.append(row)
            } else {
                // A date only the sheet names: a change of territory prices, located at its first row.
                product.priceChanges.append(PriceChange(path: row.path, startDate: date, territoryPrices: [row]))
            }
        }
    }

    /// `pricedTerritories: all`, or a list of territory codes.
    func readPricedTerritories(_ object: Object) throws(IAPKitError) -> PricedTerritories? {
        guard let node = object.node("pricedTerritories") else { return nil }
        let path = object.path / "pricedTerritories"
        if document.isScalar(node) {
            guard document.string(node) == "all" else {
                report("`pricedTerritories` is `all` or a list of territory codes, not `\(document.string(node))`", at: path)
                return nil
            }
            return .all
        }
        return .only(
            try object.list("pricedTerritories") { node, path throws(IAPKitError) in
                try count()
                return string(node, at: path)
            })
    }

    /// `existingSubscribers: keep`, or per territory: `existingSubscribers: {GBR: move, others: keep}`.
    func readExistingSubscribers(_ change: Object, into result: inout PriceChange) throws(IAPKitError) {
        guard let node = change.node("existingSubscribers") else { return }
        let path = change.path / "existingSubscribers"
        guard document.kind(node) == .mapping else {
            guard let text = string(node, at: path) else { return }
            result.existingSubscribers = ExistingSubscribers(rawValue: text)
            if result.existingSubscribers == nil { result.existingSubscribersText = text }
            return
        }
        let items = document.items(node)
        var index = items.startIndex
        while index + 1 < items.endIndex {
            defer { index += 2 }
            try count()
            guard document.isScalar(items[index]), document.isScalar(items[index + 1]) else {
                report("`existingSubscribers` maps territory codes (and `others`) to `keep` or `move`", at: path)
                continue
            }
            let territory = document.string(items[index]), text = document.string(items[index + 1])
            if territory == "others" {
                result.existingSubscribers = ExistingSubscribers(rawValue: text)
                if result.existingSubscribers == nil { result.existingSubscribersText = text }
            } else {
                result.existingSubscribersByTerritory.append(
                    TerritoryChoice(path: path / territory, territory: territory, choice: ExistingSubscribers(rawValue: text), text: text))
            }
        }
    }

    /// `priceChanges:`, a list of changes with their start dates.
    func readPriceChanges(_ object: Object) throws(IAPKitError) -> [PriceChange] {
        try object.list("priceChanges") { node, path throws(IAPKitError) in
            let change = try Object(node, path: path, what: "a price change", allowed: CatalogFormat.priceChange.names, reader: self)
            guard change.valid else { return nil }
            defer { change.finish() }
            var result = PriceChange(
                path: path, startDate: change.string("startDate", required: true),
                price: change.price("price"), territoryPrices: try readTerritoryPrices(change))
            try readExistingSubscribers(change, into: &result)
            return result
        }
    }

    /// `sales:`, a list of prices with a start and an end.
    func readSales(_ object: Object) throws(IAPKitError) -> [Sale] {
        try object.list("sales") { node, path throws(IAPKitError) in
            let sale = try Object(node, path: path, what: "a sale", allowed: CatalogFormat.sale.names, reader: self)
            guard sale.valid else { return nil }
            defer { sale.finish() }
            return Sale(
                path: path, startDate: sale.string("startDate"), endDate: sale.string("endDate", required: true),
                price: sale.price("price"), territoryPrices: try readTerritoryPrices(sale))
        }
    }

    /// `territoryPrices: {IND: 99, BRA: 14.90}`: a territory code to a price in its currency.
    func readTerritoryPrices(_ object: Object) throws(IAPKitError) -> [TerritoryPrice] {
        guard let node = object.node("territoryPrices") else { return [] }
        let path = object.path / "territoryPrices"
        guard document.kind(node) == .mapping else {
            report("`territoryPrices` must map territory codes to prices, such as `IND: 99`, not \(kind(of: node))", at: path)
            return []
        }
        let items = document.items(node)
        var result: [TerritoryPrice] = []
        var index = items.startIndex
        while index + 1 < items.endIndex {
            defer { index += 2 }
            try count()
            guard document.isScalar(items[index]) else {
                report("`territoryPrices` has a key that is not a territory code", at: path)
                continue
            }
            let territory = document.string(items[index])
            result.append(
                TerritoryPrice(
                    path: path / territory, territory: territory, price: price(items[index + 1], at: path / territory, territory: territory)))
        }
        return result
    }

    /// Reads a price sheet: a CSV file with a header row naming `territory` and `price`, and optionally `startDate`.
    /// Each row gets the path `priceSheet[N]` and the sheet's own file, line and column as its location.
    func readPriceSheet(_ relative: String, path: CatalogPath) throws(IAPKitError) -> [TerritoryPrice] {
        // A sheet belongs beside the catalog: a path that leaves its folder would let a catalog read any file.
        let components = relative.split(separator: "/", omittingEmptySubsequences: true)
        guard !relative.hasPrefix("/"), !components.contains(".."), !components.isEmpty else {
            report("price sheet `\(relative)` must be a relative path inside the catalog's folder", at: path)
            return []
        }
        let file = Path.join(Path.parent(catalog.file), relative)
        guard FileManager.default.fileExists(atPath: file) else {
            report("price sheet `\(relative)` does not exist (paths are relative to the catalog's folder)", at: path)
            return []
        }
        let data = try InputFile.read(file, limit: InputFile.Limit.catalog)
        guard var text = String(data: data, encoding: .utf8) else {
            report("price sheet `\(relative)` is not UTF-8 text", at: path)
            return []
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }  // spreadsheets often write a byte-order mark
        let records: [CSVRecords.Record]
        do { records = try CSVRecords.parse(text) } catch {
            report(
                "price sheet `\(relative)`: a quoted field from line \(error.line) never ends", at: path,
                location: SourceLocation(file: file, line: error.line, column: 1))
            return []
        }
        let header = (records.first?.fields ?? []).map { $0.trimmingSpaces() }
        func column(_ name: String) -> Int? { header.firstIndex { $0.lowercased() == name.lowercased() } }
        guard let territoryColumn = column("territory"), let priceColumn = column("price") else {
            report(
                "price sheet `\(relative)` needs a header row with the columns `territory,price` (and optionally `startDate`); "
                    + "it has \(header.isEmpty ? "none" : header.joined(separator: ","))", at: path)
            return []
        }
        let dateColumn = column("startDate")
        var rows: [TerritoryPrice] = []
        for record in records.dropFirst() {
            try count()
            let fields = record.fields.map { $0.trimmingSpaces() }
            if fields.allSatisfy({ $0.isEmpty }) { continue }
            let rowPath = path + rows.count
            sheetLocations[rowPath] = SourceLocation(file: file, line: record.line, column: 1)
            func field(_ index: Int) -> String { index < fields.count ? fields[index] : "" }
            let priceText = field(priceColumn)
            let price = Price(text: priceText)
            if price == nil {
                let hint = priceText.contains(",") ? "; write the decimal separator as a point (14.90)" : ""
                let territory = field(territoryColumn)
                let what = Storefronts.isTerritory(territory) ? " in \(Storefronts.currencies[territory] ?? "")" : ""
                report("`\(priceText)` in the price column is not a price\(what)\(hint)", at: rowPath)
            }
            let date = dateColumn.map(field).flatMap { $0.isEmpty ? nil : $0 }
            rows.append(TerritoryPrice(path: rowPath, territory: field(territoryColumn), price: price, startDate: date))
        }
        return rows
    }
}
