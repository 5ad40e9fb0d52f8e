# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import pytest

from ansible.errors import AnsibleFilterError

from ansible_collections.nfv.vnflcm.plugins.filter.request_document import request_document

BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    "{0}: &{0} [{1}]\n".format(chr(ord("b") + level), ", ".join(["*" + chr(ord("a") + level)] * 10)) for level in range(8))


def test_json_and_yaml_requests_are_read():
    assert request_document('{"flavourId": "simple", "additionalParams": {"a": 1}}') == {"flavourId": "simple", "additionalParams": {"a": 1}}
    assert request_document("flavourId: simple\ninstantiationLevelId: l1\n") == {"flavourId": "simple", "instantiationLevelId": "l1"}


def test_an_alias_bomb_is_refused_before_it_expands():
    with pytest.raises(AnsibleFilterError, match=r"^req\.yaml: .*expand"):
        request_document(BOMB, "req.yaml")


def test_errors_name_the_line_but_never_quote_the_text():
    with pytest.raises(AnsibleFilterError) as caught:
        request_document('accessInfo:\n  password: "s3cret-value\n  more: [', "req.yaml")
    assert str(caught.value).startswith("req.yaml: malformed YAML at line") and "s3cret-value" not in str(caught.value)


@pytest.mark.parametrize("text", ["[1, 2]", "just text", ""])
def test_anything_but_one_object_is_refused(text):
    with pytest.raises(AnsibleFilterError, match=r"^req\.json: must hold one JSON/YAML object"):
        request_document(text, "req.json")
