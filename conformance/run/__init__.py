"""Running cases: the runner (one case along its paths, the one convert, run and judge loop), campaigns (worker
processes, the journal, resume, shards), the shared findings database, and the result records they write."""
