#!/usr/bin/env python3
"""Writes a large, clean catalog for benchmarks: N products, 3 localizations each, a fifth of them subscriptions.

usage: generate-catalog.py N OUT.yaml
"""
import sys

count, out = int(sys.argv[1]), sys.argv[2]
prices = ["0.99", "1.99", "2.99", "4.99", "9.99"]
lines = ["schemaVersion: 1", "app:", "  bundleId: com.example.big", "  primaryLocale: en-US", "products:"]
subs = count // 5
for i in range(count - subs):
    kind = "consumable" if i % 2 else "non-consumable"
    lines += [f"  - productId: com.example.big.item{i}", f"    referenceName: Item {i}", f"    type: {kind}",
              f"    price: {prices[i % 5]}", "    localizations:"]
    for locale, word in (("en-US", "Item"), ("fr-FR", "Objet"), ("ja", "アイテム")):
        lines += [f"      - locale: {locale}", f"        name: {word} {i}", f"        description: {word} number {i} for sale."]
    lines += ["    review:", f"      note: Tap item {i}.", "      screenshot: shot.png"]
lines += ["subscriptionGroups:"]
per_group = 10
for g in range((subs + per_group - 1) // per_group):
    lines += [f"  - referenceName: Group {g}", "    localizations:", "      - locale: en-US", f"        name: Group {g}", "    subscriptions:"]
    for j in range(min(per_group, subs - g * per_group)):
        n = g * per_group + j
        lines += [f"      - productId: com.example.big.sub{n}", f"        referenceName: Sub {n}", "        period: P1M",
                  f"        groupLevel: {j + 1}", "        price: 4.99",
                  "        introductoryOffer: {mode: free-trial, duration: P1W}", "        localizations:"]
        for locale, word in (("en-US", "Plan"), ("fr-FR", "Forfait"), ("ja", "プラン")):
            lines += [f"          - locale: {locale}", f"            name: {word} {n}", f"            description: {word} {n}, monthly."]
        lines += ["        review:", f"          note: Tap plan {n}.", "          screenshot: shot.png"]
with open(out, "w", encoding="utf-8") as f:
    f.write("\n".join(lines) + "\n")
