# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
# Options for waiting on a lifecycle operation.

from __future__ import annotations


class ModuleDocFragment:
    DOCUMENTATION = r"""
options:
  wait:
    description:
      - Whether to wait until the operation has finished on the VIM.
    type: bool
    default: true
  wait_timeout:
    description:
      - How many seconds to wait at most. On timeout the module fails and its result still
        carries what had been done.
    type: int
    default: 600
  wait_sleep:
    description:
      - Seconds between two checks while waiting.
    type: int
    default: 2
"""
