# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""k8s/pods.py: which pods a scale's rollback has a ReplicaSet remove first."""

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import VimError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.pods import DELETION_COST, prefer_deleting_added


def vnfc(pod, uid):
    return {"computeResource": {"resourceId": pod}, "metadata": {"podUid": uid}}


class Api:
    def __init__(self, gone=()):
        self.patches, self.gone = [], set(gone)

    def patch(self, api_version, kind, name, namespace, patch):
        if name in self.gone:
            error = VimError("patch", "Pod " + name, "not found (HTTP 404)")
            error.status = 404
            raise error
        self.patches.append((kind, name, namespace, patch))


def test_only_the_pods_the_record_does_not_have_are_marked_to_go_first():
    api = Api()
    before = [vnfc("vdu2-a", "u1"), vnfc("vdu2-b", "u2")]
    prefer_deleting_added(api, "ns1", before, before + [vnfc("vdu2-c", "u3")])
    assert api.patches == [("Pod", "vdu2-c", "ns1", {"metadata": {"annotations": {DELETION_COST: "-1000"}}})]


def test_a_pod_gone_meanwhile_is_skipped_and_other_errors_are_not():
    prefer_deleting_added(Api(gone={"vdu2-c"}), "ns1", [], [vnfc("vdu2-c", "u3")])
    api = Api()

    def forbidden(*args):
        raise VimError("patch", "Pod vdu2-c", "forbidden (HTTP 403)")

    api.patch = forbidden
    with pytest.raises(VimError, match="forbidden"):
        prefer_deleting_added(api, "ns1", [], [vnfc("vdu2-c", "u3")])
