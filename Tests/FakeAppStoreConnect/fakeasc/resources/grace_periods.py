"""The app's Billing Grace Period (`subscriptionGracePeriods`): one per app, made with the app, read and changed,
never created or deleted through the API."""

ROUTES = [
    ("GET", "/v1/apps/{id}/subscriptionGracePeriod", "apps_subscriptionGracePeriod_getToOneRelated", "get_app_grace_period"),
    ("GET", "/v1/subscriptionGracePeriods/{id}", "subscriptionGracePeriods_getInstance", "get_instance"),
    ("PATCH", "/v1/subscriptionGracePeriods/{id}", "subscriptionGracePeriods_updateInstance", "update_grace_period"),
]

# What a new app holds (the fake's choice; Apple documents none): grace off, 16 days, all renewals.
GRACE_DEFAULTS = {"optIn": False, "sandboxOptIn": False, "duration": "SIXTEEN_DAYS", "renewalType": "ALL_RENEWALS"}
GRACE_DURATIONS = ["THREE_DAYS", "SIXTEEN_DAYS", "TWENTY_EIGHT_DAYS"]
GRACE_RENEWAL_TYPES = ["ALL_RENEWALS", "PAID_TO_PAID_ONLY"]


class GracePeriods:
    def grace_period(self, app):
        """The app's grace period; made on first use for an app of a state file older than grace periods."""
        rec = self.store.slot(app, "gracePeriod")
        if rec is None:
            rec = self.store.set_slot(app, "gracePeriod", {
                "type": "subscriptionGracePeriods", "id": self.store.new_id(False),
                "attributes": dict(GRACE_DEFAULTS), "rels": {}})
        return rec

    def get_app_grace_period(self, c):
        app = self.store.need("apps", c.id)
        return 200, self.single(self.grace_period(app), c.q, c.path)

    def update_grace_period(self, c):
        self.check_update_id(c)
        rec = self.store.need("subscriptionGracePeriods", c.id)
        for k, v in (c.body["data"].get("attributes") or {}).items():
            if v is not None:  # null or absent: unchanged (none of the four can be empty)
                rec["attributes"][k] = v
        return self.updated(rec, c)
