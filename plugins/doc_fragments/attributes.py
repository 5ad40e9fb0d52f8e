# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
# Standard descriptions of the check_mode and diff_mode attributes.

from __future__ import annotations


class ModuleDocFragment:
    DOCUMENTATION = r"""
options: {}
attributes:
  check_mode:
    description: Can run in C(check_mode) and return the planned changes without modifying the VIM.
  diff_mode:
    description: Returns details on what has changed (or would change in C(check_mode)) when in diff mode.
"""

    # A module that plans in check mode and shows its change in diff mode.
    FULL = r"""
options: {}
attributes:
  check_mode:
    support: full
  diff_mode:
    support: full
"""

    # A module that plans in check mode and has no diff to show.
    NO_DIFF = r"""
options: {}
attributes:
  check_mode:
    support: full
  diff_mode:
    support: none
"""

    INFO_MODULE = r"""
options: {}
attributes:
  check_mode:
    support: full
    details:
      - This action does not modify state.
  diff_mode:
    support: N/A
    details:
      - This action does not modify state.
"""
