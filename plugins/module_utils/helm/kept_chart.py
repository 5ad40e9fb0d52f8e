# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The chart a Helm-chart CNF's release was installed from, kept in a Secret beside the instance's record
(``vnflcm-<instance id>-chart``): ``helm upgrade`` needs a chart even to change values only (a scale), and the modules
that scale are not given the package. Labelled as the record's other Secrets, it goes with the instance's identifier
(k8s/store.py kept_for).
"""

from __future__ import annotations

import base64
import hashlib

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import VnfLcmError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ownership import RECORD_LABEL, ownership_labels
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.record import MAX_DATA_BYTES, record_name

CHART_NAME_SUFFIX = "-chart"
CHART_LABEL_VALUE = "chart"
CHART_KEY = "chart.tgz"


def chart_secret_name(instance_id):
    return record_name(instance_id) + CHART_NAME_SUFFIX


def chart_digest(content):
    return hashlib.sha256(content).hexdigest()


def chart_secret(instance_id, namespace, content):
    data = base64.b64encode(content).decode("ascii")
    if len(data) > MAX_DATA_BYTES:
        raise VnfLcmError("store", "Helm chart of VNF instance {0}".format(instance_id), "{0} bytes do not fit in a Secret".format(len(content)))
    labels = dict(ownership_labels(instance_id), **{RECORD_LABEL: CHART_LABEL_VALUE})
    return {"apiVersion": "v1", "kind": "Secret", "type": "Opaque", "data": {CHART_KEY: data},
            "metadata": {"name": chart_secret_name(instance_id), "namespace": namespace, "labels": labels}}


def keep_chart(api, instance_id, namespace, content):
    """Write the chart's Secret (created, or replaced when it holds another chart); nothing when it holds this one."""
    existing = api.get("v1", "Secret", chart_secret_name(instance_id), namespace)
    if existing is not None and read_chart(existing) == content:
        return
    secret = chart_secret(instance_id, namespace, content)
    if existing is None:
        api.create(secret)
    else:
        api.replace(dict(secret, metadata=dict(secret["metadata"], resourceVersion=existing["metadata"]["resourceVersion"])))


def kept_chart(api, instance_id, namespace, digest):
    """The kept chart's bytes; VnfLcmError when it is gone or is not the chart the record names (``digest``)."""
    content = read_chart(api.get("v1", "Secret", chart_secret_name(instance_id), namespace))
    if content is None or chart_digest(content) != digest:
        raise VnfLcmError("read", "Helm chart of VNF instance {0}".format(instance_id), "Secret {0} in namespace {1} does not hold the chart the "
                          "release was installed from; terminate and instantiate again".format(chart_secret_name(instance_id), namespace))
    return content


def read_chart(secret):
    data = ((secret or {}).get("data") or {}).get(CHART_KEY)
    return base64.b64decode(data) if data else None
