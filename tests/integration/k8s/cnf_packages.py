# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""CNF packages of our own, built from Tacker's test_cnf_multi_ns VNFD (VDU1, VDU2; aspects vdu1_aspect and vdu2_aspect):
a descriptor id, the VDUs' workload names and the def files are the builder's; TOSCA.meta lists each def file with its hash."""

from __future__ import annotations

import hashlib
import os
import shutil

import yaml

DEF_DIR = "Files/kubernetes/"
MULTI_NS_VNFD_ID = "b1bb0ce7-ebca-4fa7-95ed-4840d70a8993"
DEFINITIONS = ("Definitions/helloworld3_top.vnfd.yaml", "Definitions/helloworld3_types.yaml")
FLAVOUR = "Definitions/helloworld3_df_simple.yaml"


def build_package(multi_ns, dest, vnfd_id, files, vdu_names=None):
    """A package at ``dest``: ``files`` is {def file name: [objects]}; ``vdu_names`` renames VDUs' workloads ({"VDU1": "vdu1-v2"})."""
    shutil.copytree(multi_ns, dest)
    for relpath in DEFINITIONS:
        rewrite(os.path.join(dest, relpath), lambda text: text.replace(MULTI_NS_VNFD_ID, vnfd_id))
    for vdu_id, name in (vdu_names or {}).items():
        rewrite(os.path.join(dest, FLAVOUR), lambda text, vdu_id=vdu_id, name=name: text.replace(
            "    {0}:\n      type: tosca.nodes.nfv.Vdu.Compute\n      properties:\n        name: {1}\n".format(vdu_id, vdu_id.lower()),
            "    {0}:\n      type: tosca.nodes.nfv.Vdu.Compute\n      properties:\n        name: {1}\n".format(vdu_id, name)))
    folder = os.path.join(dest, DEF_DIR)
    for name in os.listdir(folder):
        os.remove(os.path.join(folder, name))
    meta_path = os.path.join(dest, "TOSCA-Metadata", "TOSCA.meta")
    with open(meta_path) as handle:
        header = handle.read().split("\n\n")[0]
    blocks = []
    for name, objects in files.items():
        text = yaml.safe_dump_all(objects)
        with open(os.path.join(folder, name), "w") as handle:
            handle.write(text)
        blocks.append("Name: {0}{1}\nContent-Type: application/yaml\nAlgorithm: SHA-256\nHash: {2}\n".format(
            DEF_DIR, name, hashlib.sha256(text.encode()).hexdigest()))
    with open(meta_path, "w") as handle:
        handle.write(header + "\n\n" + "\n".join(blocks))
    return dest


def rewrite(path, edit):
    with open(path) as handle:
        text = handle.read()
    changed = edit(text)
    with open(path, "w") as handle:
        handle.write(changed)


def deployment(name, image, replicas=1, env_from=None, env_key=None, strategy=None):
    """A Deployment whose one container runs ``image``; ``env_from`` reads a whole ConfigMap, ``env_key`` = (ConfigMap, key) one key."""
    container = {"name": "app", "image": image}
    if env_from:
        container["envFrom"] = [{"configMapRef": {"name": env_from}}]
    if env_key:
        container["env"] = [{"name": "VALUE", "valueFrom": {"configMapKeyRef": {"name": env_key[0], "key": env_key[1]}}}]
    spec = {"replicas": replicas, "selector": {"matchLabels": {"app": name}},
            "template": {"metadata": {"labels": {"app": name}}, "spec": {"containers": [container]}}}
    if strategy:
        spec["strategy"] = strategy
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name}, "spec": spec}


def statefulset(name, image, replicas=1):
    return {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": name},
            "spec": {"replicas": replicas, "serviceName": name, "selector": {"matchLabels": {"app": name}},
                     "template": {"metadata": {"labels": {"app": name}}, "spec": {"containers": [{"name": "app", "image": image}]}}}}


def config_map(name, data):
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": data}


def service(name, app):
    return {"apiVersion": "v1", "kind": "Service", "metadata": {"name": name},
            "spec": {"selector": {"app": app}, "ports": [{"port": 80, "targetPort": 8080}]}}


def def_files(files):
    return [DEF_DIR + name for name in files]
