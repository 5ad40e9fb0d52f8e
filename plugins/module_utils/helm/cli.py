# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Helm 3 command line, run for Helm-chart CNFs (Tacker v2's vimType ETSINFV.HELM.V_3).

Pure functions build each command's argv and parse its output; :func:`run_helm` is the only place a process starts,
so tests can hand :class:`HelmClient` a fake runner.

Secrets stay out of argv (which every user can read in /proc/<pid>/cmdline): Helm reaches the cluster through a
kubeconfig FILE, the user's own when the connection options name one and override nothing, else a temporary copy
(mode 0600, in a private folder removed after the call) written from the options; values whose key names a credential
(``db.password``) go through ``--set-file`` with a 0600 file; a helm failure's stderr is scrubbed of tokens and of the
known secrets before it is raised.

Release names: :func:`tacker_release_name` is Tacker v2's rule (``"vnf" + instance id without dashes``).
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.args import is_secret_key, sensitive_values
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError, ValidationError, VimError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.module import hide_in_output
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.client import self_sufficient
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.namespaces import check_namespace_name
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.limits import MAX_KUBERNETES_OBJECTS, MAX_TEXT_FILE_BYTES, describe_bytes
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.yaml_loader import parse_yaml_documents

# Helm 3.8 is the oldest that has everything used here (uninstall --wait came in 3.7, OCI charts by default in 3.8).
# Helm 4 changes install/upgrade defaults (server-side apply, wait semantics) that Tacker's flows were written for.
MIN_HELM = (3, 8, 0)
HELM_MAJOR = 3
# --set-json came in Helm 3.10: floats, lists and dicts need it.
SET_JSON_SINCE = (3, 10, 0)
PENDING_STATUSES = frozenset(["pending-install", "pending-upgrade", "pending-rollback"])

# Helm's own rule for release names (pkg/chartutil ValidateReleaseName): a DNS-1123 subdomain of at most 53 characters.
RELEASE_NAME = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
MAX_RELEASE_NAME = 53

# What one helm call may print: a release's JSON holds its chart (templates included) and manifest.
MAX_OUTPUT_BYTES = 4 * MAX_TEXT_FILE_BYTES
MAX_STDERR_CHARS = 4000
# Seconds a helm call gets past its own --timeout (start, API discovery, writing the release) before it is stopped.
PROCESS_GRACE = 60
DEFAULT_TIMEOUT = 300
# Commands that wait for nothing in the cluster.
QUERY_TIMEOUT = 120

# Helm reads these in preference to nothing but its flags: a HELM_KUBETOKEN of the environment would override the
# connection options' cluster, so they are dropped from the environment helm runs in.
HELM_KUBE_ENV_PREFIX = "HELM_KUBE"
MASKED = "********"
SCRUB_PATTERNS = (
    # Authorization header values.
    (re.compile(r"(?i)\b(bearer|basic)(\s+)[A-Za-z0-9._~+/=-]{4,}"), r"\1\2" + MASKED),
    # JWTs (ServiceAccount tokens).
    (re.compile(r"eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*"), MASKED),
    # token: x, password=x, "client-secret": "x", api_key=x
    (re.compile(r"(?i)\b([a-z_-]*(?:token|password|passwd|secret|api[_-]?key))(\"?\s*[:=]\s*\"?)[^\s\"',}&]+"), r"\1\2" + MASKED),
    # scheme://user:password@
    (re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^/@:\s]*:)[^/@\s]+@"), r"\1" + MASKED + "@"),
)

# The connection options that change what a kubeconfig says (k8s/client.py's _apply_overrides, as kubernetes.core).
KUBECONFIG_OVERRIDES = ("host", "api_key", "username", "password", "ca_cert", "client_cert", "client_key", "validate_certs")
# Paths of a kubeconfig that client-go reads relative to the kubeconfig file's folder.
CLUSTER_PATHS = ("certificate-authority",)
USER_PATHS = ("client-certificate", "client-key", "tokenFile")
WRITTEN_NAME = "nfv-vnflcm"


class HelmError(VimError):
    """A helm command failed: ``exit_code`` (None when it was stopped at its timeout) and its scrubbed ``stderr``."""

    def __init__(self, command, reason, exit_code=None, stderr=""):
        self.command = command
        self.exit_code = exit_code
        self.stderr = stderr
        super().__init__("run", "helm " + command, reason)


class HelmReleaseNotFound(HelmError):
    """helm said ``release: not found`` (status, history, get, rollback, uninstall of a release that does not exist)."""


@dataclass(frozen=True)
class HelmBinary:
    path: str
    version: str  # as helm prints it: v3.22.0
    version_info: tuple


@dataclass(frozen=True)
class HelmRun:
    exit_code: int | None  # None: stopped at its timeout
    stdout: str
    stderr: str


@dataclass(frozen=True)
class Release:
    """A release revision as ``helm status -o json`` (and install/upgrade ``-o json``) tell it; its values are left out."""
    name: str
    namespace: str
    revision: int
    status: str
    chart: str
    chart_version: str
    app_version: str
    description: str
    first_deployed: str
    last_deployed: str


@dataclass(frozen=True)
class Revision:
    """One entry of ``helm history -o json``."""
    revision: int
    status: str
    chart: str
    app_version: str
    description: str
    updated: str


# ---------------------------------------------------------------------------------------------
# The binary

def run_helm(argv, env, timeout):
    """Run helm (the only process this module starts); stopped (SIGTERM, then SIGKILL) at ``timeout`` seconds or when
    this process is interrupted. Output past MAX_OUTPUT_BYTES is refused."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env)
        try:
            exit_code = process.wait(timeout)
        except subprocess.TimeoutExpired:
            exit_code = None
            _stop(process)
        except BaseException:
            _stop(process)
            raise
        return HelmRun(exit_code, _read_bounded(out, argv), _read_bounded(err, argv, tail=True))


def _stop(process):
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _read_bounded(handle, argv, tail=False):
    size = handle.seek(0, os.SEEK_END)
    if size > MAX_OUTPUT_BYTES and not tail:
        raise HelmError(" ".join(argv[1:2]), "its output is {0}, more than the {1} this module reads".format(
            describe_bytes(size), describe_bytes(MAX_OUTPUT_BYTES)))
    handle.seek(max(0, size - MAX_OUTPUT_BYTES))
    return handle.read().decode("utf-8", errors="replace")


def find_helm(helm_binary=None, runner=run_helm, environ=None):
    """The helm to run: the ``helm_binary`` option's path, else ``helm`` on PATH; a Helm 3 of at least MIN_HELM."""
    environ = os.environ if environ is None else environ
    if helm_binary:
        path = os.path.expanduser(helm_binary)
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise ValidationError("Helm", "helm_binary", "{0} is not an executable file".format(path))
    else:
        path = shutil.which("helm", path=environ.get("PATH", os.defpath))
        if not path:
            raise ValidationError("Helm", "helm_binary", "no helm found on PATH; install Helm {0} or later or set helm_binary "
                                  "to its path".format(format_version(MIN_HELM)))
    try:
        result = runner([path, "version", "--template", "{{.Version}}"], env=helm_environment(environ), timeout=QUERY_TIMEOUT)
    except OSError as error:
        raise ValidationError("Helm", "helm_binary", "{0} could not be run: {1}".format(path, error)) from error
    if result.exit_code != 0:
        raise helm_failure("version", result)
    found = result.stdout.strip()
    return HelmBinary(path, found, check_version(found, path))


def parse_version(text):
    """(major, minor, patch) of ``v3.22.0`` / ``3.8.1+g1234`` / ``v3.9.0-rc.1``, or None."""
    match = re.match(r"^v?(\d+)\.(\d+)\.(\d+)", (text or "").strip())
    return tuple(int(part) for part in match.groups()) if match else None


def check_version(found, path="helm"):
    """The parsed version, or a ValidationError naming the version found and the one needed."""
    version = parse_version(found)
    if version is None or version[0] != HELM_MAJOR or version < MIN_HELM:
        raise ValidationError("Helm", "helm_binary", "{0} is Helm {1!r}; Helm 3, {2} or later, is needed (Helm 4 changes install and "
                              "upgrade defaults)".format(path, found, format_version(MIN_HELM)))
    return version


def format_version(version):
    return "v" + ".".join(str(part) for part in version)


def helm_environment(environ, extra=None):
    """The environment helm runs in: this one without HELM_KUBE* (the connection options name the cluster), plus ``extra``."""
    env = {name: value for name, value in environ.items() if not name.startswith(HELM_KUBE_ENV_PREFIX)}
    env.update(extra or {})
    return env


# ---------------------------------------------------------------------------------------------
# Names

def tacker_release_name(vnf_instance_id):
    """The release name Tacker v2 gives a VNF instance: ``vnf`` + the instance id without its dashes (35 characters for
    a UUID). Without dashes, the chart's objects named ``<vdu>-{{ .Release.Name }}`` split back at their last dash."""
    name = "vnf" + str(vnf_instance_id).replace("-", "")
    check_release_name(name, field="vnf_instance_id")
    return name


def check_release_name(name, field="release"):
    if not isinstance(name, str) or len(name) > MAX_RELEASE_NAME or not RELEASE_NAME.match(name):
        raise ValidationError("Helm release", field, "{0!r} is not a valid release name (lower case letters, digits, '-' and '.', "
                              "starting and ending with a letter or digit, at most {1} characters)".format(name, MAX_RELEASE_NAME))
    return name


def check_namespace(namespace):
    return check_namespace_name(namespace, "Helm release", "namespace")


def check_chart(chart):
    # A chart reference starting with '-' would read as a flag.
    if not isinstance(chart, str) or not chart or chart.startswith("-"):
        raise ValidationError("Helm chart", "chart", "{0!r} is not a chart path or reference".format(chart))
    return chart


def is_pending(status):
    """Whether a release (or its status string) is left pending: a helm that was killed mid-operation leaves
    pending-install / pending-upgrade / pending-rollback, and helm refuses another operation until it is resolved."""
    value = status.status if isinstance(status, Release) else status
    return value in PENDING_STATUSES


# ---------------------------------------------------------------------------------------------
# --set values

def escape_set_value(value):
    """A string as --set / --set-string read it back verbatim: '\\' and ',' escaped, and a leading '{' (which would
    start a list)."""
    escaped = value.replace("\\", "\\\\").replace(",", "\\,")
    return "\\" + escaped if escaped.startswith("{") else escaped


def check_set_key(key):
    # Keys keep Helm's meaning (dots nest, [n] indexes) as Tacker's helm_parameters do; '=' and ',' would end them.
    if not isinstance(key, str) or not key or re.search(r"[=,\s]", key):
        raise ValidationError("Helm values", "set_values", "{0!r} is not a value key Helm can set (no '=', ',' or white space)".format(key))
    return key


def set_value_args(set_values, version_info=None, secret_file=None):
    """--set / --set-string / --set-json / --set-file arguments, each its own argv item, types kept:

    - bool, int, None: ``--set key=true|12|null`` (Helm reads these back as bool, int64, null: null removes the key);
    - str: ``--set-string key=<escaped>`` (exact string: Tacker's ``--set key=value`` would make "2" a number and
      cut at a comma);
    - float, list, dict: ``--set-json key=<json>`` (Helm 3.10+);
    - a string whose key names a credential (``db.password``): ``--set-file key=<path>``, the string in a 0600 file
      that ``secret_file(value)`` writes, so that it is never in argv.

    Helm applies --set-json, then --set, then --set-string, then --set-file: keys that overlap (``a`` and ``a.b``)
    should not mix kinds.
    """
    args = []
    for key, value in (set_values or {}).items():
        check_set_key(key)
        if isinstance(value, str) and is_secret_key(key.rsplit(".", 1)[-1]):
            if secret_file is None:
                raise ValidationError("Helm values", "set_values", "{0} names a credential and needs a file to pass it in".format(key))
            args += ["--set-file", "{0}={1}".format(key, escape_set_value(secret_file(value)))]
        elif value is None or isinstance(value, (bool, int)):
            args += ["--set", "{0}={1}".format(key, json.dumps(value))]
        elif isinstance(value, str):
            args += ["--set-string", "{0}={1}".format(key, escape_set_value(value))]
        elif isinstance(value, (float, list, dict)):
            if version_info is not None and tuple(version_info) < SET_JSON_SINCE:
                raise ValidationError("Helm values", "set_values.{0}".format(key), "a {0} value needs Helm {1} or later (--set-json)".format(
                    type(value).__name__, format_version(SET_JSON_SINCE)))
            args += ["--set-json", "{0}={1}".format(key, json.dumps(value, separators=(",", ":"), allow_nan=False))]
        else:
            raise ValidationError("Helm values", "set_values.{0}".format(key), "a {0} cannot be a Helm value".format(type(value).__name__))
    return args


# ---------------------------------------------------------------------------------------------
# argv (without the binary and the cluster flags)

def _timeout_args(wait, timeout):
    return (["--wait"] if wait else []) + ["--timeout", "{0}s".format(int(timeout))]


def template_argv(release, chart, namespace, value_args=(), kube_version=None):
    argv = ["template", check_release_name(release), check_chart(chart), "--namespace", check_namespace(namespace)] + list(value_args)
    return argv + (["--kube-version", kube_version] if kube_version else [])


def install_argv(release, chart, namespace, value_args=(), create_namespace=False, wait=False, timeout=DEFAULT_TIMEOUT):
    argv = ["install", check_release_name(release), check_chart(chart), "--namespace", check_namespace(namespace), "--output", "json"]
    return argv + (["--create-namespace"] if create_namespace else []) + _timeout_args(wait, timeout) + list(value_args)


def upgrade_argv(release, chart, namespace, value_args=(), reuse_values=True, wait=False, timeout=DEFAULT_TIMEOUT):
    argv = ["upgrade", check_release_name(release), check_chart(chart), "--namespace", check_namespace(namespace), "--output", "json"]
    return argv + (["--reuse-values"] if reuse_values else ["--reset-values"]) + _timeout_args(wait, timeout) + list(value_args)


def rollback_argv(release, revision, namespace, wait=False, timeout=DEFAULT_TIMEOUT):
    if isinstance(revision, bool) or not isinstance(revision, int) or revision < 1:
        raise ValidationError("Helm release", "revision", "{0!r} is not a revision number (1 or more)".format(revision))
    return ["rollback", check_release_name(release), str(revision), "--namespace", check_namespace(namespace)] + _timeout_args(wait, timeout)


def uninstall_argv(release, namespace, wait=True, timeout=DEFAULT_TIMEOUT, keep_history=False):
    argv = ["uninstall", check_release_name(release), "--namespace", check_namespace(namespace)] + _timeout_args(wait, timeout)
    return argv + (["--keep-history"] if keep_history else [])


def status_argv(release, namespace, revision=None):
    argv = ["status", check_release_name(release), "--namespace", check_namespace(namespace), "--output", "json"]
    return argv + (["--revision", str(int(revision))] if revision else [])


def get_manifest_argv(release, namespace, revision=None):
    argv = ["get", "manifest", check_release_name(release), "--namespace", check_namespace(namespace)]
    return argv + (["--revision", str(int(revision))] if revision else [])


def history_argv(release, namespace, max_revisions=None):
    argv = ["history", check_release_name(release), "--namespace", check_namespace(namespace), "--output", "json"]
    return argv + (["--max", str(int(max_revisions))] if max_revisions else [])


# ---------------------------------------------------------------------------------------------
# The cluster: a kubeconfig file

def kubeconfig_plan(options, environ=None, cwd=None):
    """How helm reaches the cluster: ``(path, context, None)`` to use the user's kubeconfig as it is (path None: helm's
    default, $KUBECONFIG or ~/.kube/config, or the in-cluster config), or ``(None, None, config)``: a kubeconfig dict
    to write to a temporary file (the options override the kubeconfig, or are a connection of their own).

    ``options``: k8s.client.connection_options() of the module's params.
    """
    environ = os.environ if environ is None else environ
    kubeconfig, context = options.get("kubeconfig"), options.get("context")
    if options.get("proxy_headers"):
        raise ValidationError("Helm connection", "proxy_headers", "Helm cannot send proxy headers; use a proxy that needs none")
    overrides = any(options.get(name) is not None for name in KUBECONFIG_OVERRIDES)
    if isinstance(kubeconfig, dict):
        base = with_absolute_paths(kubeconfig, cwd or os.getcwd())
    elif not overrides:
        return (os.path.expanduser(kubeconfig) if kubeconfig else None), context, None
    elif self_sufficient(options) and not kubeconfig and not context:
        base = {}
    else:
        path = kubeconfig_path(kubeconfig, environ)
        base = with_absolute_paths(read_kubeconfig(path), os.path.dirname(path)) if path and os.path.exists(path) else {}
    return None, None, with_overrides(base, options, context)


def kubeconfig_path(kubeconfig, environ):
    """The kubeconfig file the options mean: the option, else the first file of $KUBECONFIG, else ~/.kube/config."""
    if kubeconfig:
        return os.path.expanduser(kubeconfig)
    for path in (environ.get("KUBECONFIG") or "").split(os.pathsep):
        if path and os.path.exists(os.path.expanduser(path)):
            return os.path.expanduser(path)
    return os.path.expanduser("~/.kube/config")


def read_kubeconfig(path):
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_TEXT_FILE_BYTES + 1)
        documents = parse_yaml_documents(data, path)
    except (OSError, PackageError) as error:
        raise VimError("load", "kubeconfig", str(error)) from error
    if len(documents) != 1 or not isinstance(documents[0], dict):
        raise VimError("load", "kubeconfig", "{0} is not a kubeconfig (one YAML mapping)".format(path))
    return documents[0]


def with_absolute_paths(config, folder):
    """A copy of a kubeconfig whose relative file paths are made absolute against ``folder`` (client-go reads them
    relative to the kubeconfig's own folder, which the temporary copy is not)."""
    config = copy.deepcopy(config)
    for section, inner, keys in (("clusters", "cluster", CLUSTER_PATHS), ("users", "user", USER_PATHS)):
        for entry in config.get(section) or []:
            body = entry.get(inner) if isinstance(entry, dict) else None
            for key in keys if isinstance(body, dict) else ():
                if isinstance(body.get(key), str) and body[key] and not os.path.isabs(body[key]):
                    body[key] = os.path.normpath(os.path.join(folder, os.path.expanduser(body[key])))
            # An exec plugin's command is relative to the kubeconfig's folder when it names a path (./bin/get-token).
            command = (body.get("exec") or {}).get("command") if inner == "user" and isinstance(body, dict) else None
            if isinstance(command, str) and os.sep in command and not os.path.isabs(command):
                body["exec"]["command"] = os.path.normpath(os.path.join(folder, command))
    return config


def _named(config, section, name, inner):
    """The entry called ``name`` of clusters/users/contexts, added when missing."""
    entries = config.setdefault(section, [])
    for entry in entries:
        if isinstance(entry, dict) and entry.get("name") == name:
            entry.setdefault(inner, {})
            return entry[inner]
    entries.append({"name": name, inner: {}})
    return entries[-1][inner]


def with_overrides(base, options, context=None):
    """A kubeconfig dict: ``base`` (a kubeconfig, or {}) with the connection options applied to its context as
    kubernetes.core applies them to a loaded kubeconfig (k8s/client.py)."""
    config = copy.deepcopy(base) or {}
    config.setdefault("apiVersion", "v1")
    config.setdefault("kind", "Config")
    name = context or config.get("current-context")
    contexts = [entry.get("name") for entry in config.get("contexts") or [] if isinstance(entry, dict)]
    if context and context not in contexts:
        raise ValidationError("Helm connection", "context", "no context {0!r} in the kubeconfig".format(context))
    if not name or name not in contexts:
        name = WRITTEN_NAME
    ctx = _named(config, "contexts", name, "context")
    ctx.setdefault("cluster", WRITTEN_NAME)
    ctx.setdefault("user", WRITTEN_NAME)
    cluster = _named(config, "clusters", ctx["cluster"], "cluster")
    user = _named(config, "users", ctx["user"], "user")
    config["current-context"] = name
    if options.get("host"):
        cluster["server"] = options["host"].rstrip("/")
    if options.get("ca_cert"):
        cluster.pop("certificate-authority-data", None)
        cluster["certificate-authority"] = os.path.abspath(os.path.expanduser(options["ca_cert"]))
    if options.get("validate_certs") is False:
        # client-go refuses a CA together with insecure-skip-tls-verify.
        cluster.pop("certificate-authority-data", None)
        cluster.pop("certificate-authority", None)
        cluster["insecure-skip-tls-verify"] = True
    elif options.get("validate_certs") is True:
        cluster.pop("insecure-skip-tls-verify", None)
    if options.get("api_key"):
        for key in ("tokenFile", "username", "password", "exec", "auth-provider"):
            user.pop(key, None)
        user["token"] = options["api_key"]
    elif options.get("username") and options.get("password"):
        for key in ("token", "tokenFile", "exec", "auth-provider"):
            user.pop(key, None)
        user["username"], user["password"] = options["username"], options["password"]
    for option, key in (("client_cert", "client-certificate"), ("client_key", "client-key")):
        if options.get(option):
            user.pop(key + "-data", None)
            user[key] = os.path.abspath(os.path.expanduser(options[option]))
    return config


def kube_flags(kubeconfig=None, context=None, options=None):
    """Helm's cluster flags: a kubeconfig path, a context, impersonation; never a credential."""
    options = options or {}
    flags = (["--kubeconfig", kubeconfig] if kubeconfig else []) + (["--kube-context", context] if context else [])
    if options.get("impersonate_user"):
        flags += ["--kube-as-user", options["impersonate_user"]]
    for group in options.get("impersonate_groups") or ():
        flags += ["--kube-as-group", group]
    return flags


def proxy_environment(options):
    """kubernetes.core's proxy options as the proxy variables client-go reads (a kubeconfig's proxy-url would ignore
    no_proxy)."""
    env = {}
    if options.get("proxy"):
        env.update(HTTPS_PROXY=options["proxy"], HTTP_PROXY=options["proxy"], https_proxy=options["proxy"], http_proxy=options["proxy"])
    if options.get("no_proxy"):
        env.update(NO_PROXY=options["no_proxy"], no_proxy=options["no_proxy"])
    return env


def connection_secrets(options):
    """The credentials in the connection options (to scrub from helm's messages)."""
    secrets = {options.get("api_key"), options.get("password")}
    secrets |= sensitive_values(options.get("kubeconfig")) if isinstance(options.get("kubeconfig"), dict) else set()
    secrets |= sensitive_values(options.get("proxy")) if options.get("proxy") else set()
    return {str(secret) for secret in secrets if secret}


def write_private(folder, name, text):
    """``text`` into ``folder/name``, created with mode 0600 (never readable by others, not even for a moment)."""
    path = os.path.join(folder, name)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(text)
    return path


# ---------------------------------------------------------------------------------------------
# Output

def scrub(text, secrets=()):
    """``text`` without the known ``secrets`` and without anything that looks like a token or a password."""
    for secret in sorted((s for s in secrets if s and len(s) >= 4), key=len, reverse=True):
        text = text.replace(secret, MASKED)
    for pattern, replacement in SCRUB_PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def helm_failure(command, result, secrets=()):
    """The HelmError for a failed run: helm's last stderr lines, scrubbed, and its exit code."""
    stderr = scrub(result.stderr.strip(), secrets)[-MAX_STDERR_CHARS:]
    if result.exit_code is None:
        return HelmError(command, "stopped after its timeout; {0}".format(stderr or "no message"), None, stderr)
    cls = HelmReleaseNotFound if re.search(r"release: not found|Release not loaded", stderr) else HelmError
    return cls(command, "exit code {0}: {1}".format(result.exit_code, stderr or "no message"), result.exit_code, stderr)


# The output is not quoted in these errors: a release's JSON holds its values, which may hold secrets.
def parse_json(text, command):
    try:
        return json.loads(text)
    except ValueError as error:
        raise HelmError(command, "its output ({0} characters) is not JSON: {1}".format(len(text), error)) from error


def parse_release(text, command="status"):
    data = parse_json(text, command)
    if not isinstance(data, dict):
        raise HelmError(command, "its output is a JSON {0}, not a release".format(type(data).__name__))
    info = data.get("info") or {}
    metadata = (data.get("chart") or {}).get("metadata") or {}
    return Release(name=data.get("name", ""), namespace=data.get("namespace", ""), revision=int(data.get("version") or 0),
                   status=info.get("status", ""), chart=metadata.get("name", ""), chart_version=metadata.get("version", ""),
                   app_version=metadata.get("appVersion", ""), description=info.get("description", ""),
                   first_deployed=info.get("first_deployed", ""), last_deployed=info.get("last_deployed", ""))


def parse_history(text):
    data = parse_json(text, "history")
    if not isinstance(data, list):
        raise HelmError("history", "its output is a JSON {0}, not a list of revisions".format(type(data).__name__))
    return [Revision(revision=int(entry.get("revision") or 0), status=entry.get("status", ""), chart=entry.get("chart", ""),
                     app_version=entry.get("app_version", ""), description=entry.get("description", ""), updated=entry.get("updated", ""))
            for entry in data]


def parse_manifest(text, command):
    """Rendered objects (YAML documents, comments-only ones dropped), within the package reader's YAML bounds."""
    try:
        documents = parse_yaml_documents(text, "the output of helm " + command)
    except PackageError as error:
        raise HelmError(command, error.reason) from error
    if len(documents) > MAX_KUBERNETES_OBJECTS:
        raise HelmError(command, "it rendered {0} objects, more than the {1} allowed".format(len(documents), MAX_KUBERNETES_OBJECTS))
    for index, document in enumerate(documents):
        if not isinstance(document, dict):
            raise HelmError(command, "document {0} of its output is a {1}, not an object".format(index + 1, type(document).__name__))
    return documents


# ---------------------------------------------------------------------------------------------
# The commands

class HelmClient:
    """Helm commands against one cluster. ``connection``: k8s.client.connection_options() of the module's params (or
    None: helm's defaults); ``env``: more environment for helm (HELM_CACHE_HOME ...); ``runner``: run_helm's stand-in.

    Each call writes what it needs (kubeconfig, values) into a private temporary folder, removed when it returns.
    """

    def __init__(self, binary, connection=None, env=None, runner=run_helm, environ=None):
        self.binary = binary
        self.connection = dict(connection or {})
        self.environ = dict(os.environ if environ is None else environ)
        self.extra_env = dict(env or {})
        self.runner = runner
        self.secrets = connection_secrets(self.connection)
        hide_in_output(*self.secrets)

    # Commands that change the cluster.
    def install(self, chart, release, namespace, values=None, set_values=None, create_namespace=False, wait=False, timeout=DEFAULT_TIMEOUT):
        """``helm install``: the release it made (revision 1)."""
        return self._release_call("install", lambda value_args: install_argv(
            release, chart, namespace, value_args, create_namespace=create_namespace, wait=wait, timeout=timeout), values, set_values, timeout)

    def upgrade(self, chart, release, namespace, values=None, set_values=None, reuse_values=True, wait=False, timeout=DEFAULT_TIMEOUT):
        """``helm upgrade`` (``--reuse-values`` by default, as Tacker: the new values merge into the release's)."""
        return self._release_call("upgrade", lambda value_args: upgrade_argv(
            release, chart, namespace, value_args, reuse_values=reuse_values, wait=wait, timeout=timeout), values, set_values, timeout)

    def rollback(self, release, revision, namespace, wait=False, timeout=DEFAULT_TIMEOUT):
        """``helm rollback`` to ``revision`` (it makes a new revision with that one's chart and values)."""
        self._call("rollback", lambda folder: rollback_argv(release, revision, namespace, wait=wait, timeout=timeout), timeout + PROCESS_GRACE)

    def uninstall(self, release, namespace, wait=True, timeout=DEFAULT_TIMEOUT, keep_history=False):
        """``helm uninstall``, by default waiting until the release's objects are gone."""
        self._call("uninstall", lambda folder: uninstall_argv(release, namespace, wait=wait, timeout=timeout, keep_history=keep_history),
                   timeout + PROCESS_GRACE)

    # Queries.
    def status(self, release, namespace, revision=None):
        """``helm status -o json`` (HelmReleaseNotFound when there is no such release)."""
        return parse_release(self._call("status", lambda folder: status_argv(release, namespace, revision)).stdout)

    def release_exists(self, release, namespace):
        try:
            self.status(release, namespace)
        except HelmReleaseNotFound:
            return False
        return True

    def history(self, release, namespace, max_revisions=None):
        """``helm history -o json``: the revisions, oldest first."""
        return parse_history(self._call("history", lambda folder: history_argv(release, namespace, max_revisions)).stdout)

    def get_manifest(self, release, namespace, revision=None):
        """The objects of a release revision (the current one by default) as dicts."""
        return parse_manifest(self._call("get manifest", lambda folder: get_manifest_argv(release, namespace, revision)).stdout, "get manifest")

    def template(self, chart, release, namespace, values=None, set_values=None, kube_version=None, timeout=QUERY_TIMEOUT):
        """``helm template`` (no cluster is contacted): the rendered objects as dicts, hooks included."""
        def argv(folder):
            return template_argv(release, chart, namespace, self._value_args(folder, values, set_values), kube_version)
        return parse_manifest(self._call("template", argv, timeout, cluster=False).stdout, "template")

    # Plumbing.
    def _release_call(self, command, build, values, set_values, timeout):
        result = self._call(command, lambda folder: build(self._value_args(folder, values, set_values)), timeout + PROCESS_GRACE)
        return parse_release(result.stdout, command)

    def _value_args(self, folder, values, set_values):
        """-f <values file> (0600: values may hold secrets) and the --set family for ``set_values``."""
        args = []
        if values:
            self._remember_secrets(values)
            args += ["--values", write_private(folder, "values.json", json.dumps(values))]
        counter = iter(range(1 << 30))

        def secret_file(value):
            self.secrets.add(value)
            hide_in_output(value)
            return write_private(folder, "value-{0}".format(next(counter)), value)
        return args + set_value_args(set_values, self.binary.version_info, secret_file)

    def _remember_secrets(self, values):
        found = {str(secret) for secret in sensitive_values(values)}
        self.secrets |= found
        hide_in_output(*found)

    def _call(self, command, build_argv, timeout=QUERY_TIMEOUT, cluster=True):
        folder = tempfile.mkdtemp(prefix="nfv-vnflcm-helm-")
        try:
            argv = [self.binary.path] + build_argv(folder) + (self._cluster_flags(folder) if cluster else [])
            env = helm_environment(self.environ, dict(proxy_environment(self.connection), **self.extra_env))
            result = self.runner(argv, env=env, timeout=timeout)
        except OSError as error:
            raise HelmError(command, "helm could not be run: {0}".format(error)) from error
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if result.exit_code != 0:
            raise helm_failure(command, result, self.secrets)
        return result

    def _cluster_flags(self, folder):
        path, context, config = kubeconfig_plan(self.connection, self.environ)
        if config is not None:
            path = write_private(folder, "kubeconfig", json.dumps(config))
        return kube_flags(path, context, self.connection)
