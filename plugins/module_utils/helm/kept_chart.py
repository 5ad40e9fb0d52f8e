# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The chart a Helm-chart CNF's release was installed from, kept in a Secret beside the instance's record
(``vnflcm-<instance id>-chart``): ``helm upgrade`` needs a chart even to change values only (a scale), and the modules
that scale are not given the package. Labelled as the record's other Secrets, it goes with the instance's identifier
(k8s/store.py kept_for).

Each chart is kept under its digest (``<sha256>.tgz``): a change of package keeps the new chart beside the old one before
it upgrades, so whichever the record names after a kill, a failure or a rollback is there.
"""

from __future__ import annotations

import base64
import hashlib

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import VnfLcmError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ownership import RECORD_LABEL, ownership_labels
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.record import MAX_DATA_BYTES, record_name

CHART_NAME_SUFFIX = "-chart"
CHART_LABEL_VALUE = "chart"
CHART_SUFFIX = ".tgz"


def chart_secret_name(instance_id):
    return record_name(instance_id) + CHART_NAME_SUFFIX


def chart_digest(content):
    return hashlib.sha256(content).hexdigest()


def chart_key(digest):
    return digest + CHART_SUFFIX


def chart_secret(instance_id, namespace, charts):
    """The Secret of ``charts`` (digest -> bytes)."""
    data = {chart_key(digest): base64.b64encode(content).decode("ascii") for digest, content in sorted(charts.items())}
    if sum(len(value) for value in data.values()) > MAX_DATA_BYTES:
        raise VnfLcmError("store", "Helm chart of VNF instance {0}".format(instance_id), "{0} bytes do not fit in a Secret".format(
            sum(len(content) for content in charts.values())))
    labels = dict(ownership_labels(instance_id), **{RECORD_LABEL: CHART_LABEL_VALUE})
    return {"apiVersion": "v1", "kind": "Secret", "type": "Opaque", "data": data,
            "metadata": {"name": chart_secret_name(instance_id), "namespace": namespace, "labels": labels}}


def keep_chart(api, instance_id, namespace, content, also=()):
    """Keep ``content`` and, of those kept already, the charts whose digests are in ``also``; no write when that is what
    the Secret holds."""
    existing = api.get("v1", "Secret", chart_secret_name(instance_id), namespace)
    kept = read_charts(existing)
    wanted = {digest: kept[digest] for digest in also if digest in kept}
    wanted[chart_digest(content)] = content
    if existing is not None and kept == wanted:
        return
    secret = chart_secret(instance_id, namespace, wanted)
    if existing is None:
        api.create(secret)
    else:
        api.replace(dict(secret, metadata=dict(secret["metadata"], resourceVersion=existing["metadata"]["resourceVersion"])))


def kept_chart(api, instance_id, namespace, digest):
    """The kept chart of ``digest`` (the one the record names); VnfLcmError when it is not there."""
    content = read_charts(api.get("v1", "Secret", chart_secret_name(instance_id), namespace)).get(digest)
    if content is None or chart_digest(content) != digest:
        raise VnfLcmError("read", "Helm chart of VNF instance {0}".format(instance_id), "Secret {0} in namespace {1} does not hold the chart the "
                          "release was installed from; terminate and instantiate again".format(chart_secret_name(instance_id), namespace))
    return content


def read_charts(secret):
    """digest -> bytes of the charts a chart Secret holds."""
    data = (secret or {}).get("data") or {}
    return {key[:-len(CHART_SUFFIX)]: base64.b64decode(value) for key, value in data.items() if key.endswith(CHART_SUFFIX)}
