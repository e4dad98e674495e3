"""A custom ``torch.compile`` backend, and its paths for ``conformance`` (see ``paths.py``)."""
