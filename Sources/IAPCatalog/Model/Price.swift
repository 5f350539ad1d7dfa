/// A USD customer price as written in the catalog. `cents` is set when the text has at most two decimals.
public struct Price: Sendable, Hashable, CustomStringConvertible {
    /// The amount exactly as written (`0.5`, `10`, `4.00`), so an imported price is exported unchanged.
    public var text: String
    public var cents: Int?
    public var approximateCents: Double

    public init(cents: Int) {
        self.cents = cents
        approximateCents = Double(cents)
        text = Price.format(cents: cents)
    }

    /// Parses `0.99`, `4`, `12.5`; nil when the text is not a non-negative decimal number.
    public init?(text: String) {
        let trimmed = text.trimmingWhitespace
        // ASCII digits, then optionally a point and more digits, read in one pass over the bytes.
        var whole = 0, wholeDigits = 0, fraction = 0, fractionDigits = 0
        var sawPoint = false, fractionIsZero = true
        for byte in trimmed.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = Int(byte - UInt8(ascii: "0"))
                if sawPoint {
                    if fractionDigits < 2 { fraction = fraction * 10 + digit }
                    if digit != 0 { fractionIsZero = false }
                    fractionDigits += 1
                } else {
                    if wholeDigits < 10 { whole = whole * 10 + digit }
                    wholeDigits += 1
                }
            case UInt8(ascii: "."):
                if sawPoint { return nil }
                sawPoint = true
            default:
                return nil
            }
        }
        guard (1...9).contains(wholeDigits), !sawPoint || fractionDigits > 0, let approximate = Double(trimmed) else { return nil }
        self.text = trimmed
        approximateCents = approximate * 100
        if fractionDigits <= 2 {
            cents = whole * 100 + (fractionDigits == 1 ? fraction * 10 : fraction)
        } else if fractionIsZero {
            cents = whole * 100
        } else {
            cents = nil
        }
    }

    public static func format(cents: Int) -> String {
        let fraction = cents % 100
        return "\(cents / 100).\((0..<10).contains(fraction) ? "0" : "")\(fraction)"
    }

    /// Decimals that matter: `14.90` has 1, `150.0` none, `14.905` 3.
    public var significantDecimals: Int {
        guard let point = text.firstIndex(of: ".") else { return 0 }
        return text[text.index(after: point)...].reversed().drop { $0 == "0" }.count
    }

    /// Decimals as written: `13.50` has 2, `150` none. For messages, which quote the text.
    public var writtenDecimals: Int {
        guard let point = text.firstIndex(of: ".") else { return 0 }
        return text.distance(from: text.index(after: point), to: text.endIndex)
    }

    /// `0.99` for messages and JSON: two decimals when exact.
    public var description: String { cents.map(Price.format(cents:)) ?? text }
}
