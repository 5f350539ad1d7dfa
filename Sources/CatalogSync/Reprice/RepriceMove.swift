import IAPCatalog
import IAPCore

/// How `asc reprice` moves each price: by a percentage, by points of the territory's grid, or to a USD base price
/// (the hand-set territories then move by the same ratio).
public enum RepriceMove: Sendable, Equatable {
    /// `--by 10%`: 10; `--by -15%`: -15.
    case percent(Double)
    /// `--steps 2`, `--steps -1`.
    case steps(Int)
    /// `--to 1.99`: the new USD base price, in cents.
    case to(cents: Int)

    /// `+10%`, `2 steps up`, `to 1.99 USD`, for notes.
    public var description: String {
        switch self {
        case let .percent(value): return (value > 0 ? "+" : "") + Format.fixed(value, decimals: value.rounded() == value ? 0 : 2) + "%"
        case let .steps(count): return Format.count(abs(count), "step") + (count > 0 ? " up" : " down")
        case let .to(cents): return "to \(Price.format(cents: cents)) USD"
        }
    }
}

/// One price moved on one territory's grid: the price point it lands on, and why it is not where plain rounding put
/// it, when it is not; or why it cannot move.
enum RepricedPrice: Equatable {
    case moved(String, note: String?)
    case refused(String)
}

/// The arithmetic of a bulk change on a territory's grid (canonical prices, as `LocalPrice` compares them).
enum RepriceGrid {
    /// The grid's points in ascending order, each once; free only for a product that may be free.
    static func points(_ grid: [String], mayBeFree: Bool) -> [String] {
        var seen = Set<String>()
        return grid.compactMap(LocalPrice.canonical).filter { (mayBeFree || LocalPrice.value($0) > 0) && seen.insert($0).inserted }
            .sorted { LocalPrice.value($0) < LocalPrice.value($1) }
    }

    /// The USD grid, offline: App Store Connect's 800 points (and free).
    static var usd: [String] { IAPCatalog.PriceGrid.pointsCents.compactMap { LocalPrice.canonical(Price.format(cents: $0)) } }

    /// `current` times `factor`, rounded to the nearest point of `points` (ties upward for an increase, downward for a
    /// decrease), and never left where it was, nor moved the other way: a price that rounding would keep moves one
    /// point, and says so. A factor of 1 keeps the price.
    static func scaled(_ current: String, by factor: Double, on points: [String], territory: String, what: String) -> RepricedPrice {
        let value = LocalPrice.value(current)
        guard factor != 1, !points.isEmpty else { return .moved(current, note: nil) }
        let up = factor > 1
        let target = value * factor
        let tolerance = 1e-9 * max(1, target)
        var best = points[0]
        for point in points.dropFirst() {
            let distance = abs(LocalPrice.value(point) - target), bestDistance = abs(LocalPrice.value(best) - target)
            if distance < bestDistance - tolerance || (abs(distance - bestDistance) <= tolerance && up) { best = point }
        }
        let moved = up ? LocalPrice.value(best) > value + tolerance : LocalPrice.value(best) < value - tolerance
        if moved { return .moved(best, note: nil) }
        // Rounding keeps the price (or would move it the other way): one point in the direction asked.
        guard
            let next = up
                ? points.first(where: { LocalPrice.value($0) > value + tolerance }) : points.last(where: { LocalPrice.value($0) < value - tolerance })
        else { return .refused(endOfGrid(current, up: up, points: points, territory: territory)) }
        let shown = { (price: String) in show(price, territory: territory) }
        return .moved(
            next, note: "\(territory): \(what) of \(shown(current)) rounds to \(shown(best)) on its grid; moved one point, to \(shown(next))")
    }

    /// `count` points up (or down) `points` from `current`; a price off the grid takes its first step to the point
    /// next to it. Past the grid's end is refused.
    static func stepped(_ current: String, by count: Int, on points: [String], territory: String) -> RepricedPrice {
        let value = LocalPrice.value(current)
        let tolerance = 1e-9 * max(1, value)
        let up = count > 0
        let index: Int
        if let at = points.firstIndex(where: { abs(LocalPrice.value($0) - value) <= tolerance }) {
            index = at + count
        } else if up {
            index = (points.firstIndex { LocalPrice.value($0) > value } ?? points.count) + count - 1
        } else {
            index = (points.lastIndex { LocalPrice.value($0) < value } ?? -1) + count + 1
        }
        guard points.indices.contains(index) else { return .refused(endOfGrid(current, up: up, points: points, territory: territory, steps: count)) }
        return .moved(points[index], note: nil)
    }

    static func endOfGrid(_ current: String, up: Bool, points: [String], territory: String, steps: Int? = nil) -> String {
        let edge = (up ? points.last : points.first).map { show($0, territory: territory) } ?? "none"
        let what = steps.map { "\(Format.count(abs($0), "point")) \(up ? "up" : "down") from" } ?? "a move \(up ? "up" : "down") from"
        return "\(territory): \(what) \(show(current, territory: territory)) passes the \(up ? "highest" : "lowest") price point there (\(edge))"
    }

    /// `14.90 BRL`, `0.99 USD`.
    static func show(_ canonical: String, territory: String) -> String {
        LocalPrice.display(canonical, territory: territory) + (Storefronts.currencies[territory].map { " \($0)" } ?? "")
    }
}
