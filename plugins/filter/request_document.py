# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The request_document filter: a SOL003 request file's text as one object, with the package reader's YAML bounds."""

from __future__ import annotations

from ansible.errors import AnsibleFilterError

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import VnfLcmError
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.yaml_loader import parse_yaml


def request_document(text, source="request"):
    """``text`` (JSON or YAML) as a dict; AnsibleFilterError naming ``source`` and the line, never the text itself.

    Ansible's from_yaml would expand an alias bomb in full and quote the faulty line, which may hold a credential.
    """
    try:
        document = parse_yaml(text, source)
    except VnfLcmError as error:
        raise AnsibleFilterError(error.reason) from None  # "<source>: <what is wrong, where>"
    if not isinstance(document, dict):
        raise AnsibleFilterError("{0}: must hold one JSON/YAML object, not {1}".format(source, type(document).__name__))
    return document


class FilterModule:
    def filters(self):
        return {"request_document": request_document}
