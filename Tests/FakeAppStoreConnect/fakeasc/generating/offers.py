"""Offers as the generator leaves them: subscriptions' introductory, promotional and win-back offers and offer
codes, in-app purchases' offer codes, and the codes of both."""

import datetime
import random

from ..reference import FREE_POINT, USD_BY_ID, decode_price_point, price_point_id, synthetic_price
from ..resources.offer_codes import BATCHES, CODE_ALPHABET, VALID_MONTHS, add_months
from ..resources.offers import PERIOD_OF
from ..resources.product_states import APPROVED_OR_LATER
from ..resources.win_back_offers import LAPSED, PAID, WAIT
from .tables import IAP_ELIGIBILITIES, PAID_POINTS, add_days


class GeneratingOffers:
    """Mixin of the service: the offers of a generated state."""

    @staticmethod
    def offer_territories(priced, places, classes, name):
        """Where an offer is set: every territory the subscription is priced in, or (class `NAME:some-territories`)
        a few of them, as people narrow an offer in the web UI."""
        if len(priced) < 3 or places.random() >= 0.3:
            return priced
        classes.append(name + ":some-territories")
        return sorted(places.sample(priced, places.randint(2, min(5, len(priced) - 1))))

    def generate_offers(self, sub, rnd, classes, priced, period, more, codes, places):
        kind = rnd.choice(["none", "none", "free-trial", "paid-some-territories"])
        classes.append("intro:" + kind)
        if kind == "free-trial":
            for territory in priced:
                self.generate_intro(sub, territory, "FREE_TRIAL", "ONE_WEEK", 1, None)
        elif kind == "paid-some-territories":
            # A discount on every price the territory has, today's and scheduled ones: two periods at a lower point.
            lowest = self.lowest_numbers(sub)
            for territory in sorted(rnd.sample(priced, min(len(priced), rnd.randint(1, 3)))):
                cheaper = self.cheaper_points(territory, lowest.get(territory))
                if cheaper:
                    point = price_point_id(sub["id"], territory, rnd.choice(cheaper))
                    self.generate_intro(sub, territory, "PAY_AS_YOU_GO", period, min(2, PERIOD_OF[period]), point)
        if rnd.random() < 0.3:
            classes.append("promotional")
            self.commit_priced_offer(sub, "subscriptionPromotionalOffers", {
                "name": "Come back", "offerCode": "comeback%d" % rnd.randint(1, 99), "offerMode": "FREE_TRIAL",
                "duration": "ONE_MONTH", "numberOfPeriods": 1},
                [(t, None) for t in self.offer_territories(priced, places, classes, "promotional")])
        current = self.current_numbers(sub)
        cheaper = self.cheaper_points("USA", self.lowest_numbers(sub).get("USA"))
        if cheaper and rnd.random() < 0.3:
            # Pay as you go at a USD discount, equalized, with one territory at a price of its own.
            classes.append("promotional:paid")
            number = rnd.choice(cheaper)
            followers = [t for t in priced if current.get(t) == current["USA"]]
            own = rnd.choice(followers) if len(followers) > 1 and rnd.random() < 0.5 else None
            # Each territory's price lower than the subscription's there: the lowest point is lower everywhere.
            prices = [(t, price_point_id(sub["id"], t, PAID_POINTS[0] if t == own and t != "USA" else number))
                      for t in priced]
            if len(prices) > 1 and places.random() < 0.3:
                # Free in one territory, the USA too (a price without a point), paid in the others.
                classes.append("promotional:free-territory")
                free = places.choice([t for t, _ in prices])
                prices = [(t, None if t == free else point) for t, point in prices]
            self.commit_priced_offer(sub, "subscriptionPromotionalOffers", {
                "name": "Half price", "offerCode": "half%d" % rnd.randint(1, 99), "offerMode": "PAY_AS_YOU_GO",
                "duration": period, "numberOfPeriods": min(2, PERIOD_OF[period])}, prices)
        # Win-back offers only for a subscription App Review approved, as App Store Connect creates them.
        if rnd.random() < 0.5 and sub["attributes"]["state"] in APPROVED_OR_LATER:
            classes.append("win-back")
            self.commit_priced_offer(sub, "winBackOffers", dict({
                "referenceName": "Welcome back", "offerId": "winback%d" % rnd.randint(1, 99), "offerMode": "FREE_TRIAL",
                "duration": "ONE_MONTH", "periodCount": 1}, **self.win_back_terms_of(more, classes)),
                [(t, None) for t in self.offer_territories(priced, places, classes, "win-back")])
        if rnd.random() < 0.2:
            classes.append("offer-code")
            offer = self.commit_priced_offer(sub, "subscriptionOfferCodes", {
                "name": "Spring %d" % rnd.randint(1, 99), "customerEligibilities": ["NEW"],
                "offerEligibility": "STACK_WITH_INTRO_OFFERS", "offerMode": "FREE_TRIAL", "duration": "ONE_MONTH",
                "numberOfPeriods": 1}, [(t, None) for t in self.offer_territories(priced, places, classes, "offer-code")])
            self.generate_offer_code_codes(offer, codes, classes)

    def generate_iap_offer_codes(self, app, rnd, classes, places):
        """An offer code for some in-app purchases sold today at a USD price: free, at a lower USD point equalized in
        every territory the purchase is sold in, or with one territory at a lower point of its own; for a random set
        of customers; with codes as a subscription offer code's. Some are set in the USA and a few other territories
        the purchase is sold in only (`places`)."""
        today = self.today()
        for iap in self.store.kid_recs(app, "inAppPurchases", "inAppPurchases"):
            pid = iap["attributes"]["productId"]
            usd = self.current_usd_number(iap, today)
            availability = self.store.slot(iap, "availability")
            sold = [t["id"] for t in availability["rels"]["availableTerritories"]["data"]] if availability else []
            if pid not in classes or usd is None or not sold or rnd.random() < 0.2:
                continue
            cheaper = self.cheaper_points("USA", usd)
            kind = rnd.choice(["free", "paid", "territory-price"]) if cheaper else "free"
            number = FREE_POINT if kind == "free" else rnd.choice(cheaper)
            own = {}
            if kind == "territory-price":
                # One territory other than the USA at a point of its own, lower there than the equalized one.
                territory = rnd.choice([t for t in sold if t != "USA"] or [None])
                lower = self.cheaper_points(territory, number) if territory else []
                if lower:
                    own[territory] = rnd.choice(lower)
                else:
                    kind = "paid"
            classes[pid] += ["iap-offer-code", "iap-offer-code:" + kind]
            where = sold
            others = [t for t in sold if t != "USA" and t not in own]
            if "USA" in sold and len(others) > 2 and places.random() < 0.3:
                where = sorted(["USA"] + list(own) + places.sample(others, places.randint(1, 2)))
                classes[pid].append("iap-offer-code:some-territories")
            prices = [(t, price_point_id(iap["id"], t, own.get(t, number))) for t in where]
            eligibilities = rnd.sample(IAP_ELIGIBILITIES, rnd.randint(1, len(IAP_ELIGIBILITIES)))
            offer = self.commit_priced_offer(iap, "inAppPurchaseOfferCodes", {
                "name": "Gift %d" % rnd.randint(1, 99), "customerEligibilities": eligibilities}, prices)
            self.generate_offer_code_codes(offer, rnd, classes[pid], "iap-offer-code")

    def current_usd_number(self, iap, today):
        """The point number of the purchase's USA price in force today, when the USA is its base territory."""
        schedule = self.store.slot(iap, "priceSchedule")
        if schedule is None or schedule["rels"]["baseTerritory"]["data"]["id"] != "USA":
            return None
        usa = [(p["attributes"].get("startDate") or "", p) for p in self.store.kid_recs(schedule, "manualPrices")
               if self.territory_of(p) == "USA" and (p["attributes"].get("startDate") or "") <= today]
        if not usa:
            return None
        latest = max(usa, key=lambda x: x[0])[1]
        return int(decode_price_point(latest["rels"]["inAppPurchasePricePoint"]["data"]["id"])["p"])

    def generate_offer_code_codes(self, offer, rnd, classes, prefix="offer-code"):
        """Codes of an offer code: batches of one-time use codes and a custom code, made up to two months ago and
        valid for some time still (at most six months after they were made); a batch, the custom code or the whole offer
        deactivated.
        `prefix` names the classes (a subscription's or an in-app purchase's offer code). An in-app purchase App
        Review has not approved has sandbox codes only, as App Store Connect makes them."""
        today = self.today()
        owner = self.store.parent(offer)
        gated = offer["type"] == "inAppPurchaseOfferCodes" and owner["attributes"].get("state") not in APPROVED_OR_LATER

        def made_and_expiry():
            made = add_days(today, -rnd.randint(0, 60))
            last = datetime.date.fromisoformat(add_months(made, VALID_MONTHS)) - datetime.date.fromisoformat(today)
            return made + "T09:30:00.000+00:00", add_days(today, rnd.randint(1, last.days))
        if rnd.random() < 0.6:
            classes.append(prefix + ":batches")
            for _ in range(rnd.choice([1, 1, 2])):
                made, expires = made_and_expiry()
                count, environment = rnd.choice([10, 50, 100, 500, 1000]), "PRODUCTION"
                # Some made for testers, redeemable with sandbox accounts only: a stream of the batch's own, so the
                # codes stream (and every batch a seed built before) stays as it was.
                if gated or random.Random("environment %s %s %d" % (offer["attributes"].get("name"), made, count)).random() < 0.5:
                    classes.append(prefix + ":sandbox")
                    environment = "SANDBOX"
                self.add_one_time_codes(offer, count, expires, environment, created=made)
        if rnd.random() < 0.5 and not gated:
            classes.append(prefix + ":custom")
            app, code = self.store.app_of(offer), None
            while code is None or self.custom_code_owner(app, code) is not None:  # unique in the app
                code = "SPRING" + "".join(rnd.choices(CODE_ALPHABET, k=4))
            made, expires = made_and_expiry()
            custom = self.add_custom_code(offer, code, rnd.choice([100, 1000, 5000]),
                                          expires if rnd.random() < 0.5 else None, created=made)
            # Deactivated since (App Store Connect keeps it, turned off): a stream of the code's own, so the codes
            # stream, and every state a seed built before, stays as it was.
            if random.Random("custom code deactivated %s" % code).random() < 0.35:
                classes.append(prefix + ":custom-inactive")
                custom["attributes"]["active"] = False
        batches = self.store.kid_recs(offer, BATCHES)
        if batches and rnd.random() < 0.35:
            classes.append(prefix + ":batch-inactive")
            rnd.choice(batches)["attributes"]["active"] = False
        if rnd.random() < 0.2:
            classes.append(prefix + ":inactive")
            self.deactivate_offer_code(offer)

    def win_back_terms_of(self, rnd, classes):
        """Eligibility, schedule, priority and promotion of a win-back offer: App Store Connect's preset ones, or
        changed. Started offers began on some day up to today; none has ended."""
        today = self.today()
        terms = {PAID: 1, LAPSED: {"minimum": 1, "maximum": 24}, WAIT: None, "priority": "NORMAL",
                 "promotionIntent": "NOT_PROMOTED", "startDate": add_days(today, -rnd.randint(0, 90)), "endDate": None}
        if rnd.random() < 0.4:
            classes.append("win-back:eligibility")
            low = rnd.randint(1, 12)
            terms.update({PAID: rnd.choice(list(range(2, 25)) + [36, 48, 60]),
                          LAPSED: {"minimum": low, "maximum": rnd.randint(low, 24)}, WAIT: rnd.randint(2, 24)})
        if rnd.random() < 0.3:
            classes.append("win-back:high-priority")
            terms["priority"] = "HIGH"
        if rnd.random() < 0.3:
            classes.append("win-back:promoted")
            terms["promotionIntent"] = "USE_AUTO_GENERATED_ASSETS"
        if rnd.random() < 0.35:
            classes.append("win-back:scheduled")
            terms["startDate"] = add_days(today, rnd.randint(1, 60))
        if rnd.random() < 0.35:
            classes.append("win-back:ends")
            terms["endDate"] = add_days(max(terms["startDate"], today), rnd.randint(3, 120))
        return terms

    @staticmethod
    def cheaper_points(territory, number):
        """Points whose price in `territory` is below that of `number` there (two points can round to one local
        price, so a lower number alone is not enough)."""
        if number is None:
            return []
        ceiling = float(synthetic_price(territory, USD_BY_ID[number]))
        return [n for n in PAID_POINTS if float(synthetic_price(territory, USD_BY_ID[n])) < ceiling]

    def lowest_numbers(self, sub):
        """Each territory's lowest price point number, today's and scheduled ones (the standard plan's)."""
        lowest = {}
        for p in self.store.kid_recs(sub, "prices"):
            number = int(decode_price_point(p["rels"]["subscriptionPricePoint"]["data"]["id"])["p"])
            territory = self.territory_of(p)
            lowest[territory] = min(number, lowest.get(territory, number))
        return lowest

    def current_numbers(self, sub):
        """Each territory's price point number in force today (the standard plan's)."""
        today, latest = self.today(), {}
        for p in self.store.kid_recs(sub, "prices"):
            start = p["attributes"].get("startDate")
            if start and start > today:
                continue
            territory = self.territory_of(p)
            if territory not in latest or (start or "") >= (latest[territory][0] or ""):
                latest[territory] = (start, int(decode_price_point(p["rels"]["subscriptionPricePoint"]["data"]["id"])["p"]))
        return {t: n for t, (_, n) in latest.items()}

    def generate_intro(self, sub, territory, mode, duration, periods, point):
        self.commit_intro_offer(sub, {"territory": territory, "point": point, "attributes": {
            "offerMode": mode, "duration": duration, "numberOfPeriods": periods}})
