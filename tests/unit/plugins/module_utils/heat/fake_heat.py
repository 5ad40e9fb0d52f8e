# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""In-memory stand-ins for heat.stack.Stacks and the SDK connection's compute proxy (unit tests only): stacks, record metadata, servers and the writes made."""

from __future__ import annotations

import datetime


class FakeStacks:
    def __init__(self):
        self.stacks = {}
        self.metadata = {}
        self.writes = []
        self.previews = 0
        self.racing = False

    def add(self, name, stack_id, tags=()):
        self.stacks[stack_id] = {"stack_name": name, "id": stack_id, "tags": list(tags), "stack_status": "CREATE_COMPLETE"}
        return {"stack_name": name, "id": stack_id}

    def list(self, **filters):
        found = list(self.stacks.values())
        if "name" in filters:
            found = [stack for stack in found if stack["stack_name"] == filters["name"]]
        if "tags" in filters:
            found = [stack for stack in found if filters["tags"] in stack["tags"]]
        return found

    def find(self, name):
        found = self.list(name=name)
        return found[0] if found else None

    def resource_metadata(self, stack, resource):
        return self.metadata.get((stack["id"], resource), {})

    def signal(self, stack, resource, details):
        self.writes.append(("signal", stack["stack_name"], resource))
        self.metadata.setdefault((stack["id"], resource), {})[details["id"]] = {"status": details["status"], "data": details["data"]}

    def pause(self, seconds=0.25):
        pass

    def files(self, stack):
        return {}

    def preview_update(self, stack, template, files, parameters):
        # A preview writes nothing; the test sees it was asked.
        self.previews += 1
        return {}

    def preview_create(self, name, template, files, parameters):
        self.previews += 1
        return {"resources": []}

    def wait_settled(self, stack, timeout):
        return self.stacks.get(stack["id"])

    def resource_status(self, stack, resource):
        return "CREATE_COMPLETE"

    def retrying(self, seconds, what, call):
        return call()

    def now(self):
        return datetime.datetime(2026, 11, 22, 5, 0, 0, tzinfo=datetime.timezone.utc)

    def url(self, stack):
        return "http://heat.test/v1/project/stacks/" + "/".join(part for part in (stack["stack_name"], stack.get("id")) if part)

    def create_unless_exists(self, name, template, tags=()):
        """A claim's create: None when a stack of the name exists, unless :attr:`racing` lets it in beside it (as Heat
        does for two creates at one moment)."""
        self.writes.append(("create", name))
        if self.list(name=name) and not self.racing:
            return None
        stack = self.add(name, "claim-{0}".format(len(self.writes)), tags)
        self.stacks[stack["id"]]["creation_time"] = self.now().strftime("%Y-%m-%dT%H:%M:%SZ")
        return stack

    def delete(self, stack):
        self.writes.append(("delete", stack))
        if "vnflcm-claim" in self.stacks.get(stack.get("id"), {}).get("tags", ()):
            self.stacks.pop(stack["id"])

    def __getattr__(self, name):
        # Any other call (create, patch, delete, ...) is a write the test can see.
        def write(*args, **kwargs):
            self.writes.append((name,) + args)
        return write


class FakeCompute:
    """Nova's servers as heal and terminate read them: ACTIVE unless ``statuses`` says otherwise; deleted ones are gone."""

    def __init__(self, statuses=None):
        self.statuses = dict(statuses or {})
        self.deleted = []

    def find_server(self, server_id, ignore_missing=True):
        if server_id in self.deleted:
            return None
        return type("Server", (), {"id": server_id, "status": self.statuses.get(server_id, "ACTIVE")})()

    def delete_server(self, server_id, ignore_missing=True):
        self.deleted.append(server_id)


class FakeConn:
    def __init__(self, compute=None):
        self.compute = compute or FakeCompute()
