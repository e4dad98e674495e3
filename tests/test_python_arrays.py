"""The frameworks' own idioms for lists of tensors and ``for`` over a tensor's rows: a list of a length known before
its loop is a fixed-size ``tf.TensorArray`` in TensorFlow, a list the generator marks ``array`` is Paddle's tensor
array (eager and ``to_static``), ``for r in x`` is a loop of the IR with a drawn body; planted faults in each
array are caught as mismatches while the clean paths pass."""

import dataclasses

import pytest

from conformance.program.ir import (
    DYNAMIC,
    Break,
    For,
    If,
    OpStmt,
    OutSeq,
    OutVar,
    ProgramError,
    TensorCond,
)
from conformance.program.program import Program
from conformance.program.pyops import arrays, fixed_arrays, tensor_arrays
from conformance.render.source import render

from .test_python_values import program_of, py


def _fill_loop(body=None, array=True):
    """``n = x.shape[0]; l = [tanh(x)] * n; for i in range(n): l[i] = sigmoid(x) * i; acc = acc + l[i].mean()``."""
    mark = {"array": True} if array else {}
    body = body or (OpStmt("v4", "sigmoid", ("v0",)), py("v5", "scale_by", "i0", "v4"),
                    py("v3", "setitem_at", "v3", "i0", "v5"), py("v6", "getitem_at", "v3", "i0"),
                    py("v7", "acc_add", "v7", "v6"))
    return (py("v1", "dim_of", "v0", c=0, dim=0, k=1), OpStmt("v2", "tanh", ("v0",)),
            py("v3", "list_fill", "v2", "v1", **mark), py("v7", "const", value=0.0), For("i0", "v1", body),
            py("v8", "stack_reduce", "v3", reduce="mean"))


#: ``rows = []; for r in x: rows.append(tanh(r) * 2)``, stacked and summed.
ROWS = (py("v9", "list_new", of="tensor", array=True),
        For("r0", "v0", (OpStmt("v10", "tanh", ("r0",)), OpStmt("v10", "mul_scalar", ("v10",), (("c", 2.0),)),
                         py("v9", "append", "v9", "v10")), rows=True),
        py("v11", "stack_reduce", "v9", reduce="sum"))
OUT = OutSeq("tuple", (OutVar("v8"), OutVar("v7"), OutVar("v11")))


def _program(batch=3, length=False):
    extra = (py("v12", "len_of", "v3"),) if length else ()
    out = OutSeq("tuple", OUT.items + (OutVar("v12"),)) if length else OUT
    return program_of(*_fill_loop(), *ROWS, *extra, output=out, shape=(batch, 4))


def test_arrays_render_as_each_framework_writes_them():
    p = _program(length=True)
    assert fixed_arrays(p) == {"v3"} and tensor_arrays(p) == {"v9"} and arrays(p, "paddle") == {"v3", "v9"}
    assert {"for_rows", "list_value"} <= p.constructs()
    torch_src, paddle_src, tf_src = (render(p, fw) for fw in ("torch", "paddle", "tf"))
    assert "        v3 = [v2] * v1\n        v7 = 0.0\n        for i0 in range(v1):\n" in torch_src
    assert "            v3[i0] = v5\n            v6 = v3[i0]\n" in torch_src and "        for r0 in v0:\n" in torch_src
    assert "        v3 = tf.TensorArray(tf.float32, size=v1, clear_after_read=False)\n" in tf_src
    assert "            v3 = v3.write(i0, v5)\n            v6 = v3.read(i0)\n" in tf_src
    assert "v8 = tf.reduce_mean(v3.stack(), 0)" in tf_src and "v12 = v3.size()" in tf_src
    assert "        v9 = tf.TensorArray(tf.float32, size=0, dynamic_size=True)\n" in tf_src  # grown over the rows
    assert "        v3 = paddle.tensor.create_array(paddle.float32)\n" in paddle_src
    assert "            v3 = paddle.tensor.array_write(v5, paddle.full([1], i0, 'int64'), v3)\n" in paddle_src
    assert "            v6 = paddle.tensor.array_read(v3, paddle.full([1], i0, 'int64'))\n" in paddle_src
    assert "v12 = paddle.tensor.array_length(v3)" in paddle_src and "v8 = paddle.stack(v3).mean(0)" in paddle_src
    assert "paddle.tensor.array_write(v10, paddle.full([1], paddle.tensor.array_length(v9), 'int64'), v9)" in paddle_src
    unmarked = program_of(*_fill_loop(array=False), output=OutVar("v8"))
    assert not arrays(unmarked, "paddle") and "[v2] * v1" in render(unmarked, "paddle")
    probed = render(p, "torch", probed=True)
    assert "for r0 in _counted(1, v0, rows=True):" in probed  # each row a decision the oracle's replay follows


def test_a_list_is_a_fixed_size_array_only_where_every_index_is_written_before_it_is_read():
    write = (OpStmt("v4", "sigmoid", ("v0",)), py("v5", "scale_by", "i0", "v4"),
             py("v3", "setitem_at", "v3", "i0", "v5"))
    read = (py("v6", "getitem_at", "v3", "i0"), py("v7", "acc_add", "v7", "v6"))
    escape = (If(TensorCond("v0", "mean", ">", 0.0), (Break(),)),)
    assert fixed_arrays(program_of(*_fill_loop(write + read), output=OutVar("v8"))) == {"v3"}
    for body in (read + write, escape + write + read, (OpStmt("v4", "sigmoid", ("v0",)),) + read):
        assert not fixed_arrays(program_of(*_fill_loop(body), output=OutVar("v8"))), body
    # a loop over another count, or the list returned, is a Python list
    other = [dataclasses.replace(s, count=2) if isinstance(s, For) else s for s in _fill_loop(write)]
    assert not fixed_arrays(program_of(*other, output=OutVar("v8")))
    assert not fixed_arrays(program_of(*_fill_loop(write), output=OutSeq("tuple", (OutVar("v8"), OutVar("v3")))))


def test_a_for_over_rows_binds_each_row_and_keeps_old_programs_unchanged():
    p = program_of(*ROWS, output=OutVar("v11"), shape=(DYNAMIC, 4))
    assert Program.from_json(p.to_json()) == p and '"rows": true' in p.to_json()
    assert '"rows"' not in program_of(For("i0", 2, ()), output=OutVar("v0")).to_json()
    with pytest.raises(ProgramError, match="rank >= 1"):
        program_of(OpStmt("v1", "sum_all", ("v0",)), For("r0", "v1", (), rows=True), output=OutVar("v0"))
    with pytest.raises(ProgramError, match="stack needs a list with items"):  # the row type flows into the list
        program_of(py("v9", "list_new", of="tensor"), For("r0", "v0", (), rows=True),
                   py("v11", "stack_reduce", "v9", reduce="sum"), output=OutVar("v11"))


def test_paddle_tensor_arrays_convert_under_to_static_and_a_dropped_last_write_is_a_mismatch():
    pytest.importorskip("paddle")
    from conformance.paths.records import PATHS, load_framework
    from conformance.program.case import Case, InputSet
    from conformance.run.runner import check

    from . import planted_arrays  # noqa: F401

    load_framework("paddle")
    case = Case(_program(), (InputSet("example", 1, 1, ()), InputSet("values", 1, 2, ())))
    for clean in ("paddle.eager", "paddle.to_static"):
        assert check(case, PATHS[clean]).outcome == "pass", clean
    found = check(case, PATHS["paddle.planted_array_drops_last"])
    assert found.outcome == "mismatch" and "[0]" in found.detail.message, found.detail.message


def test_fixed_size_tensor_arrays_convert_and_a_dropped_last_write_is_a_mismatch():
    pytest.importorskip("tensorflow")
    from conformance.paths.records import PATHS, load_framework
    from conformance.program.case import Case, InputSet
    from conformance.run.runner import check

    from . import planted_arrays  # noqa: F401

    load_framework("tf")
    case = Case(_program(), (InputSet("example", 1, 1, ()), InputSet("values", 1, 2, ())))
    for clean in ("tf.eager", "tf.function"):
        assert check(case, PATHS[clean]).outcome == "pass", clean
    found = check(case, PATHS["tf.planted_fixed_array_drops_last"])
    assert found.outcome == "mismatch" and "[0]" in found.detail.message, found.detail.message


@pytest.mark.slow
@pytest.mark.parametrize("framework, module, path", [  # Paddle first: Paddle after TensorFlow in one process crashes
    ("paddle", "paddle", "paddle.planted_array_drops_last"),
    ("tf", "tensorflow", "tf.planted_fixed_array_drops_last"),
])
def test_a_dropped_last_write_of_an_array_is_caught_by_a_campaign_within_two_minutes(tmp_path, framework, module,
                                                                                        path):
    import json

    pytest.importorskip(module)
    from conformance.paths.records import PATHS, load_framework
    from conformance.run.campaign import Campaign, CampaignOptions

    from . import planted_arrays  # noqa: F401

    load_framework(framework)
    opts = CampaignOptions(seed=0, budget=120, max_cases=400, paths=[PATHS[path]], workers=1, out=tmp_path,
                           modules=["tests.planted_arrays"], generator={"frameworks": (framework,)})
    Campaign(opts).run()
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    planted = path.partition(".")[2]
    assert any(r["outcome"] == "mismatch" for r in records if r["path"] == planted), \
        [r["outcome"] for r in records][:40]
