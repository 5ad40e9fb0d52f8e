# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The operations the Helm driver does not have yet: each refused with what to do instead, before anything is written."""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError


def refused(what, operation):
    """The error of ``operation`` (its SOL003 name) on a Helm-chart CNF; ``what`` is the request it was given."""
    return ValidationError(what, None, "{0} of a Helm-chart CNF (vimType ETSINFV.HELM.V_3) is not supported yet; instantiate, scale, "
                                       "scale to level, heal, modify, terminate, info and delete are, and retry, rollback and fail of them".format(operation))
