"""Small hand-written models in the idioms users write, per framework, for ``conformance check``'s self-tests.

Each module holds a ``MODELS`` dict: name -> (a factory with no arguments, a function returning the example
``(args, kwargs)``)."""
