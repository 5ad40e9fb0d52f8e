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
notes:
  - The collection's code that the module imports from its payload is compiled once per version of the collection and
    kept, where Python would compile it again on every call, in C(~/.cache/nfv.vnflcm/code) (C($XDG_CACHE_HOME/nfv.vnflcm/code)
    when E(XDG_CACHE_HOME) is set) on the host that runs the module. E(NFV_VNFLCM_CODE_CACHE) names another directory,
    or C(off) turns it off (the task's or play's C(environment) sets it). A directory that is not the user's own, that
    others may write to or that cannot be made is not used, and the code is compiled as before.
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
