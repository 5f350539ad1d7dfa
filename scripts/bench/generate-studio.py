#!/usr/bin/env python3
"""Writes a game studio's catalog for the App Store Connect benchmarks: N products, most of them consumables and a
tenth subscriptions (in groups of 4), each priced in USD and by hand in 15 territories at the fake App Store
Connect's price of a USD point a quarter higher (a hand-set price, not what the USD price equalizes to), with a price change scheduled for a later date (USD and the same 15 territories),
2 localizations each.

usage: generate-studio.py N OUT.yaml [START_DATE]
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "FakeAppStoreConnect"))
from fakeasc.reference import USD_POINTS, synthetic_price  # noqa: E402

TERRITORIES = ["GBR", "DEU", "FRA", "JPN", "IND", "BRA", "CAN", "AUS", "MEX", "KOR", "CHN", "TUR", "ZAF", "SWE", "CHE"]
PRICES = [("0.99", "1.29"), ("1.99", "2.49"), ("4.99", "5.99"), ("9.99", "11.99")]


USD = [usd for _, usd in USD_POINTS]


def territory_prices(usd):
    above = next(point for point in USD if float(point) >= float(usd) * 1.25)
    return "{" + ", ".join("%s: %s" % (t, synthetic_price(t, above)) for t in TERRITORIES) + "}"


def priced(indent, now, later, start, subscription=False):
    pad = " " * indent
    return [f"{pad}price: {now}", f"{pad}territoryPrices: {territory_prices(now)}", f"{pad}priceChanges:",
            f"{pad}  - startDate: {start}", f"{pad}    price: {later}", f"{pad}    territoryPrices: {territory_prices(later)}"] + (
                [f"{pad}    existingSubscribers: keep"] if subscription else [])


def main():
    count, out = int(sys.argv[1]), sys.argv[2]
    start = sys.argv[3] if len(sys.argv) > 3 else "2030-06-01"
    subscriptions = count // 10
    lines = ["schemaVersion: 1", "app:", "  bundleId: com.example.studio", "  primaryLocale: en-US", "products:"]
    for i in range(count - subscriptions):
        now, later = PRICES[i % len(PRICES)]
        lines += [f"  - productId: com.example.studio.gems{i}", f"    referenceName: Gems {i}", "    type: consumable"]
        lines += priced(4, now, later, start)
        lines += ["    localizations:", f"      - {{locale: en-US, name: Gems {i}, description: A pack of {i} gems.}}",
                  f"      - {{locale: fr-FR, name: Gemmes {i}, description: Un paquet de {i} gemmes.}}"]
    if subscriptions:
        lines.append("subscriptionGroups:")
    for g in range((subscriptions + 3) // 4):
        lines += [f"  - referenceName: Pass {g}", "    localizations:", f"      - {{locale: en-US, name: Pass {g}}}",
                  "    subscriptions:"]
        for j in range(min(4, subscriptions - 4 * g)):
            n = 4 * g + j
            now, later = PRICES[(n + 2) % len(PRICES)]
            lines += [f"      - productId: com.example.studio.pass{n}", f"        referenceName: Pass {n}", "        period: P1M",
                      f"        groupLevel: {j + 1}"]
            lines += priced(8, now, later, start, subscription=True)
            lines += ["        localizations:",
                      f"          - {{locale: en-US, name: Pass {n}, description: Every level every month.}}",
                      f"          - {{locale: fr-FR, name: Passe {n}, description: Tous les niveaux chaque mois.}}"]
    with open(out, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
