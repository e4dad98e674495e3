"""From findings to bug reports: failure signatures, the reducer (and its worker), buckets, reproducers
(``repro.py`` assembled from the code the campaign ran), bug reports, and the ``cases/`` corpus."""
