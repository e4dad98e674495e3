"""A findings database shared by the machines of one campaign, on Hypothesis's example databases.

``--database URL`` (``conformance fuzz``) and ``--conformance-database URL`` (the pytest plugin) take

* ``redis://HOST:PORT[/DB]`` (or ``rediss://``): Hypothesis's :class:`~hypothesis.extra.redis.RedisExampleDatabase`
  on that server (needs the ``redis`` package: ``pip install conformance[shared]``); entries expire after
  Hypothesis's default of 8 days without use;
* a directory: Hypothesis's :class:`~hypothesis.database.DirectoryBasedExampleDatabase`, e.g. on a file
  system the machines share.

A campaign saves every finding (a case and the path it failed on) in the database as it is found, and
replays the findings already there before it draws its own cases, so a failure found on one machine is
checked first on all the others (and on the next run of the same machine, after a fix). Under pytest the
same database becomes Hypothesis's, beside the local one: a failing example of a test, saved by one
machine, is replayed first by Hypothesis on every machine that runs the test.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

from conformance.run.records import ResultRecord

#: The database key campaign findings are saved under (its format version is part of it).
FINDINGS_KEY = b"conformance:findings:v1"


class DatabaseError(ValueError):
    """A database URL that cannot be opened; the message says why."""


def open_database(url: str):
    """The Hypothesis example database ``url`` names (see the module docstring)."""
    if url.startswith(("redis://", "rediss://", "unix://")):
        try:
            import redis
        except ImportError:
            raise DatabaseError(f"{url}: a Redis database needs the 'redis' package "
                                f"(pip install 'conformance[shared]')") from None
        from hypothesis.extra.redis import RedisExampleDatabase

        client = redis.Redis.from_url(url, socket_connect_timeout=5)
        try:
            client.ping()
        except redis.RedisError as e:
            raise DatabaseError(f"{url}: cannot reach the Redis server: {e}") from None
        return RedisExampleDatabase(client)
    if "://" in url:
        raise DatabaseError(f"{url}: unknown database; give redis://HOST:PORT[/DB] or a directory")
    from hypothesis.database import DirectoryBasedExampleDatabase

    path = Path(url)
    if path.exists() and not path.is_dir():
        raise DatabaseError(f"{url}: not a directory")
    return DirectoryBasedExampleDatabase(str(path))


def publish(db, record: ResultRecord) -> None:
    """Save the finding ``record`` (its case, path and mode) so every machine replays it first."""
    entry = {"case": record.case, "path": record.path_id, "mode": record.mode, "outcome": record.outcome,
             "versions": record.versions}
    db.save(FINDINGS_KEY, json.dumps(entry, sort_keys=True).encode())


def findings(db) -> Iterator[tuple]:
    """``(case, path id, mode, outcome)`` of every finding in the database, in a stable order (by case
    id); entries that are not valid findings (another tool's, a newer format) are skipped."""
    from conformance.program.case import Case
    from conformance.program.ir import ProgramError

    out = []
    for value in db.fetch(FINDINGS_KEY):
        try:
            entry = json.loads(value)
            out.append((Case.from_dict(entry["case"]), entry["path"], entry.get("mode", "infer"),
                        entry.get("outcome", "")))
        except (ValueError, KeyError, TypeError, ProgramError):
            continue
    yield from sorted(out, key=lambda f: (f[0].id, f[1], f[2]))
