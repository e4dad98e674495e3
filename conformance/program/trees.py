"""Nested inputs and outputs: lists, tuples and dicts of tensors, flattened and rebuilt.

Standalone (only the standard library): reproducers copy these functions (see
:mod:`conformance.paths.standalone`).
"""


class FlatOutputs(list):
    """Outputs of a runtime that loses the output structure (ONNX): the runner rebuilds it from eager's."""


def flatten(tree) -> list:
    """Leaves of a nested list/tuple/dict tree in the order frameworks flatten them."""
    if isinstance(tree, (list, tuple)):
        return [leaf for item in tree for leaf in flatten(item)]
    if isinstance(tree, dict):
        return [leaf for item in tree.values() for leaf in flatten(item)]
    return [tree]


def unflatten(like, leaves: list):
    """Rebuild ``like``'s structure from a flat list of leaves (inverse of :func:`flatten`)."""
    it = iter(leaves)

    def build(node):
        if isinstance(node, list):
            return [build(i) for i in node]
        if isinstance(node, tuple):
            return tuple(build(i) for i in node)
        if isinstance(node, dict):
            return {k: build(v) for k, v in node.items()}
        return next(it)

    out = build(like)
    rest = sum(1 for _ in it)
    if rest:
        raise ValueError(f"{rest} leaves left over when rebuilding the structure")
    return out


def map_tree(fn, tree):
    if isinstance(tree, list):
        return [map_tree(fn, i) for i in tree]
    if isinstance(tree, tuple):
        return tuple(map_tree(fn, i) for i in tree)
    if isinstance(tree, dict):
        return {k: map_tree(fn, v) for k, v in tree.items()}
    return fn(tree)
