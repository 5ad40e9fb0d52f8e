# nfv.vnflcm — build and test entry points. `make test` is what CI runs; `make demo` is the main job.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
CACHE_ROOT ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/nfv-vnflcm
# The venv lives outside the clone, keyed by the pinned requirements, so fresh clones reuse it.
REQ_HASH := $(shell cat requirements.txt tests/requirements-dev.txt | sha256sum | cut -c1-12)
VENV ?= $(CACHE_ROOT)/venv-$(REQ_HASH)
BIN := $(VENV)/bin
# Outside the clone: inside a git work tree ansible-test would list files through git and find none.
RUN_KEY := $(shell echo $(CURDIR) | sha256sum | cut -c1-12)
STAGE_ROOT := $(CACHE_ROOT)/stage/$(RUN_KEY)/collections
STAGE := $(STAGE_ROOT)/ansible_collections/nfv/vnflcm
export ANSIBLE_COLLECTIONS_PATH := $(STAGE_ROOT)
export PATH := $(BIN):$(PATH)
FIXTURES ?= $(abspath $(CURDIR)/../shared/fixtures/tacker)

.PHONY: help venv venv-path
help:  ## list targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

venv: $(VENV)/.done  ## create the tool venv (cached outside the clone)
$(VENV)/.done: requirements.txt tests/requirements-dev.txt
	mkdir -p $(CACHE_ROOT)
	flock $(CACHE_ROOT)/venv.lock bash -c '[ -f $@ ] || { rm -rf $(VENV) && $(PYTHON) -m venv $(VENV) && $(BIN)/pip install -q --upgrade pip && $(BIN)/pip install -q -r tests/requirements-dev.txt && touch $@; }'

venv-path:  ## print the venv's path
	@echo $(VENV)

# ---------------------------------------------------------------------------------------------
# Staging: ansible-test and ansible-doc need a real ansible_collections/nfv/vnflcm tree.
# KEEP_STAGE=1 keeps the staged tree as it is: make test stages once, then runs its parts from it side by side
# (a part's re-stage would delete the tree under the other part's running tests).
KEEP_STAGE ?=
.PHONY: stage
ifeq ($(KEEP_STAGE),)
stage:  ## copy the collection's files into .tmp/collections/ansible_collections/nfv/vnflcm
	rm -rf $(STAGE) && mkdir -p $(STAGE)
	git ls-files -z -co --exclude-standard -- . ':!tools' ':!benchmarks' ':!.ci' \
	  | xargs -0 -I{} sh -c 'test -e "{}" && printf "%s\0" "{}"' \
	  | tar --null -T - -cf - | tar -xf - -C $(STAGE)
else
stage:
	@test -d $(STAGE) || { echo "KEEP_STAGE is set but nothing is staged at $(STAGE)"; exit 1; }
endif

# ansible-test bootstraps pip in its per-test venvs with a script it downloads from a host this
# machine cannot reach; the cached copy it looks for first is our offline stand-in.
ANSIBLE_TEST_GET_PIP := $(HOME)/.ansible/test/cache/get_pip_24_2.py
$(ANSIBLE_TEST_GET_PIP): tools/ansible-test/get_pip.py
	mkdir -p $(dir $@) && cp $< $@

# ---------------------------------------------------------------------------------------------
# Checks
SANITY_SKIP := $(shell sed -e 's/\#.*//' -e '/^\s*$$/d' tests/sanity/skip.txt 2>/dev/null | awk '{printf " --skip-test %s", $$1}')

.PHONY: sanity lint unit docs integration test
sanity: venv stage $(ANSIBLE_TEST_GET_PIP)  ## ansible-test sanity (every test that runs offline)
	cd $(STAGE) && $(BIN)/ansible-test sanity --requirements --python 3.11 --color no $(SANITY_SKIP)

lint: venv stage  ## ansible-lint (production profile) and the changelog fragments
	$(BIN)/ansible-lint --offline
	$(BIN)/antsibull-changelog lint

unit: venv stage  ## unit tests (pure logic, no VIM)
	cd $(STAGE) && PYTHONPATH=$(STAGE_ROOT) NFV_FIXTURES_DIR=$(FIXTURES) $(BIN)/python -m pytest -q -p no:cacheprovider tests/unit

# The documentation site: antsibull-docs writes the reST of the staged collection (a page per module, filter and role
# entry point, and the guides docs/docsite/extra-docs.yml lists), Sphinx builds the HTML from it with tools/docs/conf.py:
# no intersphinx, nothing fetched, every warning fails the build. antsibull-docs, Sphinx and the theme have a venv of
# their own, cached outside the clone like the main one and keyed by their pins (tools/docs/requirements.txt).
DOCS_REQ := tools/docs/requirements.txt
DOCS_VENV := $(CACHE_ROOT)/docs-venv-$(shell cat $(DOCS_REQ) | sha256sum | cut -c1-12)
DOCS_BIN := $(DOCS_VENV)/bin
DOCS_DIR := $(CACHE_ROOT)/docs/$(RUN_KEY)
# The docs venv's ansible-core (the same version as the main one) reads the plugins for antsibull-docs.
DOCS_RUN := PATH=$(DOCS_BIN):$$PATH $(DOCS_BIN)/antsibull-docs

.PHONY: docs-venv docs-lint
docs: venv stage docs-venv  ## every module's documentation renders with ansible-doc; the HTML site (antsibull-docs, Sphinx)
	for m in $$(ls plugins/modules/*.py | xargs -n1 basename | sed 's/\.py$$//'); do \
	  $(BIN)/ansible-doc nfv.vnflcm.$$m > /dev/null || { echo "ansible-doc failed for $$m"; exit 1; }; \
	  echo "ansible-doc nfv.vnflcm.$$m: ok"; done
	rm -rf $(DOCS_DIR) && mkdir -p $(DOCS_DIR)/rst && chmod og-w $(DOCS_DIR)/rst
	$(DOCS_RUN) --config-file tools/docs/antsibull-docs.cfg collection --use-current --squash-hierarchy \
	  --fail-on-error --cleanup everything --dest-dir $(DOCS_DIR)/rst nfv.vnflcm
	$(DOCS_BIN)/sphinx-build -b html -c tools/docs -d $(DOCS_DIR)/doctrees -W --keep-going -q -n $(DOCS_DIR)/rst $(DOCS_DIR)/html
	@cd $(DOCS_DIR)/html && echo "docs: pages of $$(ls *_module.html | wc -l) modules, $$(ls *_filter.html | wc -l) filters," \
	  "$$(ls *_role.html | wc -l) roles, $$(ls docsite/*.html 2>/dev/null | wc -l) guides; open $(DOCS_DIR)/html/index.html"

docs-venv: $(DOCS_VENV)/.done  ## create the documentation tools' venv (cached outside the clone)
$(DOCS_VENV)/.done: $(DOCS_REQ)
	mkdir -p $(CACHE_ROOT)
	flock $(CACHE_ROOT)/venv.lock bash -c '[ -f $@ ] || { rm -rf $(DOCS_VENV) && $(PYTHON) -m venv $(DOCS_VENV) && $(DOCS_BIN)/pip install -q --upgrade pip && $(DOCS_BIN)/pip install -q -r $(DOCS_REQ) && touch $@; }'

# The plugins' and roles' documentation as the site renders it (schema, markup, references to other plugins and
# their options, checked against every collection installed here: ansible.builtin too) and the guides
# (docs/docsite: extra-docs.yml, rstcheck of each guide, their references to plugins).
docs-lint: stage docs-venv  ## antsibull-docs lint of the plugins', roles' and guides' documentation
	cd $(STAGE) && $(DOCS_RUN) lint-collection-docs --plugin-docs --validate-collection-refs all \
	  --disallow-unknown-collection-refs --check-extra-docs-refs .

# ---------------------------------------------------------------------------------------------
# ansible-core matrix: the unit tests and ansible-test sanity on every supported ansible-core besides the
# main venv's 2.19, which `make unit`, `make sanity` and the integration tests use (the newest core that
# installs on Python 3.11: 2.20 needs 3.12). meta/runtime.yml's requires_ansible says what passes here.
# One venv per core, cached outside the clone like the main one; the cores run one after another. The matrix's
# sanity leaves out pylint: it judges the code's style, not what a core accepts, and `make sanity` runs it once (on
# 2.19, with the newest rules); three more runs took 77 CPU-s each. Its unit tests are those that reach ansible-core
# (tools/core_dependent_tests.py follows each test file's imports: 34 of 93 files, 611 of 2,090 tests): the others
# test the collection's own logic on the same Python and pinned libraries whatever the core, and `make unit` runs them.
CORE_PINS ?= 2.16.19 2.17.14 2.18.19
MATRIX_SANITY_SKIP := $(SANITY_SKIP) --skip-test pylint
MATRIX_DEPS := $(shell grep -E '^(pytest|kubernetes|openstacksdk|keystoneauth1|PyYAML|aiohttp)==' tests/requirements-dev.txt | tr '\n' ' ')
MATRIX_HASH := $(shell echo $(MATRIX_DEPS) | sha256sum | cut -c1-12)

.PHONY: matrix
matrix: venv stage  ## the unit tests that reach ansible-core and ansible-test sanity on each other supported ansible-core (CORE_PINS)
	@summary=""; failed=0; core_tests=$$($(PYTHON) tools/core_dependent_tests.py); \
	test -n "$$core_tests" || { echo "matrix: tools/core_dependent_tests.py found no unit test that reaches ansible-core"; exit 1; }; \
	for pin in $(CORE_PINS); do \
	  venv=$(CACHE_ROOT)/core-$$pin-$(MATRIX_HASH); \
	  flock $(CACHE_ROOT)/venv.lock bash -c "[ -f $$venv/.done ] || { rm -rf $$venv && $(PYTHON) -m venv $$venv && $$venv/bin/pip install -q --upgrade pip && $$venv/bin/pip install -q ansible-core==$$pin $(MATRIX_DEPS) && touch $$venv/.done; }"; \
	  pip_version=$$(grep -oE "^        pip='[0-9.]+'" $$venv/lib/python3*/site-packages/ansible_test/_internal/python_requirements.py | head -1 | grep -oE '[0-9.]+'); \
	  mkdir -p $(HOME)/.ansible/test/cache && cp tools/ansible-test/get_pip.py $(HOME)/.ansible/test/cache/get_pip_$${pip_version//./_}.py; \
	  start=$$(date +%s); \
	  unit=0; (cd $(STAGE) && PATH=$$venv/bin:$$PATH PYTHONPATH=$(STAGE_ROOT) NFV_FIXTURES_DIR=$(FIXTURES) $$venv/bin/python -m pytest -q -p no:cacheprovider -rfE $$core_tests | grep -E '^(FAILED|ERROR) |[0-9]+ (passed|failed)') || unit=$$?; \
	  middle=$$(date +%s); \
	  sanity=0; (cd $(STAGE) && PATH=$$venv/bin:$$PATH $$venv/bin/ansible-test sanity --requirements --python 3.11 --color no $(MATRIX_SANITY_SKIP) 2>&1 | { grep -Ev '^(Running sanity test|Sanity test using )' || true; }) || sanity=$$?; \
	  end=$$(date +%s); \
	  summary="$$summary\n  ansible-core $$pin: unit $$([ $$unit = 0 ] && echo pass || echo FAIL) ($$((middle - start)) s), sanity $$([ $$sanity = 0 ] && echo pass || echo FAIL) ($$((end - middle)) s)"; \
	  [ $$unit = 0 -a $$sanity = 0 ] || failed=1; \
	done; \
	echo -e "matrix:$$summary"; exit $$failed

# ---------------------------------------------------------------------------------------------
# Publishing: the tarball Galaxy would get, checked by galaxy-importer, and the changelog the 0.1.0
# release would write. Neither changes the clone.
VERSION := $(shell sed -n 's/^version: *//p' galaxy.yml)
GALAXY_IMPORTER := galaxy-importer==0.4.44
GALAXY_IMPORTER_VENV := $(CACHE_ROOT)/galaxy-importer-$(shell echo $(GALAXY_IMPORTER) | sha256sum | cut -c1-12)
# Galaxy refuses a collection without a repository URL; until the project has one, the import check
# (only) puts this stand-in into the tarball's MANIFEST.json, and says so.
STAND_IN_REPOSITORY := https://repository.invalid/nfv/vnflcm
# What must never be in the tarball (build_ignore in galaxy.yml keeps it out).
NOT_PUBLISHED := ^nfv-vnflcm-[^/]*/(tools|benchmarks|tests/integration|tests/output|\.pytest_cache|\.ansible|\.ci|\.tmp|\.venv|collections)(/|$$)

.PHONY: publish-check changelog-check galaxy-check
publish-check: changelog-check galaxy-check  ## the release as Galaxy would get it: changelog dry run and galaxy-importer

changelog-check: venv stage  ## antsibull-changelog release of VERSION in a throwaway copy, and what it would write
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	mkdir -p $$tmp/ansible_collections/nfv && cp -a $(STAGE) $$tmp/ansible_collections/nfv/vnflcm && \
	cd $$tmp/ansible_collections/nfv/vnflcm && $(BIN)/antsibull-changelog lint && \
	ANSIBLE_COLLECTIONS_PATH=$$tmp $(BIN)/antsibull-changelog release --version $(VERSION) && \
	$(BIN)/python $(CURDIR)/tools/publish/check_release.py $(VERSION) .

galaxy-check: venv  ## build the tarball from this clone as the README says, check its content, run galaxy-importer on it
	@mkdir -p $(CACHE_ROOT); \
	flock $(CACHE_ROOT)/venv.lock bash -c '[ -f $(GALAXY_IMPORTER_VENV)/.done ] || { rm -rf $(GALAXY_IMPORTER_VENV) && $(PYTHON) -m venv $(GALAXY_IMPORTER_VENV) && $(GALAXY_IMPORTER_VENV)/bin/pip install -q --upgrade pip && $(GALAXY_IMPORTER_VENV)/bin/pip install -q $(GALAXY_IMPORTER) && touch $(GALAXY_IMPORTER_VENV)/.done; }'; \
	tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(BIN)/ansible-galaxy collection build --output-path $$tmp . >/dev/null; \
	tarball=$$tmp/nfv-vnflcm-$(VERSION).tar.gz; \
	mkdir $$tmp/content && tar -xzf $$tarball -C $$tmp/content --transform 's,^,nfv-vnflcm-$(VERSION)/,'; \
	bad=$$(cd $$tmp/content && find . -mindepth 1 | sed 's,^\./,,' | grep -E '$(NOT_PUBLISHED)' || true); \
	if [ -n "$$bad" ]; then echo "galaxy-check: the tarball holds what build_ignore should keep out:"; echo "$$bad" | head -20; exit 1; fi; \
	echo "galaxy-check: $$(tar -tzf $$tarball | grep -vc '/$$') files, $$(du -k $$tarball | cut -f1) KiB"; \
	if ! grep -q '^repository:' galaxy.yml; then \
	  echo "galaxy-check: galaxy.yml has no repository (no public home yet) and Galaxy requires one: the import is checked with $(STAND_IN_REPOSITORY) in MANIFEST.json"; \
	  mkdir $$tmp/flat && tar -xzf $$tarball -C $$tmp/flat && \
	  $(BIN)/python -c 'import json, sys; m = json.load(open(sys.argv[1])); m["collection_info"]["repository"] = sys.argv[2]; json.dump(m, open(sys.argv[1], "w"), indent=4)' $$tmp/flat/MANIFEST.json $(STAND_IN_REPOSITORY) && \
	  tar -czf $$tarball -C $$tmp/flat .; \
	fi; \
	rc=0; cd $$tmp && GALAXY_IMPORTER_CONFIG=$(CURDIR)/galaxy-importer.cfg $(GALAXY_IMPORTER_VENV)/bin/python -m galaxy_importer.main $$tarball > importer.log 2>&1 || rc=$$?; \
	cp importer.log $(CACHE_ROOT)/galaxy-importer.log; grep -E '^(ERROR|WARNING)|ERROR:|WARNING:' importer.log || true; tail -1 importer.log; \
	[ $$rc = 0 ] && ! grep -q 'ERROR' importer.log && echo "galaxy-importer: passed"

# ---------------------------------------------------------------------------------------------
# The local labs (tools/lab/*): real VIMs for integration tests and the demo.
K8S_LAB := $(BIN)/python tools/lab/k8s/lab.py
OS_LAB := $(BIN)/python tools/lab/openstack/lab.py
AM_LAB := $(BIN)/python tools/lab/alertmanager/alertmanager_lab.py
HELM_LAB := $(BIN)/python tools/lab/helm/helm_lab.py
# OpenStack lab tier for lab-up: 1 (Keystone + Heat) or 2 (+ Nova, Neutron, Cinder, ...).
LAB_TIER ?= 1

.PHONY: lab-build lab-build-k8s lab-build-openstack lab-build-alertmanager lab-build-helm lab-up lab-down lab-status
lab-build: lab-build-k8s lab-build-openstack lab-build-alertmanager lab-build-helm  ## build/install the local VIMs, Alertmanager and Helm (cached outside the clone; the first build takes a while)

lab-build-k8s: venv  ## build the Kubernetes lab only (the CNF demo needs no OpenStack)
	$(K8S_LAB) build

lab-build-openstack: venv  ## install the OpenStack lab (tier 2) only
	$(OS_LAB) install --tier 2

lab-build-alertmanager: venv  ## build Alertmanager from its Go module (the closed-loop tests and demo; cached outside the clone)
	$(AM_LAB) build

lab-build-helm: venv  ## build Helm 3 from its Go module (the Helm CLI lab test; cached outside the clone)
	$(HELM_LAB) build

lab-up: lab-build  ## start the local VIMs (Kubernetes, and OpenStack tier LAB_TIER)
	$(K8S_LAB) up
	$(OS_LAB) up --tier $(LAB_TIER)

lab-down: venv  ## stop the local VIMs
	$(K8S_LAB) down
	$(OS_LAB) down

lab-status: venv  ## show what runs
	-$(K8S_LAB) status
	-$(OS_LAB) status

# The Kubernetes tests and the OpenStack ones use different labs: they run side by side. The OpenStack tests run on
# OPENSTACK_WORKERS pytest-xdist workers against one tier-2 lab, started here unless one is up and stopped at the end
# only if started here (then first emptied of the stacks and servers an earlier, killed run left in its warm databases:
# tools/lab/openstack/purge.py): groups of files of about equal length (XDIST_GROUPS in tests/integration/openstack/conftest.py:
# they wait on Heat and Nova most of the time). Every OpenStack test runs on tier 2 (the tier-1 stubs are checked on a
# tier-1 lab of test_lab_lifecycle.py's own): a separate tier-1 run before tier 2 put 5-6 minutes on the critical path.
# The Kubernetes files run on K8S_WORKERS pytest-xdist workers, a file to a worker: with no lab up each worker starts a
# private lab of its own (tests/integration/k8s/conftest.py), so a fault test that stops its API server touches no
# other worker's tests. The Kubernetes run's output is shown when both are done.
PYTEST := NFV_FIXTURES_DIR=$(FIXTURES) $(BIN)/python -m pytest -q -p no:cacheprovider -rs --durations=12
OPENSTACK_WORKERS ?= 5
K8S_WORKERS ?= 2
K8S_LOG := $(CACHE_ROOT)/integration-k8s-$(RUN_KEY).log
# Every test's time, per part (JUnit XML): what XDIST_GROUPS and the workers' counts are balanced from.
TIMES := $(CACHE_ROOT)/integration-times-$(RUN_KEY)
integration: venv stage lab-build  ## integration tests against the local VIMs (a lab that is up is used, else one is started)
	@set +e; start=$$(date +%s); \
	$(PYTEST) -n $(K8S_WORKERS) --dist loadfile --no-loadscope-reorder --junitxml=$(TIMES)-k8s.xml tests/integration/k8s > $(K8S_LOG) 2>&1 & k8s=$$!; \
	openstack=0; started=0; \
	if ! $(OS_LAB) status >/dev/null 2>&1; then \
	  if $(OS_LAB) up --tier 2; then started=1; $(BIN)/python tools/lab/openstack/purge.py || true; else openstack=$$?; fi; \
	elif [ "$$($(OS_LAB) status --json | $(BIN)/python -c 'import json, sys; print(json.load(sys.stdin)["tier"])')" != 2 ]; then \
	  echo "integration: the running OpenStack lab is tier 1 (no Nova/Neutron): the OpenStack tests need tier 2; stop it (make lab-down) and run again"; openstack=1; \
	fi; \
	if [ $$openstack = 0 ]; then $(PYTEST) -n $(OPENSTACK_WORKERS) --dist loadgroup --no-loadscope-reorder --junitxml=$(TIMES)-openstack.xml tests/integration/openstack; openstack=$$?; fi; \
	if [ $$started = 1 ]; then $(OS_LAB) down; fi; \
	wait $$k8s; k8s_rc=$$?; \
	echo "---- tests/integration/k8s (ran side by side with the OpenStack tests) ----"; cat $(K8S_LOG); \
	echo "integration: kubernetes rc=$$k8s_rc, openstack rc=$$openstack, $$(( $$(date +%s) - start )) s"; \
	test $$k8s_rc = 0 -a $$openstack = 0

# ---------------------------------------------------------------------------------------------
# The README's two commands.
# The demo's output: YAML results, no skipped tasks, one line per module task (the playbooks print summaries).
DEMO_ANSIBLE := ANSIBLE_CALLBACK_RESULT_FORMAT=yaml ANSIBLE_DISPLAY_SKIPPED_HOSTS=false ANSIBLE_LOCALHOST_WARNING=false \
  ANSIBLE_INVENTORY_UNPARSED_WARNING=false $(BIN)/ansible-playbook
# The OpenStack cloud (clouds.yaml name) the VM demo works in: the lab's admin, as Heat lets only admins use
# the OS::Cinder::VolumeType that userdata_standard's VDU2 template declares.
DEMO_CLOUD ?= nfvlab-admin

.PHONY: demo demo-cnf demo-closed-loop demo-vm checks test bench clean
demo: demo-cnf demo-closed-loop demo-vm  ## the main job: the whole mission on the local labs (demo-cnf, demo-closed-loop, then demo-vm)

# Each part uses a lab that is up, else starts the one it needs and stops it at the end.
demo-cnf: venv stage lab-build-k8s lab-build-helm  ## CNFs on the local Kubernetes lab: namespaces, lifecycle, container update, a Helm chart's CNF
	@started=0; if ! $(K8S_LAB) status >/dev/null 2>&1; then $(K8S_LAB) up && started=1; fi; \
	  eval "$$($(K8S_LAB) env)"; start=$$(date +%s); rc=0; \
	  $(DEMO_ANSIBLE) tools/demo/cnf.yml -e demo_fixtures=$(FIXTURES) -e demo_kubeconfig=$$KUBECONFIG -e demo_helm=$$($(HELM_LAB) bin-path) || rc=$$?; \
	  echo "demo-cnf: rc=$$rc, $$(( $$(date +%s) - start )) s"; \
	  if [ $$started = 1 ]; then $(K8S_LAB) down; fi; exit $$rc

# The closed loop: Alertmanager and ansible-rulebook (the rulebook nfv.vnflcm.closed_loop) started here and stopped at the
# end, an alert posted as Prometheus posts it, the heal of the CNF's VNFC, the pod UIDs before and after.
demo-closed-loop: venv stage lab-build-k8s lab-build-alertmanager  ## the closed loop on the local Kubernetes lab: an alert, the rulebook heals
	@started=0; if ! $(K8S_LAB) status >/dev/null 2>&1; then $(K8S_LAB) up && started=1; fi; \
	  eval "$$($(K8S_LAB) env)"; start=$$(date +%s); rc=0; \
	  $(BIN)/python tools/demo/closed_loop.py --fixtures $(FIXTURES) --kubeconfig $$KUBECONFIG || rc=$$?; \
	  echo "demo-closed-loop: rc=$$rc, $$(( $$(date +%s) - start )) s"; \
	  if [ $$started = 1 ]; then $(K8S_LAB) down; fi; exit $$rc

demo-vm: venv stage lab-build-openstack  ## a VM-based VNF on the local OpenStack lab (tier 2): change of package, rollback
	@started=0; if ! $(OS_LAB) status >/dev/null 2>&1; then $(OS_LAB) up --tier 2 && started=1; \
	  elif [ "$$($(OS_LAB) status --json | $(BIN)/python -c 'import json, sys; print(json.load(sys.stdin)["tier"])')" != 2 ]; then \
	    echo "demo-vm: the running OpenStack lab is not tier 2 (no Nova/Neutron): stop it (make lab-down) or run make demo-vm when it is down"; exit 1; fi; \
	  eval "$$($(OS_LAB) env)"; start=$$(date +%s); rc=0; \
	  DEMO_CLOUD=$(DEMO_CLOUD) $(DEMO_ANSIBLE) tools/demo/vm.yml -e demo_fixtures=$(FIXTURES) -e demo_cloud=$(DEMO_CLOUD) || rc=$$?; \
	  echo "demo-vm: rc=$$rc, $$(( $$(date +%s) - start )) s"; \
	  if [ $$started = 1 ]; then $(OS_LAB) down; fi; exit $$rc

CHECKS := lint publish-check unit docs docs-lint sanity matrix
checks: $(CHECKS)  ## every check but the integration tests

# make test: first what the integration tests need (the venv, the staged tree, the labs' builds, on both job slots),
# then the integration tests on one slot from their first second and the checks one after another on the other
# (they use one core at a time; the tests wait on the labs much of the time). Left to one `make -j2 integration checks`,
# make filled both slots with checks and their venvs' first builds for minutes while the labs were ready.
# The checks' output shows as they run, the integration tests' when they end (--output-sync).
.PHONY: checks-in-turn
test:  ## the whole suite (what CI runs): the labs' builds, then the integration tests side by side with the checks
	@echo "make test: the labs' builds, then the integration tests side by side with the checks"
	@start=$$(date +%s); $(MAKE) --no-print-directory -j2 venv stage lab-build; \
	  echo "make test: the labs are built ($$(( $$(date +%s) - start )) s); the integration tests and the checks start"; \
	  $(MAKE) --no-print-directory -j2 --output-sync=target integration checks-in-turn KEEP_STAGE=1; \
	  echo "make test: all checks passed in $$(( $$(date +%s) - start )) s"

checks-in-turn:  # the checks one at a time (make test's second job slot; KEEP_STAGE goes down with MAKEFLAGS); stops at the first that fails
	@for check in $(CHECKS); do $(MAKE) --no-print-directory $$check || exit 1; done

bench: venv stage lab-build  ## benchmarks, ratios against a baseline on the same lab (see benchmarks/README.md)
	for b in benchmarks/*.py; do NFV_FIXTURES_DIR=$(FIXTURES) $(BIN)/python $$b || exit 1; done

clean:  ## remove the staged tree
	rm -rf $(STAGE_ROOT)
