# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Lists in messages, bounded: a message names at most MAX_LISTED items, then says how many more there were."""

from __future__ import annotations

MAX_LISTED = 20


def listed(items, limit=MAX_LISTED):
    """``items`` as text, at most ``limit`` of them, then ``and N more``: an event of 10,000 VNFCs gives a short line."""
    items = [str(item) for item in items]
    if len(items) <= limit:
        return ", ".join(items)
    return "{0} and {1} more".format(", ".join(items[:limit]), len(items) - limit)
