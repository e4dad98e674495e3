"""Running cases: the runner (one case along its paths, the one convert, run and judge loop), campaigns (worker
processes, the journal, resume, shards; the same pool as Ray actors on a cluster), the shared findings database, and
the result records they write."""
