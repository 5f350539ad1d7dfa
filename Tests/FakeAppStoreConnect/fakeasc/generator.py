"""Random valid App Store Connect states, built from a seed through the fake's own store, the way people leave apps
in the web UI: products just created with no text or price, products in review or removed from sale, prices set in
a few territories only, scheduled changes that touch some territories with each territory's own choice for existing
subscribers, offers limited to some territories at local prices, offer codes with their codes (some deactivated),
review screenshots and promotional images committed or reserved and never uploaded; the app's Billing Grace Period
and its promoted purchases; its App Store versions.

`generate(app, seed)` answers the classes each product was built from, and those of the app itself (grace period,
promoted order, App Store versions), so a failing seed says what it held. The same seed always builds the same state (ids aside), so a
failure replays with `IAPKIT_SEED=N`.

The parts live in generating/: what the generator picks from, the app's own settings, the products and their offers.
"""

import random

from .generating.app import GeneratingApp
from .generating.offers import GeneratingOffers
from .generating.products import GeneratingProducts
from .generating.tables import CLASSES


class Generating(GeneratingApp, GeneratingProducts, GeneratingOffers):
    """Mixin of the service: `generate(app, seed)`."""

    def generate(self, app, seed, products=None):
        rnd = random.Random(seed)
        # The grace period, promoted purchases and win-back terms draw from a stream of their own, so the products
        # a seed built before they existed stay the same.
        more = random.Random("more %d" % seed)
        # An offer code's codes too: the offer codes themselves stay as they were.
        codes = random.Random("offer codes %d" % seed)
        # And where offers are set (some territories, some free there): the offers themselves stay as they were.
        places = random.Random("offer territories %d" % seed)
        today = self.today()
        used = {"classes": {}, "appClasses": [], "allClasses": CLASSES}
        prefix = "gen%d" % seed
        for i in range(products if products is not None else rnd.randint(1, 2)):
            pid = "com.example.%s.item%d" % (prefix, i)
            used["classes"][pid] = self.generate_iap(app, rnd, pid, "Item %d of %d" % (i, seed), today)
        for g in range(rnd.choice([0, 1, 1, 2]) if products is None else 1):
            group = self.new_group(app, "Group %d of %d" % (g, seed))
            if rnd.random() < 0.7:
                self.generate_texts("subscriptionGroupVersions", group, rnd, ("name", "customAppName"),
                                    "PREPARE_FOR_SUBMISSION")
            for s in range(rnd.randint(1, 2)):
                pid = "com.example.%s.group%d.sub%d" % (prefix, g, s)
                used["classes"][pid] = self.generate_subscription(group, rnd, pid, "Plan %d.%d of %d" % (g, s, seed),
                                                                  today, more, codes, places)
        self.generate_grace_period(app, more, used["appClasses"])
        self.generate_promoted(app, more, used["classes"], used["appClasses"])
        # App Store versions draw from a stream of their own too: every product of a seed stays as it was.
        self.generate_app_versions(app, random.Random("app versions %d" % seed), used["appClasses"])
        # In-app purchases' offer codes too, after every product and the app's own settings: what a seed built before
        # they existed stays as it was (the promotional images' ids aside).
        # Where they are set draws from a stream of its own as well: the offer codes themselves stay as they were.
        self.generate_iap_offer_codes(app, random.Random("iap offer codes %d" % seed), used["classes"],
                                      random.Random("iap offer code territories %d" % seed))
        # Promotional images too, last: the ids of everything before them stay as they were.
        self.generate_images(app, random.Random("images %d" % seed), used["classes"])
        # In-app purchases made before 2023 last, from a stream of their own: they change no record, only how the
        # purchase is answered.
        self.generate_legacy(app, random.Random("legacy %d" % seed), used["classes"])
        # API 4.5's multiseat settings last too, from a stream of their own: they change no record but the
        # subscriptions' two attributes.
        self.generate_multi_seat(app, random.Random("multiseat %d" % seed), used["classes"])
        return used
