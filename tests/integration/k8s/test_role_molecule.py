# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The vnf_lifecycle role's molecule scenarios on the Kubernetes lab: extensions/molecule/vnf_lifecycle
(instantiate, scale, heal, terminate with hooks) and extensions/molecule/cnf_container_update (a container
update, then a failed one rolled back)."""

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.tests.integration.molecule_runs import molecule_test


@pytest.mark.parametrize("scenario", ["vnf_lifecycle", "cnf_container_update"])
def test_molecule_scenario(scenario, k8s_lab, tacker_packages, tmp_path):
    kubeconfig = str(k8s_lab.kubeconfig)
    molecule_test(scenario, tmp_path, {"KUBECONFIG": kubeconfig, "K8S_AUTH_KUBECONFIG": kubeconfig, "NFV_FIXTURES_DIR": tacker_packages})
