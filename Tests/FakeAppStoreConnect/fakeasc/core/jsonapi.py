"""JSON:API documents as App Store Connect writes them: resources with `links.self`, collections with
`links.next` cursors and `meta.paging`, `included` for `include=`, and the attribute filters lists share."""

import json
import re
import urllib.parse

from .encoding import b64url, b64url_decode
from .errors import parameter_error
from ..model import PARENT_NAMES, RENDERED_KIDS, TYPE_PATH
from ..reference import decode_price_point, point_rec, ref


class Documents:
    """Mixin of the service: needs `self.store`, `self.settings` and `self.base_url`."""

    def render(self, rec, include=()):
        out = {"type": rec["type"], "id": rec["id"]}
        attrs = {k: v for k, v in rec.get("attributes", {}).items() if v is not None}
        if "_shown" in rec:
            attrs["assetDeliveryState"] = rec["_shown"]
        if attrs or rec["type"] != "territories":
            out["attributes"] = attrs
        rels = {}
        for name, value in rec.get("rels", {}).items():
            rels[name] = {"data": value["data"]}
        for name in RENDERED_KIDS.get(rec["type"], []):
            kid_type = None
            ids = self.store.kid_ids(rec, name)
            if ids:
                first = self.store.find(ids[0])
                kid_type = first["type"] if first else None
            rels[name] = {"data": [ref(kid_type, i) for i in ids] if kid_type else []}
        if rels:
            out["relationships"] = rels
        out["links"] = {"self": self.base_url + TYPE_PATH[rec["type"]] + "/" + rec["id"]}
        return out

    def related(self, rec, name):
        """Records a relationship of `rec` points at (for include=)."""
        value = rec.get("rels", {}).get(name)
        refs = []
        if value is not None:
            d = value["data"]
            refs = d if isinstance(d, list) else [d] if d else []
        elif name in RENDERED_KIDS.get(rec["type"], []):
            return self.store.kid_recs(rec, name)
        elif rec.get("parent") and name in PARENT_NAMES:
            p = self.store.parent(rec)
            return [p] if p else []
        out = []
        for r in refs:
            if r["type"] in ("inAppPurchasePricePoints", "subscriptionPricePoints"):
                d = decode_price_point(r["id"])
                if d:
                    out.append(point_rec(r["type"], d["s"], d["t"], int(d["p"])))
            else:
                x = self.store.get(r["type"], r["id"])
                if x is not None:
                    out.append(x)
        return out

    def included(self, recs, q):
        names = [n for n in q.get("include", "").split(",") if n]
        seen, out = set(), []
        for rec in recs:
            for name in names:
                for r in self.related(rec, name):
                    key = (r["type"], r["id"])
                    if key not in seen:
                        seen.add(key)
                        out.append(self.render(r))
        return out

    def page(self, items, q, path):
        limit = int(q["limit"]) if "limit" in q else self.settings["pageSize"]
        # App Store Connect may answer with fewer items than asked for; clients must follow links.next.
        page_size = min(limit, self.settings["maxPageSize"] or limit)
        offset = 0
        if "cursor" in q:
            try:
                offset = int(json.loads(b64url_decode(q["cursor"]))["o"])
            except Exception:
                raise parameter_error("'cursor' is not a valid cursor", "cursor")
        chunk = items[offset:offset + page_size]
        data = [self.render(r) for r in chunk]
        query = urllib.parse.urlencode(q, safe="[],")
        doc = {"data": data, "links": {"self": self.base_url + path + ("?" + query if query else "")},
               "meta": {"paging": {"total": len(items), "limit": limit}}}
        if offset + page_size < len(items):
            nq = dict(q)
            nq["cursor"] = b64url(json.dumps({"o": offset + page_size}).encode())
            doc["links"]["next"] = self.base_url + path + "?" + urllib.parse.urlencode(nq, safe="[],")
        inc = self.included(chunk, q)
        if inc:
            doc["included"] = inc
        return doc

    def single(self, rec, q, path):
        doc = {"data": self.render(rec), "links": {"self": self.base_url + path}}
        inc = self.included([rec], q)
        if inc:
            doc["included"] = inc
        return doc

    def created(self, rec, c):
        return 201, {"data": self.render(rec), "links": {"self": self.base_url + TYPE_PATH[rec["type"]] + "/" + rec["id"]}}

    def updated(self, rec, c):
        return 200, {"data": self.render(rec), "links": {"self": self.base_url + c.path}}

    # -- filters shared by lists
    def filtered(self, recs, q):
        for name, value in q.items():
            m = re.match(r"^filter\[(\w+)\]$", name)
            if not m:
                continue
            field, wanted = m.group(1), set(value.split(","))
            if field == "territory":
                recs = [r for r in recs if self.territory_of(r) in wanted]
            elif field == "planType":
                recs = [r for r in recs if (r.get("attributes", {}).get("planType") or "UPFRONT") in wanted]
            elif field == "subscriptionPricePoint":
                recs = [r for r in recs if r["rels"].get("subscriptionPricePoint", {}).get("data", {}).get("id") in wanted]
            elif field == "id":
                recs = [r for r in recs if r["id"] in wanted]
            else:
                recs = [r for r in recs if str(r.get("attributes", {}).get(field)) in wanted]
        return recs

    @staticmethod
    def territory_of(rec):
        t = rec.get("rels", {}).get("territory", {}).get("data")
        return t["id"] if t else None
