"""Apps (seeded through the control API; the API only reads them), territories, and the app's product lists."""

ROUTES = [
    ("GET", "/v1/apps", "apps_getCollection", "get_apps"),
    ("GET", "/v1/territories", "territories_getCollection", "get_territories"),
    ("GET", "/v1/apps/{id}/inAppPurchasesV2", "apps_inAppPurchasesV2_getToManyRelated", "get_app_iaps"),
    ("GET", "/v1/apps/{id}/subscriptionGroups", "apps_subscriptionGroups_getToManyRelated", "get_app_groups"),
]


class Apps:
    def get_apps(self, c):
        apps = list(self.store.res.get("apps", {}).values())
        return 200, self.page(self.filtered(apps, c.q), c.q, c.path)

    def get_territories(self, c):
        codes = set(self.territory_codes())
        changed = self.settings.get("currencies") or {}
        territories = [dict(t, attributes={"currency": changed.get(t["id"], t["attributes"]["currency"])})
                       for t in self.store.res["territories"].values() if t["id"] in codes]
        return 200, self.page(territories, c.q, c.path)

    def get_app_iaps(self, c):
        app = self.store.need("apps", c.id)
        return 200, self.page(self.filtered(self.store.kid_recs(app, "inAppPurchases", "inAppPurchases"), c.q), c.q,
                              c.path)

    def get_app_groups(self, c):
        app = self.store.need("apps", c.id)
        return 200, self.page(self.filtered(self.store.kid_recs(app, "subscriptionGroups", "subscriptionGroups"), c.q),
                              c.q, c.path)
