# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Size bounds of a package: files read whole, zip members and their total; Tacker's samples stay far below them."""

from __future__ import annotations

import glob
import hashlib
import io
import os
import re
import zipfile

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError
from ansible_collections.nfv.vnflcm.plugins.module_utils.package import archive
from ansible_collections.nfv.vnflcm.plugins.module_utils.package import limits
from ansible_collections.nfv.vnflcm.plugins.module_utils.package import yaml_loader
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

TEXT_LIMIT = "more than the 8 MiB (8388608 bytes) limit of a YAML or text file in a package"


def load_error(path):
    with pytest.raises(PackageError) as error:
        load_package(path)
    return str(error.value)


def grow(root, relpath, size):
    """Make a package file ``size`` bytes long (sparse: nothing is written), and keep TOSCA.meta's hashes right."""
    os.truncate(os.path.join(root, relpath), size)
    if relpath != archive.TOSCA_META_PATH:
        rehash(root)


def rehash(root):
    """Recompute every Hash of TOSCA.meta from the files as they are now."""
    meta = os.path.join(root, "TOSCA-Metadata", "TOSCA.meta")
    with open(meta) as handle:
        blocks = handle.read().split("\n\n")
    for position, block in enumerate(blocks):
        name = re.search(r"^Name: (.+)$", block, re.M)
        algorithm = re.search(r"^Algorithm: (.+)$", block, re.M)
        if name and algorithm and os.path.isfile(os.path.join(root, name.group(1))):
            with open(os.path.join(root, name.group(1)), "rb") as handle:
                digest = hashlib.new(algorithm.group(1).replace("-", "").lower(), handle.read()).hexdigest()
            blocks[position] = re.sub(r"^Hash: .*$", "Hash: " + digest, block, flags=re.M)
    with open(meta, "w") as handle:
        handle.write("\n\n".join(blocks))


@pytest.fixture(params=["directory", "zip"])
def as_format(request, zipped):
    return (lambda directory: directory) if request.param == "directory" else zipped


def test_the_documented_limits():
    assert limits.MAX_TEXT_FILE_BYTES == 8 * 1024 * 1024
    assert limits.MAX_ZIP_MEMBERS == 10000
    assert limits.MAX_ZIP_UNCOMPRESSED_BYTES == 4 * 1024 ** 3
    assert limits.MAX_YAML_DEPTH == 100
    assert limits.MAX_YAML_EXPANDED_NODES == 1000000
    assert limits.MAX_YAML_EXPANDED_CHARS == 32 * 1024 * 1024
    assert limits.MAX_KUBERNETES_OBJECTS == 1000
    assert limits.MAX_KUBERNETES_OBJECT_BYTES == 1572864


@pytest.mark.parametrize("size, text", [
    (512, "512 bytes"),
    (1536, "1.5 KiB (1536 bytes)"),
    (8 * 1024 * 1024, "8 MiB (8388608 bytes)"),
    (1572864, "1.5 MiB (1572864 bytes)"),
    (4 * 1024 ** 3 + 1, "4 GiB (4294967297 bytes)"),
])
def test_describe_bytes(size, text):
    assert limits.describe_bytes(size) == text


def test_text_file_size_bound_is_inclusive():
    archive.check_text_file_size(limits.MAX_TEXT_FILE_BYTES, "f.yaml")
    with pytest.raises(PackageError) as error:
        archive.check_text_file_size(limits.MAX_TEXT_FILE_BYTES + 1, "f.yaml")
    assert str(error.value) == "Failed to read VNF package: f.yaml: is 8 MiB (8388609 bytes), " + TEXT_LIMIT


def test_read_bounded_stops_at_the_limit_whatever_the_stated_size():
    """A file that grew after its size was checked, or a zip member bigger than its directory says."""
    assert archive.read_bounded(io.BytesIO(b"x" * 10), "f.yaml") == b"x" * 10
    with pytest.raises(PackageError, match="f.yaml: is 8 MiB"):
        archive.read_bounded(io.BytesIO(b"x" * (limits.MAX_TEXT_FILE_BYTES + 100)), "f.yaml")


@pytest.mark.parametrize("name, relpath", [
    ("test_cnf_multi_ns", "TOSCA-Metadata/TOSCA.meta"),
    ("test_cnf_multi_ns", "Definitions/helloworld3_top.vnfd.yaml"),
    ("test_cnf_multi_ns", "Definitions/etsi_nfv_sol001_common_types.yaml"),
    ("test_cnf_multi_ns", "Files/kubernetes/namespace01.yaml"),
    ("userdata_standard", "BaseHOT/simple/sample3.yaml"),
    ("userdata_standard", "BaseHOT/simple/nested/VDU1.yaml"),
])
def test_a_file_over_the_size_limit_is_refused_before_it_is_read(package_copy, as_format, name, relpath):
    root = package_copy(name)
    grow(root, relpath, limits.MAX_TEXT_FILE_BYTES + 1)
    message = load_error(as_format(root))
    assert "{0}: is 8 MiB (8388609 bytes), {1}".format(relpath, TEXT_LIMIT) in message


def test_parse_refuses_a_text_over_the_size_limit():
    for text in (b"a" * (limits.MAX_TEXT_FILE_BYTES + 1), "a" * (limits.MAX_TEXT_FILE_BYTES + 1)):
        with pytest.raises(PackageError, match="f.yaml: is 8 MiB \\(8388609 bytes\\), more than"):
            yaml_loader.parse_yaml_documents(text, "f.yaml")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_in_a_directory_package_is_refused_not_waited_on(package_copy):
    root = package_copy("test_cnf_multi_ns")
    meta = os.path.join(root, "TOSCA-Metadata", "TOSCA.meta")
    os.remove(meta)
    os.mkfifo(meta)
    assert "TOSCA-Metadata/TOSCA.meta: not a regular file" in load_error(root)


def member_count(zip_path):
    with zipfile.ZipFile(zip_path) as archive_file:
        return len(archive_file.infolist())


def test_a_zip_with_too_many_members_is_refused(fixtures_dir, zipped):
    directory = os.path.join(fixtures_dir, "test_cnf_multi_ns")
    own = member_count(zipped(directory))
    extra = [("Files/extra/{0}.txt".format(index), b"") for index in range(limits.MAX_ZIP_MEMBERS - own)]
    with load_package(zipped(directory, extra_members=extra)) as package:  # exactly at the limit
        assert package.to_dict()["format"] == "zip"
    path = zipped(directory, extra_members=extra + [("Files/extra/one-more.txt", b"")])
    assert load_error(path) == "Failed to read VNF package: {0}: has 10001 zip members, more than the limit of 10000".format(path)


def test_a_zip_over_the_uncompressed_size_limit_is_refused(fixtures_dir, zipped, monkeypatch):
    """4 GiB cannot be built in a test; the bound is lowered to the sample's own size instead."""
    directory = os.path.join(fixtures_dir, "test_cnf_multi_ns")
    total = sum(os.path.getsize(path) for path in glob.glob(os.path.join(directory, "**", "*"), recursive=True) if os.path.isfile(path))
    path = zipped(directory)
    monkeypatch.setattr(archive, "MAX_ZIP_UNCOMPRESSED_BYTES", total)
    load_package(path).close()
    monkeypatch.setattr(archive, "MAX_ZIP_UNCOMPRESSED_BYTES", total - 1)
    message = load_error(path)
    assert message.startswith("Failed to read VNF package: {0}: uncompressed size is ".format(path))
    assert "({0} bytes), more than the".format(total) in message and "limit of a zip package" in message


def fixture_packages(fixtures_dir):
    return sorted(name for name in os.listdir(fixtures_dir) if os.path.isfile(os.path.join(fixtures_dir, name, "TOSCA-Metadata", "TOSCA.meta")))


def test_every_sample_file_is_far_below_the_file_size_limit(fixtures_dir):
    sizes = [os.path.getsize(path) for path in glob.glob(os.path.join(fixtures_dir, "*", "**", "*"), recursive=True) if os.path.isfile(path)]
    assert sizes and max(sizes) * 100 < limits.MAX_TEXT_FILE_BYTES


def test_every_sample_package_reads_with_limits_a_hundred_times_lower(fixtures_dir, monkeypatch, zipped):
    """The margin the limits keep: Tacker's samples (with their large ETSI type files) are far inside them.

    Nesting is the tightest: the samples nest 10 levels deep, the limit is 100.
    """
    monkeypatch.setattr(archive, "MAX_TEXT_FILE_BYTES", limits.MAX_TEXT_FILE_BYTES // 100)
    monkeypatch.setattr(yaml_loader, "MAX_YAML_EXPANDED_NODES", limits.MAX_YAML_EXPANDED_NODES // 100)
    monkeypatch.setattr(yaml_loader, "MAX_YAML_EXPANDED_CHARS", limits.MAX_YAML_EXPANDED_CHARS // 100)
    monkeypatch.setattr(yaml_loader, "MAX_YAML_DEPTH", limits.MAX_YAML_DEPTH // 5)
    monkeypatch.setattr(archive, "MAX_ZIP_MEMBERS", limits.MAX_ZIP_MEMBERS // 100)
    names = fixture_packages(fixtures_dir)
    assert len(names) >= 7
    for name in names:
        for path in (os.path.join(fixtures_dir, name), zipped(os.path.join(fixtures_dir, name))):
            with load_package(path) as package:
                assert package.to_dict()["vnfd"]["flavours"], path
