"""The app's Billing Grace Period, its promoted purchases (create, order, reorder, delete, the product's to-one
reads) and win-back offers in full (every attribute round-trips; eligibility and schedule limits), and what the
managed view shows of them."""

TODAY = "2031-03-01"
GRACE_DEFAULTS = {"optIn": False, "sandboxOptIn": False, "duration": "SIXTEEN_DAYS", "renewalType": "ALL_RENEWALS"}
WIN_BACK = {"referenceName": "Welcome back", "offerId": "winback1", "duration": "ONE_MONTH", "offerMode": "FREE_TRIAL",
            "periodCount": 1, "customerEligibilityPaidSubscriptionDurationInMonths": 3,
            "customerEligibilityTimeSinceLastSubscribedInMonths": {"minimum": 2, "maximum": 12},
            "customerEligibilityWaitBetweenOffersInMonths": 6, "startDate": "2031-03-10", "endDate": "2031-06-30",
            "priority": "HIGH", "promotionIntent": "USE_AUTO_GENERATED_ASSETS"}
PAID = "customerEligibilityPaidSubscriptionDurationInMonths"
LAPSED = "customerEligibilityTimeSinceLastSubscribedInMonths"
WAIT = "customerEligibilityWaitBetweenOffersInMonths"


class PromotedGraceCases:
    # -- grace period
    def grace(self, app=None):
        return self.call("GET", "/v1/apps/%s/subscriptionGracePeriod" % (app or self.app), expect=200)[1]["data"]

    def patch_grace(self, id_, attributes, expect=200, body_id=None):
        return self.call("PATCH", "/v1/subscriptionGracePeriods/" + id_, {"data": {
            "type": "subscriptionGracePeriods", "id": body_id or id_, "attributes": attributes}}, expect)[1]

    def test_every_app_has_a_grace_period_made_with_it(self):
        grace = self.grace()
        self.assertEqual((grace["type"], grace["attributes"]), ("subscriptionGracePeriods", GRACE_DEFAULTS))
        other = self.fake.control("POST", "apps", {"name": "Other", "bundleId": "com.example.other"})["id"]
        self.assertNotEqual(self.grace(other)["id"], grace["id"])
        doc = self.call("GET", "/v1/subscriptionGracePeriods/%s?fields[subscriptionGracePeriods]=optIn,duration"
                        % grace["id"], expect=200)[1]
        self.assertEqual(doc["data"]["attributes"], GRACE_DEFAULTS)
        self.call("GET", "/v1/apps/%s/subscriptionGracePeriod?fields[subscriptionGracePeriods]=renewalType"
                  % self.app, expect=200)
        self.call("GET", "/v1/apps/nope/subscriptionGracePeriod", expect=404)
        self.assertEqual(len(self.state("subscriptionGracePeriods")), 2)

    def test_grace_period_updates(self):
        id_ = self.grace()["id"]
        doc = self.patch_grace(id_, {"optIn": True, "duration": "THREE_DAYS"})
        self.assertEqual(doc["data"]["attributes"], dict(GRACE_DEFAULTS, optIn=True, duration="THREE_DAYS"))
        # null or absent: unchanged
        self.patch_grace(id_, {"optIn": None, "sandboxOptIn": True, "renewalType": "PAID_TO_PAID_ONLY", "duration": None})
        self.assertEqual(self.grace()["attributes"], {"optIn": True, "sandboxOptIn": True, "duration": "THREE_DAYS",
                                                      "renewalType": "PAID_TO_PAID_ONLY"})
        self.assertError(self.patch_grace(id_, {"optIn": False}, 409, body_id="other"), "ENTITY_ERROR.ID.INVALID",
                         "/data/id")
        self.assertError(self.patch_grace(id_, {"duration": "SEVEN_DAYS"}, 409), "ENTITY_ERROR.ATTRIBUTE.INVALID",
                         "/data/attributes/duration")
        self.assertError(self.patch_grace(id_, {"renewalType": "SOME"}, 409), "ENTITY_ERROR.ATTRIBUTE.INVALID",
                         "/data/attributes/renewalType")
        self.assertError(self.patch_grace(id_, {"gracePeriodDays": 3}, 409), "ENTITY_ERROR.ATTRIBUTE.UNKNOWN",
                         "/data/attributes/gracePeriodDays")
        self.patch_grace("nope", {"optIn": True}, 404)
        self.call("DELETE", "/v1/subscriptionGracePeriods/" + id_, expect=405)  # no create or delete
        self.assertEqual(self.grace()["attributes"]["optIn"], True)
        self.assertEqual(self.fake.control("GET", "validations")["responseFailures"], [])

    # -- promoted purchases
    def promote(self, product, visible=True, enabled=None, app=None, expect=201, relationships=None):
        rels = relationships if relationships is not None else {
            "inAppPurchaseV2" if product["type"] == "inAppPurchases" else "subscription":
                self.linkage(product["type"], product["id"])}
        attributes = {"visibleForAllUsers": visible}
        if enabled is not None:
            attributes["enabled"] = enabled
        return self.call("POST", "/v1/promotedPurchases", {"data": {
            "type": "promotedPurchases", "attributes": attributes,
            "relationships": dict(rels, app=self.linkage("apps", app or self.app))}}, expect)[1]

    def listed(self, query=""):
        return self.call("GET", "/v1/apps/%s/promotedPurchases%s" % (self.app, query), expect=200)[1]

    def reorder(self, ids, expect=204):
        return self.call("PATCH", "/v1/apps/%s/relationships/promotedPurchases" % self.app,
                         {"data": [{"type": "promotedPurchases", "id": i} for i in ids]}, expect)[1]

    def test_promoted_purchases_in_the_apps_order(self):
        gems = self.create_iap()["data"]
        coins = self.create_iap("com.example.coins")["data"]
        _, sub = self.create_group_and_subscription()
        first = self.promote(gems)["data"]
        self.assertEqual(first["attributes"], {"visibleForAllUsers": True, "enabled": True,
                                               "state": "PREPARE_FOR_SUBMISSION"})
        self.assertLinksOnly(first, "inAppPurchaseV2", "subscription")  # a create's answer carries no linkage
        second = self.promote(sub, visible=False, enabled=False)["data"]
        self.assertEqual(sorted(second["relationships"]), ["inAppPurchaseV2", "subscription"])
        for promoted, product, other in ((first, gems, "subscription"), (second, sub, "inAppPurchaseV2")):
            read = self.call("GET", "/v1/promotedPurchases/%s?include=inAppPurchaseV2,subscription" % promoted["id"],
                             expect=200)[1]["data"]["relationships"]
            name = "inAppPurchaseV2" if product["type"] == "inAppPurchases" else "subscription"
            self.assertEqual(read[name]["data"], {"type": product["type"], "id": product["id"]})
            self.assertIsNone(read[other]["data"])
        third = self.promote(coins)["data"]
        ids = [first["id"], second["id"], third["id"]]
        self.assertEqual([x["id"] for x in self.listed()["data"]], ids)
        # include the products, paged, fields accepted
        doc = self.listed("?include=inAppPurchaseV2,subscription&limit=2&fields[promotedPurchases]=enabled,"
                          "inAppPurchaseV2,subscription&fields[inAppPurchases]=productId&fields[subscriptions]=productId")
        self.assertEqual([x["id"] for x in doc["data"]], ids[:2])
        self.assertEqual(doc["meta"]["paging"], {"total": 3, "limit": 2})
        self.assertIn("next", doc["links"])
        self.assertEqual(sorted((x["type"], x["id"]) for x in doc["included"]),
                         sorted([("inAppPurchases", gems["id"]), ("subscriptions", sub["id"])]))
        self.assertEqual(doc["data"][1]["relationships"]["inAppPurchaseV2"],
                         {"data": None, "links": self.relationship_links(doc["data"][1], "inAppPurchaseV2")})
        self.assertEqual([x["id"] for x in self.call("GET", doc["links"]["next"], expect=200)[1]["data"]], ids[2:])
        self.call("GET", "/v1/apps/%s/promotedPurchases?include=app" % self.app, expect=400)
        # a change of shown or enabled
        doc = self.call("PATCH", "/v1/promotedPurchases/" + second["id"], {"data": {
            "type": "promotedPurchases", "id": second["id"], "attributes": {"visibleForAllUsers": True,
                                                                            "enabled": None}}}, 200)[1]
        self.assertEqual(doc["data"]["attributes"], {"visibleForAllUsers": True, "enabled": False,
                                                     "state": "PREPARE_FOR_SUBMISSION"})
        _, doc, _ = self.call("PATCH", "/v1/promotedPurchases/" + second["id"], {"data": {
            "type": "promotedPurchases", "id": second["id"], "attributes": {"state": "APPROVED"}}}, 409)
        self.assertError(doc, "ENTITY_ERROR.ATTRIBUTE.UNKNOWN", "/data/attributes/state")
        _, doc, _ = self.call("PATCH", "/v1/promotedPurchases/" + second["id"], {"data": {
            "type": "promotedPurchases", "id": first["id"], "attributes": {"enabled": True}}}, 409)
        self.assertError(doc, "ENTITY_ERROR.ID.INVALID", "/data/id")
        # a new order: the full list, once each
        self.reorder([third["id"], first["id"], second["id"]])
        self.assertEqual([x["id"] for x in self.listed()["data"]], [third["id"], first["id"], second["id"]])
        linkages = self.call("GET", "/v1/apps/%s/relationships/promotedPurchases?limit=2" % self.app, expect=200)[1]
        self.assertEqual(linkages["data"], [{"type": "promotedPurchases", "id": third["id"]},
                                            {"type": "promotedPurchases", "id": first["id"]}])
        self.assertEqual(linkages["meta"]["paging"]["total"], 3)
        for order, pointer in (([third["id"], first["id"]], "/data"),
                               ([third["id"], first["id"], second["id"], "nope"], "/data/3"),
                               ([third["id"], first["id"], first["id"]], "/data/2")):
            self.assertError(self.reorder(order, 409), "ENTITY_ERROR.RELATIONSHIP.INVALID", pointer)
        _, doc, _ = self.call("PATCH", "/v1/apps/%s/relationships/promotedPurchases" % self.app,
                              {"data": [{"type": "inAppPurchases", "id": gems["id"]}]}, 409)
        self.assertTrue(doc["errors"][0]["source"]["pointer"].startswith("/data/0"), doc)  # a linkage of another type
        self.assertEqual([x["id"] for x in self.listed()["data"]], [third["id"], first["id"], second["id"]])
        # the product's own reads, and include=promotedPurchase on the product lists
        doc = self.call("GET", "/v2/inAppPurchases/%s/promotedPurchase?include=inAppPurchaseV2" % gems["id"],
                        expect=200)[1]
        self.assertEqual((doc["data"]["id"], doc["included"][0]["id"]), (first["id"], gems["id"]))
        doc = self.call("GET", "/v1/subscriptions/%s/promotedPurchase" % sub["id"], expect=200)[1]
        self.assertEqual(doc["data"]["id"], second["id"])
        self.call("GET", "/v1/promotedPurchases/%s?include=subscription" % second["id"], expect=200)
        # deleting takes it out of the order
        self.call("DELETE", "/v1/promotedPurchases/" + first["id"], expect=204)
        self.assertEqual([x["id"] for x in self.listed()["data"]], [third["id"], second["id"]])
        doc = self.call("GET", "/v2/inAppPurchases/%s/promotedPurchase" % gems["id"], expect=200)[1]
        self.assertIsNone(doc["data"])
        listing = self.call("GET", "/v1/apps/%s/inAppPurchasesV2?include=promotedPurchase" % self.app, expect=200)[1]
        by_id = {x["id"]: x["relationships"]["promotedPurchase"]["data"] for x in listing["data"]}
        self.assertEqual(by_id, {gems["id"]: None, coins["id"]: {"type": "promotedPurchases", "id": third["id"]}})
        self.call("DELETE", "/v1/promotedPurchases/" + first["id"], expect=404)
        self.fake.control("POST", "settings", {"emptyToOne": "404"})
        self.call("GET", "/v2/inAppPurchases/%s/promotedPurchase" % gems["id"], expect=404)
        self.assertEqual(self.fake.control("GET", "validations")["responseFailures"], [])

    def test_promoted_purchase_refusals(self):
        gems = self.create_iap()["data"]
        _, sub = self.create_group_and_subscription()
        both = {"inAppPurchaseV2": self.linkage("inAppPurchases", gems["id"]),
                "subscription": self.linkage("subscriptions", sub["id"])}
        self.assertError(self.promote(gems, relationships={}, expect=409), "ENTITY_ERROR.RELATIONSHIP.REQUIRED")
        self.assertError(self.promote(gems, relationships=both, expect=409), "ENTITY_ERROR.RELATIONSHIP.INVALID")
        self.assertError(self.promote(gems, relationships={"inAppPurchaseV2": self.linkage("inAppPurchases", "999")},
                                      expect=404), "NOT_FOUND", "/data/relationships/inAppPurchaseV2")
        other = self.fake.control("POST", "apps", {"name": "Other", "bundleId": "com.example.other"})["id"]
        self.assertError(self.promote(gems, app=other, expect=409), "ENTITY_ERROR.RELATIONSHIP.INVALID",
                         "/data/relationships/inAppPurchaseV2")
        _, doc, _ = self.call("POST", "/v1/promotedPurchases", {"data": {
            "type": "promotedPurchases", "attributes": {"enabled": True},
            "relationships": {"app": self.linkage("apps", self.app), "subscription": self.linkage("subscriptions",
                                                                                                   sub["id"])}}}, 409)
        self.assertError(doc, "ENTITY_ERROR.ATTRIBUTE.REQUIRED", "/data/attributes/visibleForAllUsers")
        self.promote(sub)
        self.assertError(self.promote(sub, visible=False, expect=409), "ENTITY_ERROR.RELATIONSHIP.INVALID.DUPLICATE",
                         "/data/relationships/subscription")
        # at most 20 per app
        self.promote(gems)
        ids = self.seed({"inAppPurchases": [{"productId": "com.example.p%d" % n, "name": "P%d" % n,
                                             "inAppPurchaseType": "CONSUMABLE"} for n in range(19)]})
        for n in range(18):
            self.promote({"type": "inAppPurchases", "id": ids["inAppPurchases"]["com.example.p%d" % n]})
        last = {"type": "inAppPurchases", "id": ids["inAppPurchases"]["com.example.p18"]}
        self.assertError(self.promote(last, expect=409), "ENTITY_ERROR.RELATIONSHIP.INVALID", "/data/relationships/app")
        self.assertEqual(len(self.listed("?limit=200")["data"]), 20)

    def test_seeded_grace_period_and_promoted_purchases(self):
        ids = self.seed({
            "inAppPurchases": [{"productId": "com.example.gems", "name": "Gems", "inAppPurchaseType": "CONSUMABLE"}],
            "subscriptionGroups": [{"referenceName": "Pro", "subscriptions": [
                {"productId": "com.example.pro", "name": "Pro", "subscriptionPeriod": "ONE_MONTH"}]}],
            "subscriptionGracePeriod": {"optIn": True, "duration": "THREE_DAYS"},
            "promotedPurchases": [{"productId": "com.example.pro", "enabled": False},
                                  {"productId": "com.example.gems", "visibleForAllUsers": False}]})
        self.assertEqual(self.grace()["attributes"], dict(GRACE_DEFAULTS, optIn=True, duration="THREE_DAYS"))
        listed = self.listed()["data"]
        self.assertEqual([x["id"] for x in listed], [ids["promotedPurchases"]["com.example.pro"],
                                                     ids["promotedPurchases"]["com.example.gems"]])
        self.assertEqual([(x["attributes"]["visibleForAllUsers"], x["attributes"]["enabled"]) for x in listed],
                         [(True, False), (False, True)])
        status, _, _ = self.fake.request("POST", "/__fake/seed", {"appId": self.app, "promotedPurchases": [
            {"productId": "com.example.none"}]}, auth=False)
        self.assertEqual(status, 400)

    # -- win-back offers
    def win_back(self, sub_id, expect=201, approved=True, **changes):
        """Creates a win-back offer, the subscription approved first unless `approved` is False."""
        if approved:
            self.fake.control("POST", "approve", {"appId": self.app})
        attributes = {k: v for k, v in dict(WIN_BACK, **changes).items() if v is not None}
        return self.call("POST", "/v1/winBackOffers", {"data": {
            "type": "winBackOffers", "attributes": attributes,
            "relationships": {"subscription": self.linkage("subscriptions", sub_id),
                              "prices": {"data": [{"type": "winBackOfferPrices", "id": "${usa}"}]}}},
            "included": [{"type": "winBackOfferPrices", "id": "${usa}",
                          "relationships": {"territory": self.linkage("territories", "USA")}}]}, expect)[1]

    def patch_win_back(self, id_, attributes, expect=200):
        return self.call("PATCH", "/v1/winBackOffers/" + id_, {"data": {
            "type": "winBackOffers", "id": id_, "attributes": attributes}}, expect)[1]

    def test_win_back_offers_wait_for_the_subscriptions_approval(self):
        self.fake.control("POST", "settings", {"today": TODAY})
        _, sub = self.create_group_and_subscription()
        _, doc, _ = self.call("POST", "/v1/winBackOffers", {"data": {
            "type": "winBackOffers", "attributes": {k: v for k, v in WIN_BACK.items() if v is not None},
            "relationships": {"subscription": self.linkage("subscriptions", sub["id"]),
                              "prices": {"data": [{"type": "winBackOfferPrices", "id": "${usa}"}]}}},
            "included": [{"type": "winBackOfferPrices", "id": "${usa}",
                          "relationships": {"territory": self.linkage("territories", "USA")}}]}, 409)
        self.assertError(doc, "STATE_ERROR", "/data/relationships/subscription")
        self.assertEqual(self.state("winBackOffers"), [])
        self.assertEqual(self.fake.control("POST", "approve", {"appId": self.app})["approved"], ["com.example.pro.monthly"])
        self.win_back(sub["id"], approved=False)
        self.assertEqual(len(self.state("winBackOffers")), 1)

    def test_win_back_offers_keep_every_attribute(self):
        self.fake.control("POST", "settings", {"today": TODAY})
        _, sub = self.create_group_and_subscription()
        offer = self.win_back(sub["id"])["data"]
        listed = self.call("GET", "/v1/subscriptions/%s/winBackOffers" % sub["id"], expect=200)[1]["data"][0]
        self.assertEqual(listed["attributes"], WIN_BACK)
        # absent: not promoted, no wait, no end
        plain = self.win_back(sub["id"], offerId="winback2", promotionIntent=None, endDate=None,
                              **{WAIT: None})["data"]["attributes"]
        self.assertEqual((plain["promotionIntent"], plain.get(WAIT), plain.get("endDate")), ("NOT_PROMOTED", None, None))
        # a change of each, then null clears the wait and the end, and leaves the others
        changes = {PAID: 60, LAPSED: {"minimum": 1, "maximum": 24}, WAIT: 2, "startDate": "2031-04-01",
                   "endDate": "2031-04-03", "priority": "NORMAL", "promotionIntent": "NOT_PROMOTED"}
        self.assertEqual(self.patch_win_back(offer["id"], changes)["data"]["attributes"], dict(WIN_BACK, **changes))
        cleared = self.patch_win_back(offer["id"], {WAIT: None, "endDate": None, "priority": None, PAID: None,
                                                    LAPSED: None, "startDate": None, "promotionIntent": None})
        self.assertEqual(cleared["data"]["attributes"],
                         dict(WIN_BACK, **dict(changes, **{WAIT: None, "endDate": None})))  # answered null
        self.assertError(self.patch_win_back(offer["id"], {"offerId": "other"}, 409), "ENTITY_ERROR.ATTRIBUTE.UNKNOWN",
                         "/data/attributes/offerId")
        listed = self.call("GET", "/v1/subscriptions/%s/winBackOffers" % sub["id"], expect=200)[1]["data"]
        self.assertEqual([(x["attributes"][WAIT], x["attributes"]["endDate"]) for x in listed], [(None, None)] * 2)
        self.fake.control("POST", "settings", {"explicitNulls": False})  # the other reading: left out
        listed = self.call("GET", "/v1/subscriptions/%s/winBackOffers" % sub["id"], expect=200)[1]["data"]
        self.assertEqual([sorted({WAIT, "endDate"} & set(x["attributes"])) for x in listed], [[]] * 2)
        self.assertEqual(self.fake.control("GET", "validations")["responseFailures"], [])

    def test_win_back_offer_limits(self):
        self.fake.control("POST", "settings", {"today": TODAY})
        _, sub = self.create_group_and_subscription()
        refusals = [({PAID: 0}, PAID), ({PAID: 25}, PAID), ({PAID: 30}, PAID),
                    ({LAPSED: {"minimum": 0, "maximum": 12}}, LAPSED), ({LAPSED: {"minimum": 1, "maximum": 25}}, LAPSED),
                    ({LAPSED: {"minimum": 13, "maximum": 12}}, LAPSED), ({LAPSED: {"minimum": 2}}, LAPSED),
                    ({WAIT: 1}, WAIT), ({WAIT: 25}, WAIT),
                    ({"endDate": "2031-03-10"}, "endDate"), ({"endDate": "2031-03-09"}, "endDate"),
                    ({"endDate": "2031-03-11"}, "endDate"),
                    ({"startDate": "2031-02-28"}, "startDate")]
        for changes, name in refusals:
            doc = self.win_back(sub["id"], expect=409, **changes)
            self.assertError(doc, "ENTITY_ERROR.ATTRIBUTE.INVALID", "/data/attributes/" + name)
        self.assertEqual(self.state("winBackOffers"), [])
        # the limits themselves are allowed; today may start; three days, both counted, is the shortest offer
        for n, (paid, wait) in enumerate([(1, 2), (24, 24), (36, None), (48, None)]):
            self.win_back(sub["id"], offerId="edge%d" % n, endDate="2031-03-12", **{PAID: paid, WAIT: wait})
        offer = self.win_back(sub["id"], startDate=TODAY, endDate=None, **{PAID: 60, WAIT: 24,
                                                                           LAPSED: {"minimum": 24, "maximum": 24}})
        offer = offer["data"]
        for changes, name in [({PAID: 0}, PAID), ({LAPSED: {"minimum": 3, "maximum": 2}}, LAPSED), ({WAIT: 25}, WAIT),
                              ({"endDate": "2031-02-28"}, "endDate"), ({"endDate": TODAY}, "endDate"),
                              ({"endDate": "2031-03-02"}, "endDate")]:
            self.assertError(self.patch_win_back(offer["id"], changes, 409), "ENTITY_ERROR.ATTRIBUTE.INVALID",
                             "/data/attributes/" + name)
        # it has started today: its start stays (sent unchanged, it is accepted)
        self.assertError(self.patch_win_back(offer["id"], {"startDate": "2031-03-05"}, 409),
                         "ENTITY_ERROR.ATTRIBUTE.INVALID", "/data/attributes/startDate")
        self.patch_win_back(offer["id"], {"startDate": TODAY, "endDate": "2031-03-03", "priority": "NORMAL"})
        # an offer yet to start can be moved, not into the past nor past its end
        later = self.win_back(sub["id"], offerId="later")["data"]
        self.assertError(self.patch_win_back(later["id"], {"startDate": "2031-02-01"}, 409),
                         "ENTITY_ERROR.ATTRIBUTE.INVALID", "/data/attributes/startDate")
        self.assertError(self.patch_win_back(later["id"], {"startDate": "2031-07-01"}, 409),
                         "ENTITY_ERROR.ATTRIBUTE.INVALID", "/data/attributes/endDate")
        self.patch_win_back(later["id"], {"startDate": "2031-07-01", "endDate": None})
        self.fake.control("POST", "settings", {"today": "2031-07-02"})
        self.assertError(self.patch_win_back(later["id"], {"startDate": "2031-08-01"}, 409),
                         "ENTITY_ERROR.ATTRIBUTE.INVALID", "/data/attributes/startDate")
        self.assertError(self.win_back(sub["id"], offerId="later", startDate="2031-08-01", endDate=None, expect=409),
                         "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE", "/data/attributes/offerId")

    # -- the managed view
    def test_the_managed_view_holds_grace_promoted_and_win_back(self):
        self.fake.control("POST", "settings", {"today": TODAY})
        view = self.fake.control("POST", "managed", {"appId": self.app})
        self.assertEqual((view["subscriptionGracePeriod"], view["promotedPurchases"]), (GRACE_DEFAULTS, []))
        self.patch_grace(self.grace()["id"], {"optIn": True, "duration": "TWENTY_EIGHT_DAYS"})
        gems = self.create_iap()["data"]
        _, sub = self.create_group_and_subscription()
        first = self.promote(gems)["data"]
        second = self.promote(sub, visible=False, enabled=False)["data"]
        self.reorder([second["id"], first["id"]])
        self.win_back(sub["id"], startDate=TODAY, endDate=None)
        self.win_back(sub["id"], offerId="later", promotionIntent=None)
        view = self.fake.control("POST", "managed", {"appId": self.app})
        self.assertEqual(view["subscriptionGracePeriod"], dict(GRACE_DEFAULTS, optIn=True, duration="TWENTY_EIGHT_DAYS"))
        self.assertEqual(view["promotedPurchases"], [
            {"productId": "com.example.pro.monthly", "visibleForAllUsers": False, "enabled": False},
            {"productId": "com.example.gems", "visibleForAllUsers": True, "enabled": True}])
        offers = view["subscriptionGroups"]["Pro"]["subscriptions"]["com.example.pro.monthly"]["winBackOffers"]
        terms = {k: WIN_BACK[k] for k in (PAID, LAPSED, WAIT, "startDate", "endDate", "priority", "promotionIntent")}
        self.assertEqual({k: offers["winback1"][k] for k in terms}, dict(terms, startDate=None, endDate=None))
        self.assertEqual({k: offers["later"][k] for k in terms}, dict(terms, promotionIntent="NOT_PROMOTED"))
        # once today passes its start, a scheduled offer is the same state as one starting now
        self.fake.control("POST", "settings", {"today": WIN_BACK["startDate"]})
        view = self.fake.control("POST", "managed", {"appId": self.app})
        self.assertIsNone(view["subscriptionGroups"]["Pro"]["subscriptions"]["com.example.pro.monthly"]
                          ["winBackOffers"]["later"]["startDate"])
