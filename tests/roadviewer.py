"""A client keeping a table's roads document by the patches of its channel's events."""

import jsonpatch


class Viewer:
    """A client keeping one table's roads by patches, as a lobby page does."""

    def __init__(self, document=None):
        self.document = document  # as fetched before the first event, if any
        self.applied = []

    def apply(self, event):
        data = event["data"]
        if "patch" not in data:
            return
        if data["base_version"] is not None:
            assert self.document["shoe"] == data["shoe"]
            assert self.document["version"] == data["base_version"], "a version gap"
        self.document = jsonpatch.apply_patch(self.document or {}, data["patch"])
        assert self.document["version"] == data["version"]
        self.applied.append((data["shoe"], data["version"], self.document))
