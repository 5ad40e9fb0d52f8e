# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import json

from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.change_pkg import merged_instance_fields
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import recordable_vims, without_vim_secrets
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import apply_vnf_info_modification

SECRETS = ("pw-access", "tok-bearer", "cs-client", "pw-in-url")
VIM = {"vimType": "kubernetes", "interfaceInfo": {"endpoint": "https://admin:pw-in-url@127.0.0.1:6443"},
       "accessInfo": {"username": "admin", "password": "pw-access", "bearer_token": "tok-bearer", "client_secret": "cs-client",
                      "project": "p"}}


def test_a_recorded_vim_keeps_what_names_it_and_no_secret():
    kept = recordable_vims({"vim1": VIM, "gone": None})
    assert kept["vim1"]["accessInfo"] == {"username": "admin", "project": "p"}
    assert kept["vim1"]["vimType"] == "kubernetes" and kept["gone"] is None
    assert "127.0.0.1:6443" in kept["vim1"]["interfaceInfo"]["endpoint"]
    assert not any(secret in json.dumps(kept) for secret in SECRETS)


def test_every_vim_connection_in_a_record_loses_its_secrets_in_either_form():
    record = {"vnfInstance": {"vimConnectionInfo": {"vim1": VIM}},
              "opOccs": [{"operationParams": {"vimConnectionInfo": [dict(VIM, id="vim1")]}},
                         {"operationParams": {"additionalParams": {"vdu_params": [{"old_vnfc_param": {"password": "vnfc"}}]}}}]}
    kept = without_vim_secrets(record)
    assert not any(secret in json.dumps(kept) for secret in SECRETS)
    # Only VIM credentials: what a coordination hook is given for a VNFC is the operation's own business.
    assert kept["opOccs"][1] == record["opOccs"][1]
    assert record["vnfInstance"]["vimConnectionInfo"]["vim1"]["accessInfo"]["password"] == "pw-access"


def test_a_modify_or_a_change_of_package_gives_the_instance_vim_connections_as_a_record_keeps_them():
    instance = {"id": "i", "vimConnectionInfo": {"vim1": recordable_vims({"vim1": VIM})["vim1"]}}
    modified = apply_vnf_info_modification(instance, {"vimConnectionInfo": {"vim1": {"accessInfo": {"password": "pw-access"}}}})
    # The same request again changes nothing: the record never held the password.
    assert modified == instance
    fields = merged_instance_fields(instance, {"vimConnectionInfo": {"vim2": VIM}})
    assert set(fields["vimConnectionInfo"]) == {"vim1", "vim2"}
    assert not any(secret in json.dumps(fields) for secret in SECRETS)
