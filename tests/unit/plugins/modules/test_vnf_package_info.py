# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vnf_package_info's wiring: arguments in, package data or one clear failure out."""

from __future__ import annotations

import os

from ansible_collections.nfv.vnflcm.plugins.modules import vnf_package_info


def test_reads_a_cnf_package(run_module, fixtures_dir):
    result, failed = run_module(vnf_package_info.main, {"path": os.path.join(fixtures_dir, "test_cnf_container_update_before")})
    assert not failed
    assert result["changed"] is False
    package = result["package"]
    assert package["vnfd"]["descriptor_id"] == "b1bb0ce7-ebca-4fa7-95ed-4840d70a7774"
    vdus = package["vnfd"]["flavours"]["simple"]["vdus"]
    assert vdus["VDU1"]["name"] == "vdu1-update"
    by_name = {(item["kind"], item["name"]) for item in package["kubernetes_resources"]}
    assert ("Deployment", "vdu1-update") in by_name
    assert ("Secret", "secret-data") in by_name
    assert any("container_update_mgmt.py" in warning for warning in package["warnings"])


def test_flavour_filter_keeps_one_flavour(run_module, fixtures_dir):
    result, failed = run_module(vnf_package_info.main, {"path": os.path.join(fixtures_dir, "userdata_standard"), "flavour_id": "simple"})
    assert not failed
    assert list(result["package"]["vnfd"]["flavours"]) == ["simple"]


def test_unknown_flavour_names_the_option_and_the_known_flavours(run_module, fixtures_dir):
    result, failed = run_module(vnf_package_info.main, {"path": os.path.join(fixtures_dir, "userdata_standard"), "flavour_id": "complex"})
    assert failed
    assert result["msg"] == "Failed to validate vnf_package_info options: flavour_id: unknown flavour 'complex'; the VNFD has: simple"


def test_missing_package_is_a_clear_failure(run_module, tmp_path):
    result, failed = run_module(vnf_package_info.main, {"path": str(tmp_path / "nope")})
    assert failed
    assert result["msg"].startswith("Failed to read VNF package: ")
    assert "nope" in result["msg"]
