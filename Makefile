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
STAGE_ROOT := $(CACHE_ROOT)/stage/$(shell echo $(CURDIR) | sha256sum | cut -c1-12)/collections
STAGE := $(STAGE_ROOT)/ansible_collections/nfv/vnflcm
export ANSIBLE_COLLECTIONS_PATH := $(STAGE_ROOT)
export PATH := $(BIN):$(PATH)
FIXTURES ?= $(abspath $(CURDIR)/../shared/fixtures/tacker)

.PHONY: help venv venv-path
help:  ## list targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

venv: $(VENV)/.done  ## create the tool venv (cached outside the clone)
$(VENV)/.done: requirements.txt tests/requirements-dev.txt
	mkdir -p $(CACHE_ROOT)
	flock $(CACHE_ROOT)/venv.lock bash -c '[ -f $@ ] || { rm -rf $(VENV) && $(PYTHON) -m venv $(VENV) && $(BIN)/pip install -q --upgrade pip && $(BIN)/pip install -q -r tests/requirements-dev.txt && touch $@; }'

venv-path:  ## print the venv's path
	@echo $(VENV)

# ---------------------------------------------------------------------------------------------
# Staging: ansible-test and ansible-doc need a real ansible_collections/nfv/vnflcm tree.
.PHONY: stage
stage:  ## copy the collection's files into .tmp/collections/ansible_collections/nfv/vnflcm
	rm -rf $(STAGE) && mkdir -p $(STAGE)
	git ls-files -z -co --exclude-standard -- . ':!tools' ':!benchmarks' ':!.ci' \
	  | xargs -0 -I{} sh -c 'test -e "{}" && printf "%s\0" "{}"' \
	  | tar --null -T - -cf - | tar -xf - -C $(STAGE)

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

docs: venv stage  ## every module's documentation renders with ansible-doc
	for m in $$(ls plugins/modules/*.py | xargs -n1 basename | sed 's/\.py$$//'); do \
	  $(BIN)/ansible-doc nfv.vnflcm.$$m > /dev/null || { echo "ansible-doc failed for $$m"; exit 1; }; \
	  echo "ansible-doc nfv.vnflcm.$$m: ok"; done

# ---------------------------------------------------------------------------------------------
# The local labs (tools/lab/*): real VIMs for integration tests and the demo.
K8S_LAB := $(BIN)/python tools/lab/k8s/lab.py
OS_LAB := $(BIN)/python tools/lab/openstack/lab.py
# OpenStack lab tier for lab-up: 1 (Keystone + Heat) or 2 (+ Nova, Neutron, Cinder, ...).
LAB_TIER ?= 1

.PHONY: lab-build lab-up lab-down lab-status
lab-build: venv  ## build/install the local VIMs (cached outside the clone; the first build takes a while)
	$(K8S_LAB) build
	$(OS_LAB) install --tier 2

lab-up: lab-build  ## start the local VIMs (Kubernetes, and OpenStack tier LAB_TIER)
	$(K8S_LAB) up
	$(OS_LAB) up --tier $(LAB_TIER)

lab-down: venv  ## stop the local VIMs
	$(K8S_LAB) down
	$(OS_LAB) down

lab-status: venv  ## show what runs
	-$(K8S_LAB) status
	-$(OS_LAB) status

# The Kubernetes tests and the OpenStack ones use different labs: they run side by side. The OpenStack
# tests run twice, so that those meant for tier 1 (stub resources) get a tier-1 lab and the tier2 ones
# a tier-2 lab; each run starts what it needs unless a lab is already up. The Kubernetes run's output
# is shown when both are done.
PYTEST := NFV_FIXTURES_DIR=$(FIXTURES) $(BIN)/python -m pytest -q -p no:cacheprovider -rs
K8S_LOG := $(CACHE_ROOT)/integration-k8s-$(shell echo $(CURDIR) | sha256sum | cut -c1-12).log
integration: venv stage lab-build  ## integration tests against the local VIMs (a lab that is up is used, else one is started)
	@set +e; start=$$(date +%s); \
	$(PYTEST) tests/integration/k8s > $(K8S_LOG) 2>&1 & k8s=$$!; \
	$(PYTEST) -m "not tier2" tests/integration/openstack; tier1=$$?; \
	$(PYTEST) -m tier2 tests/integration/openstack; tier2=$$?; \
	wait $$k8s; k8s_rc=$$?; \
	echo "---- tests/integration/k8s (ran side by side with the OpenStack tests) ----"; cat $(K8S_LOG); \
	echo "integration: kubernetes rc=$$k8s_rc, openstack tier 1 rc=$$tier1, tier 2 rc=$$tier2, $$(( $$(date +%s) - start )) s"; \
	test $$k8s_rc = 0 -a $$tier1 = 0 -a $$tier2 = 0

# ---------------------------------------------------------------------------------------------
# The README's two commands.
DEMO_PACKAGE ?= $(FIXTURES)/test_cnf_multi_ns

.PHONY: demo test bench clean
demo: venv stage lab-build  ## the main job: a CNF's whole lifecycle on the local Kubernetes lab
	@started=0; if ! $(K8S_LAB) status >/dev/null 2>&1; then $(K8S_LAB) up && started=1; fi; \
	  eval "$$($(K8S_LAB) env)"; \
	  ANSIBLE_CALLBACK_RESULT_FORMAT=yaml ANSIBLE_LOCALHOST_WARNING=false ANSIBLE_INVENTORY_UNPARSED_WARNING=false \
	    $(BIN)/ansible-playbook tools/demo/cnf_lifecycle.yml -e demo_package=$(DEMO_PACKAGE) -e demo_kubeconfig=$$KUBECONFIG; rc=$$?; \
	  if [ $$started = 1 ]; then $(K8S_LAB) down; fi; exit $$rc

test: lint unit docs sanity integration  ## the whole suite (what CI runs)
	@echo "make test: all checks passed"

bench: venv stage lab-build  ## benchmarks, ratios against a baseline on the same lab (see benchmarks/README.md)
	for b in benchmarks/*.py; do NFV_FIXTURES_DIR=$(FIXTURES) $(BIN)/python $$b || exit 1; done

clean:  ## remove the staged tree
	rm -rf $(STAGE_ROOT)
